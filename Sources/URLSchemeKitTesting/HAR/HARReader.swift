import Foundation

/// Reads HAR files, treating every byte as hostile: the file's size and its
/// number of entries are bounded before anything is built, and every fault
/// is a ``HARReadError`` naming the field (`log.entries[2].request.url`).
public struct HARReader: Sendable {
    /// The largest file read, in bytes (default 64 MiB).
    public var maximumBytes: Int
    /// The most entries a file may hold (default 20,000).
    public var maximumEntries: Int

    /// A reader with these limits.
    public init(maximumBytes: Int = 64 << 20, maximumEntries: Int = 20_000) {
        self.maximumBytes = maximumBytes
        self.maximumEntries = maximumEntries
    }

    /// The `userInfo` key under which ``HARLog`` finds the entry limit.
    static let entryLimitKey = CodingUserInfoKey(rawValue: "URLSchemeKitTesting.HAR.entryLimit")!

    /// Reads the file at `url`; its size is checked before it is read.
    public func read(contentsOf url: URL) throws -> HARFile {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw HARReadError.unreadable("\(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        // One byte past the limit tells a file at the limit from a larger one
        // (the size on disk could change between a stat and the read).
        let data: Data
        do {
            data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
        } catch {
            throw HARReadError.unreadable("\(url.path): \(error.localizedDescription)")
        }
        guard data.count <= maximumBytes else {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
            throw HARReadError.tooLarge(bytes: size ?? data.count, limit: maximumBytes)
        }
        return try read(data)
    }

    /// Reads a HAR file held in `data`.
    public func read(_ data: Data) throws -> HARFile {
        guard data.count <= maximumBytes else { throw HARReadError.tooLarge(bytes: data.count, limit: maximumBytes) }
        let decoder = JSONDecoder()
        decoder.userInfo[Self.entryLimitKey] = maximumEntries
        let file: HARFile
        do {
            file = try decoder.decode(HARFile.self, from: data)
        } catch let error as HARReadError {
            throw error
        } catch let error as DecodingError {
            throw Self.converting(error)
        } catch {
            throw HARReadError.notJSON(String(describing: error))
        }
        try validate(file)
        return file
    }

    /// Checks what the types alone cannot: URLs that parse, methods that are tokens, statuses in range, bodies that decode.
    private func validate(_ file: HARFile) throws {
        for (index, entry) in file.log.entries.enumerated() {
            let path = "log.entries[\(index)]"
            guard let url = URL(string: entry.request.url), url.scheme != nil else {
                throw HARReadError.invalidValue(path: path + ".request.url", reason: "\"\(entry.request.url.prefix(80))\" is not an absolute URL")
            }
            let method = entry.request.method
            guard !method.isEmpty, method.count <= 32, method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) else {
                throw HARReadError.invalidValue(path: path + ".request.method", reason: "\"\(method.prefix(40))\" is not an HTTP method")
            }
            guard entry.response.status == 0 || (100...999).contains(entry.response.status) else {
                throw HARReadError.invalidValue(path: path + ".response.status", reason: "\(entry.response.status) is not an HTTP status")
            }
            guard entry.response.content.data != nil else {
                throw HARReadError.invalidValue(path: path + ".response.content.text", reason: "not valid base64 (content.encoding is base64)")
            }
            if let body = entry.request.postData, body.data == nil {
                throw HARReadError.invalidValue(path: path + ".request.postData.text", reason: "not valid base64 (postData._encoding is base64)")
            }
        }
    }

    /// A decoding error as the field path and what was wrong there.
    static func converting(_ error: DecodingError) -> HARReadError {
        func path(_ context: DecodingError.Context, adding key: CodingKey? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case let .typeMismatch(type, context):
            return .wrongType(path: path(context), expected: describe(type))
        case let .valueNotFound(type, context):
            return .wrongType(path: path(context), expected: describe(type) + ", found null")
        case let .keyNotFound(key, context):
            return .missingField(path: path(context, adding: key))
        case let .dataCorrupted(context):
            let underlying = context.underlyingError.map { " (\(String(describing: $0).prefix(200)))" } ?? ""
            return context.codingPath.isEmpty ? .notJSON(context.debugDescription + underlying)
                : .invalidValue(path: path(context), reason: context.debugDescription)
        @unknown default:
            return .notJSON(String(describing: error))
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is [Any].Type: return "an array"
        default: return String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
