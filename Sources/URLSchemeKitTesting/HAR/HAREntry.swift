import Foundation

/// One recorded exchange: the request, what answered it, and when.
public struct HAREntry: Codable, Sendable, Equatable {
    /// When the request started, ISO 8601 (kept as written).
    public var startedDateTime: String
    /// Milliseconds the exchange took (replayed as latency when asked).
    public var time: Double
    /// What was sent.
    public var request: HARRequest
    /// What answered.
    public var response: HARResponse
    /// HAR's cache object (required by the format; we write it empty).
    public var cache: [String: String]
    /// HAR's timings (required by the format): send, wait, receive in milliseconds.
    public var timings: HARTimings

    /// An entry of `request` answered by `response` in `time` milliseconds.
    public init(startedDateTime: String, time: Double, request: HARRequest, response: HARResponse) {
        self.startedDateTime = startedDateTime
        self.time = time
        self.request = request
        self.response = response
        cache = [:]
        timings = HARTimings(send: 0, wait: time, receive: 0)
    }

    private enum CodingKeys: String, CodingKey {
        case startedDateTime, time, request, response, cache, timings
    }

    /// Reads an entry; `cache` and `timings` may be absent (hand-written files).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime) ?? ""
        time = try container.decodeIfPresent(Double.self, forKey: .time) ?? 0
        request = try container.decode(HARRequest.self, forKey: .request)
        response = try container.decode(HARResponse.self, forKey: .response)
        cache = [:]
        timings = try container.decodeIfPresent(HARTimings.self, forKey: .timings) ?? HARTimings(send: 0, wait: time, receive: 0)
    }
}

/// HAR's timings of one exchange, in milliseconds (-1: not known).
public struct HARTimings: Codable, Sendable, Equatable {
    /// Sending the request.
    public var send: Double
    /// Waiting for the first byte.
    public var wait: Double
    /// Receiving the body.
    public var receive: Double

    /// Timings of `send`, `wait` and `receive` milliseconds.
    public init(send: Double, wait: Double, receive: Double) {
        self.send = send
        self.wait = wait
        self.receive = receive
    }
}

/// A header, query parameter or form field: HAR's name/value pair.
public struct HARNameValue: Codable, Sendable, Equatable {
    /// The name, as sent.
    public var name: String
    /// The value.
    public var value: String

    /// The pair `name`, `value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
