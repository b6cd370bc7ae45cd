extension BuiltinVectorStyle {
    /// The OpenMapTiles style: layers `water`, `waterway`, `landcover`, `landuse`,
    /// `park`, `transportation`, `transportation_name`, `building`, `place`,
    /// `boundary`, `aeroway`, `water_name`; fields `class`, `subclass`, `brunnel`,
    /// `name`, `name:latin`, `admin_level`, `rank`.
    static func openMapTiles(_ c: VectorStylePalette, name: String) -> String {
        let roadClasses: [(names: [String], widths: [Double])] = [
            (["motorway"], [0.8, 2, 6, 22]),
            (["trunk"], [0.6, 1.6, 5, 20]),
            (["primary"], [0.4, 1.2, 4.5, 18]),
            (["secondary"], [0, 1, 4, 16]),
            (["tertiary"], [0, 0.8, 3.5, 14]),
            (["minor", "busway"], [0, 0.4, 2.5, 11]),
            (["service", "track"], [0, 0, 1.2, 6]),
        ]
        let roadNames = "[\"motorway\", \"trunk\", \"primary\", \"secondary\", \"tertiary\", \"minor\", \"busway\", \"service\", \"track\"]"
        let width = roadWidth(field: "class", classes: roadClasses)
        let label = #"["coalesce", ["get", "name:latin"], ["get", "name"]]"#
        return #"""
        {
          "version": 8,
          "name": "\#(name)",
          "sources": {
            "openmaptiles": {"type": "vector", "url": "pmtiles://openmaptiles.pmtiles", "attribution": "© OpenMapTiles © OpenStreetMap contributors"}
          },
          "layers": [
            {"id": "background", "type": "background", "paint": {"background-color": "\#(c.land)"}},
            {"id": "landuse-residential", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
             "filter": ["in", "class", "residential", "suburb", "neighbourhood"],
             "paint": {"fill-color": "\#(c.residential)", "fill-opacity": {"stops": [[10, 0.4], [14, 1]]}}},
            {"id": "landuse-industrial", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
             "filter": ["in", "class", "industrial", "commercial", "retail", "railway"],
             "paint": {"fill-color": "\#(c.industrial)"}},
            {"id": "landcover", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
             "filter": ["match", ["get", "class"], ["wood", "grass", "farmland", "wetland"], true, false],
             "paint": {
               "fill-color": ["match", ["get", "subclass"],
                 ["park", "garden", "recreation_ground", "village_green", "playground", "cemetery"], "\#(c.park)",
                 ["match", ["get", "class"], "wood", "\#(c.wood)", "\#(c.grass)"]],
               "fill-opacity": ["interpolate", ["linear"], ["zoom"], 8, 0.5, 13, 1]}},
            {"id": "park", "type": "fill", "source": "openmaptiles", "source-layer": "park",
             "paint": {"fill-color": "\#(c.park)", "fill-opacity": 0.8}},
            {"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water",
             "filter": ["all", ["==", "$type", "Polygon"], ["!=", "brunnel", "tunnel"]],
             "paint": {"fill-color": "\#(c.water)"}},
            {"id": "waterway", "type": "line", "source": "openmaptiles", "source-layer": "waterway",
             "filter": ["!=", "brunnel", "tunnel"],
             "layout": {"line-cap": "round", "line-join": "round"},
             "paint": {"line-color": "\#(c.water)",
               "line-width": ["interpolate", ["exponential", 1.4], ["zoom"],
                 8, ["match", ["get", "class"], "river", 1, 0.3],
                 18, ["match", ["get", "class"], "river", 14, ["canal"], 10, 3]]}},
            {"id": "aeroway-area", "type": "fill", "source": "openmaptiles", "source-layer": "aeroway", "minzoom": 10,
             "filter": ["==", ["geometry-type"], "Polygon"],
             "paint": {"fill-color": "\#(c.aeroway)", "fill-opacity": 0.7}},
            {"id": "aeroway-runway", "type": "line", "source": "openmaptiles", "source-layer": "aeroway", "minzoom": 10,
             "filter": ["all", ["==", "$type", "LineString"], ["in", "class", "runway", "taxiway"]],
             "paint": {"line-color": "\#(c.aeroway)",
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 10, ["match", ["get", "class"], "runway", 2, 0.5], 16, ["match", ["get", "class"], "runway", 40, 10]]}},
            {"id": "building", "type": "fill", "source": "openmaptiles", "source-layer": "building", "minzoom": 13,
             "paint": {"fill-color": "\#(c.building)", "fill-outline-color": "\#(c.buildingOutline)",
               "fill-opacity": ["interpolate", ["linear"], ["zoom"], 13, 0, 14.5, 1]}},
            {"id": "road-path", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 13,
             "filter": ["all", ["==", "$type", "LineString"], ["==", "class", "path"]],
             "paint": {"line-color": "\#(c.path)", "line-dasharray": [2, 1.5],
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 13, 0.6, 18, 2.5]}},
            {"id": "road-casing", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 6,
             "filter": ["all", ["==", "$type", "LineString"], ["in", "class", "motorway", "trunk", "primary", "secondary", "tertiary", "minor", "busway", "service", "track"]],
             "layout": {"line-cap": "round", "line-join": "round"},
             "paint": {"line-color": "\#(c.casing)",
               "line-opacity": ["match", ["get", "brunnel"], "tunnel", 0.5, 1],
               "line-gap-width": \#(width),
               "line-width": ["interpolate", ["linear"], ["zoom"], 10, 0.5, 14, 1, 18, 2]}},
            {"id": "road", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 5,
             "filter": ["all", ["==", ["geometry-type"], "LineString"], ["in", ["get", "class"], ["literal", \#(roadNames)]]],
             "layout": {"line-cap": "round", "line-join": "round"},
             "paint": {
               "line-color": ["match", ["get", "class"], "motorway", "\#(c.motorway)", "trunk", "\#(c.trunk)", "primary", "\#(c.primary)",
                 ["secondary", "tertiary"], "\#(c.secondary)", "\#(c.minor)"],
               "line-width": \#(width)}},
            {"id": "rail", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 11,
             "filter": ["all", ["==", "$type", "LineString"], ["in", "class", "rail", "transit"], ["!=", "brunnel", "tunnel"]],
             "paint": {"line-color": "\#(c.rail)", "line-dasharray": [3, 2],
               "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 11, 0.6, 18, 3]}},
            {"id": "boundary", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
             "filter": ["all", ["<=", "admin_level", 4], ["!=", "maritime", 1]],
             "layout": {"line-join": "round"},
             "paint": {"line-color": "\#(c.border)", "line-dasharray": ["step", ["zoom"], ["literal", [3, 1]], 8, ["literal", [4, 2, 1, 2]]],
               "line-width": ["interpolate", ["linear"], ["zoom"], 3, ["match", ["get", "admin_level"], 2, 1, 0.6], 12, ["match", ["get", "admin_level"], 2, 2.5, 1.5]]}},
            {"id": "water-name", "type": "symbol", "source": "openmaptiles", "source-layer": "water_name", "minzoom": 10,
             "layout": {"text-field": \#(label), "text-font": ["Noto Sans Italic"], "text-size": 13,
               "symbol-placement": ["match", ["geometry-type"], "LineString", "line", "point"]},
             "paint": {"text-color": "\#(c.waterText)", "text-halo-color": "\#(c.halo)", "text-halo-width": 1.2}},
            {"id": "road-name", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name", "minzoom": 13,
             "filter": ["in", "class", "motorway", "trunk", "primary", "secondary", "tertiary", "minor", "service"],
             "layout": {"text-field": \#(label), "text-font": ["Noto Sans Regular"], "symbol-placement": "line",
               "text-size": ["interpolate", ["linear"], ["zoom"], 13, 10, 18, 15]},
             "paint": {"text-color": "\#(c.text)", "text-halo-color": "\#(c.halo)", "text-halo-width": 1.5}},
            {"id": "place", "type": "symbol", "source": "openmaptiles", "source-layer": "place",
             "filter": ["in", ["get", "class"], ["literal", ["city", "town", "village", "suburb", "quarter", "neighbourhood"]]],
             "layout": {"text-field": \#(label), "text-font": ["Noto Sans Regular"],
               "text-size": ["match", ["get", "class"], "city", 18, "town", 15, ["village", "suburb"], 13, 11]},
             "paint": {"text-color": "\#(c.text)", "text-halo-color": "\#(c.halo)", "text-halo-width": 1.5}}
          ]
        }
        """#
    }
}
