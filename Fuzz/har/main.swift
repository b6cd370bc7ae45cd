import Foundation
import URLSchemeKitTesting

// libFuzzer entry for HARReader, the reader of recorded HTTP sessions (HAR 1.2
// files, which may come from anywhere: a browser's export, a colleague's
// commit). Only HARReadError may be thrown; a file that reads has at most
// the reader's entries, absolute URLs, statuses 0 or 100…999, bodies that
// decode, and writes and reads back to the same file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHARReader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let reader = HARReader(maximumBytes: 1 << 20, maximumEntries: 64)
    let file: HARFile
    do {
        file = try reader.read(data)
    } catch is HARReadError {
        return 0
    } catch {
        preconditionFailure("HARReader threw \(error)")
    }
    precondition(file.log.entries.count <= 64, "\(file.log.entries.count) entries")
    for entry in file.log.entries {
        precondition(URL(string: entry.request.url)?.scheme != nil, "url \(entry.request.url)")
        precondition(entry.response.status == 0 || (100...999).contains(entry.response.status), "status \(entry.response.status)")
        precondition(entry.response.content.data != nil, "content does not decode")
    }
    do {
        let written = try HARWriter().data(file)
        let again = try reader.read(written)
        let rewritten = try HARWriter().data(again)
        precondition(rewritten == written, "a written file reads back differently")
    } catch {
        preconditionFailure("a file that read could not be written and read back: \(error)")
    }
    return 0
}
