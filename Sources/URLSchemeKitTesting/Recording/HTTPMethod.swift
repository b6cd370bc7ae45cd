/// An HTTP method a stub answers (`.any`: every method).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The method, upper-case (`"*"` for ``any``).
    public let rawValue: String

    /// The method `rawValue` (upper-cased).
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    /// The method written as a literal: `"PROPFIND"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// Any method.
    public static let any = HTTPMethod(rawValue: "*")

    /// Whether a request of `method` is one of these.
    func accepts(_ method: String) -> Bool { self == .any || rawValue == method.uppercased() }
}
