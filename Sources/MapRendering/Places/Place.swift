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
    /// people or more, and every national capital), most prominent first.
    /// Decoded once, on first use; throws only if the embedded data were damaged.
    public static var all: [Place] {
        get throws { try embedded.get() }
    }

    // Static lets are initialised once, thread-safely, on first access.
    private static let embedded = Result { try PlaceData.decode(base64: PlaceData.geoNames) }

    /// How much a map wants this place labelled: its population, four times over
    /// for a capital (so Vienna shows before Munich, and Warsaw before Łódź,
    /// but a capital of 30,000 waits for the zoom levels that show such towns).
    public var prominence: Int { isCapital ? population * 4 : population }

    /// Whether `self` should be labelled before `other`: more prominent first.
    public func outranks(_ other: Place) -> Bool {
        if prominence != other.prominence { return prominence > other.prominence }
        return name < other.name
    }
}
