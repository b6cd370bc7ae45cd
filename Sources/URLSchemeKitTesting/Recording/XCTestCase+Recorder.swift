import Foundation
import XCTest

extension XCTestCase {
    /// A recorder for this test, its file `Recordings/<test class>/<test name>.har`
    /// beside the test's source file (or in `directory`). When the test ends,
    /// ``HTTPRecorder/finish()`` runs: an unmatched request (or, if asked, an
    /// unused recording) fails the test, with the message that says how to record it.
    public func httpRecorder(_ name: String? = nil, in directory: URL? = nil, options: HTTPRecorder.Options = HTTPRecorder.Options(),
                             sourceFile: StaticString = #filePath, line: UInt = #line) throws -> HTTPRecorder {
        let testClass = String(describing: type(of: self))
        let testName = name ?? self.name.split(whereSeparator: { " .[]-".contains($0) }).last.map(String.init) ?? "recording"
        let folder = directory ?? URL(fileURLWithPath: "\(sourceFile)").deletingLastPathComponent()
            .appendingPathComponent("Recordings").appendingPathComponent(testClass)
        let recorder = try HTTPRecorder(file: folder.appendingPathComponent(testName + ".har"), options: options)
        addTeardownBlock {
            do {
                try recorder.finish()
            } catch {
                XCTFail(String(describing: error), file: sourceFile, line: line)
            }
        }
        return recorder
    }
}
