import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The code under test: an app's client of a forecast API, which knows
/// nothing of recordings; the test hands it a session.
struct ForecastClient {
    /// One city's forecast, as the API sends it.
    struct Forecast: Decodable, Equatable {
        var city: String
        var high: Int
        var low: Int
        var sky: String
    }

    var base: URL
    var session: URLSession

    func forecast(city: String) async throws -> Forecast {
        let url = base.appendingPathComponent("forecast").appendingPathComponent(city + ".json")
        let (data, response) = try await session.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(Forecast.self, from: data)
    }
}
