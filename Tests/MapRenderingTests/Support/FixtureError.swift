/// A test's own fixture (a style or source written in the test) did not read
/// as the test expects: thrown so the test fails, where a skip would hide it.
struct FixtureError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
