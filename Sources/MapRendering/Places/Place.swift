/// A populated place that maps can label: GeoNames' name (in Latin script),
/// where it is, how many live there, and whether it is a national capital.
public struct Place: Hashable, Sendable {
    /// The usual name in Latin script ("Saint Petersburg", "São Paulo").
    public var name: String
    /// Where the place is.
    public var coordinate: GeoCoordinate
    /// Inhabitants, as GeoNames counts them.
    public var population: Int
    /// Whether the place is its country's capital.
    public var isCapital: Bool

    /// A place.
    public init(name: String, coordinate: GeoCoordinate, population: Int, isCapital: Bool) {
        self.name = name
        self.coordinate = coordinate
        self.population = population
        self.isCapital = isCapital
    }

    /// Every embedded place (GeoNames, CC BY 4.0: about 23,000 places of 25,000
    /// people or more, and every national capital), most important first:
    /// capitals, then by population. Decoded once, on first use; throws only if
    /// the embedded data were damaged.
    public static var all: [Place] {
        get throws { try embedded.get() }
    }

    // Static lets are initialised once, thread-safely, on first access.
    private static let embedded = Result { try PlaceData.decode(base64: PlaceData.geoNames) }

    /// Whether `self` should be labelled before `other`: capitals first, then bigger places.
    public func outranks(_ other: Place) -> Bool {
        if isCapital != other.isCapital { return isCapital }
        if population != other.population { return population > other.population }
        return name < other.name
    }
}
