extension BuiltinVectorStyle {
    /// The Protomaps basemap v4 style: layers `earth`, `water`, `landuse`,
    /// `landcover`, `roads` (rail included, as in v4), `buildings`, `places`,
    /// `pois`, `boundaries`; fields `kind`, `kind_detail`, `name`, `name:latin`,
    /// `min_zoom`, `is_tunnel`.
    static func protomaps(_ c: VectorStylePalette, name: String) -> String {
        let roadClasses: [(names: [String], widths: [Double])] = [
            (["highway"], [0.8, 2, 6, 22]),
            (["major_road"], [0.4, 1.2, 4.5, 17]),
            (["minor_road"], [0, 0.4, 2.5, 11]),
            (["other"], [0, 0, 1.2, 6]),
        ]
        let width = roadWidth(field: "kind", classes: roadClasses)
        let label = #"["coalesce", ["get", "name:latin"], ["get", "name"]]"#
        let shown = #"["<=", ["coalesce", ["get", "min_zoom"], 0], ["zoom"]]"#
        return #"""
        {
          "version": 8,
          "name": "\#(name)",
          "sources": {
            "protomaps": {"type": "vector", "url": "pmtiles://protomaps.pmtiles", "attribution": "© Protomaps © OpenStreetMap contributors"}
          },
          "layers": [
            {"id": "background", "type": "background", "paint": {"background-color": "\#(c.water)"}},
            {"id": "earth", "type": "fill", "source": "protomaps", "source-layer": "earth",
             "paint": {"fill-color": "\#(c.land)"}},
            {"id": "landcover", "type": "fill", "source": "protomaps", "source-layer": "landcover",
             "paint": {"fill-color": ["match", ["get", "kind"], "forest", "\#(c.wood)", ["grassland", "scrub", "farmland"], "\#(c.grass)", "\#(c.land)"],
               "fill-opacity": ["interpolate", ["linear"], ["zoom"], 5, 0.6, 12, 0.3]}},
            {"id": "landuse-urban", "type": "fill", "source": "protomaps", "source-layer": "landuse",
             "filter": ["in", "kind", "residential", "neighbourhood", "industrial", "commercial", "retail", "railway"],
             "paint": {"fill-color": ["match", ["get", "kind"], ["residential", "neighbourhood"], "\#(c.residential)", "\#(c.industrial)"],
               "fill-opacity": {"stops": [[10, 0.4], [14, 1]]}}},
            {"id": "landuse-green", "type": "fill", "source": "protomaps", "source-layer": "landuse",
             "filter": ["match", ["get", "kind"], ["park", "national_park", "nature_reserve", "garden", "playground", "golf_course", "cemetery", "forest", "wood", "grass", "grassland", "meadow", "village_green", "recreation_ground"], true, false],
             "paint": {"fill-color": ["match", ["get", "kind"], ["forest", "wood"], "\#(c.wood)", ["grass", "grassland", "meadow"], "\#(c.grass)", "\#(c.park)"]}},
            {"id": "landuse-aeroway", "type": "fill", "source": "protomaps", "source-layer": "landuse", "minzoom": 10,
             "filter": ["in", "kind", "aerodrome", "runway", "taxiway", "apron"],
             "paint": {"fill-color": "\#(c.aeroway)", "fill-opacity": 0.7}},
            {"id": "water", "type": "fill", "source": "protomaps", "source-layer": "water",
             "filter": ["==", ["geometry-type"], "Polygon"],
             "paint": {"fill-color": "\#(c.water)"}},
            {"id": "water-line", "type": "line", "source": "protomaps", "source-layer": "water",
             "filter": ["all", ["==", "$type", "LineString"], ["!", ["to-boolean", ["get", "is_tunnel"]]]],
             "layout": {"line-cap": "round", "line-join": "round"},
             "paint": {"line-color": "\#(c.water)",
               "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 8, ["match", ["get", "kind"], "river", 1, 0.3], 18, ["match", ["get", "kind"], "river", 14, "canal", 10, 3]]}},
            {"id": "buildings", "type": "fill", "source": "protomaps", "source-layer": "buildings", "minzoom": 13,
             "paint": {"fill-color": "\#(c.building)", "fill-outline-color": "\#(c.buildingOutline)",
               "fill-opacity": ["interpolate", ["linear"], ["zoom"], 13, 0, 14.5, 1]}},
            {"id": "roads-path", "type": "line", "source": "protomaps", "source-layer": "roads", "minzoom": 13,
             "filter": ["==", "kind", "path"],
             "paint": {"line-color": "\#(c.path)", "line-dasharray": [2, 1.5],
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 13, 0.6, 18, 2.5]}},
            {"id": "roads-casing", "type": "line", "source": "protomaps", "source-layer": "roads", "minzoom": 6,
             "filter": ["all", ["match", ["get", "kind"], ["highway", "major_road", "minor_road", "other"], true, false], \#(shown)],
             "layout": {"line-cap": "round", "line-join": "round"},
             "paint": {"line-color": "\#(c.casing)",
               "line-opacity": ["case", ["to-boolean", ["get", "is_tunnel"]], 0.5, 1],
               "line-gap-width": \#(width),
               "line-width": ["interpolate", ["linear"], ["zoom"], 10, 0.5, 14, 1, 18, 2]}},
            {"id": "roads", "type": "line", "source": "protomaps", "source-layer": "roads", "minzoom": 5,
             "filter": ["all", ["match", ["get", "kind"], ["highway", "major_road", "minor_road", "other"], true, false], \#(shown)],
             "layout": {"line-cap": "round", "line-join": "round"},
             "paint": {
               "line-color": ["match", ["get", "kind"], "highway", "\#(c.motorway)",
                 "major_road", ["match", ["get", "kind_detail"], "trunk", "\#(c.trunk)", "primary", "\#(c.primary)", "\#(c.secondary)"],
                 "\#(c.minor)"],
               "line-width": \#(width)}},
            {"id": "roads-rail", "type": "line", "source": "protomaps", "source-layer": "roads", "minzoom": 11,
             "filter": ["all", ["==", ["get", "kind"], "rail"], ["!", ["to-boolean", ["get", "is_tunnel"]]]],
             "paint": {"line-color": "\#(c.rail)", "line-dasharray": [3, 2],
               "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 11, 0.6, 18, 3]}},
            {"id": "boundaries", "type": "line", "source": "protomaps", "source-layer": "boundaries",
             "filter": ["in", "kind", "country", "region"],
             "layout": {"line-join": "round"},
             "paint": {"line-color": "\#(c.border)", "line-dasharray": ["step", ["zoom"], ["literal", [3, 1]], 8, ["literal", [4, 2, 1, 2]]],
               "line-width": ["interpolate", ["linear"], ["zoom"], 3, ["match", ["get", "kind"], "country", 1, 0.6], 12, ["match", ["get", "kind"], "country", 2.5, 1.5]]}},
            {"id": "water-name", "type": "symbol", "source": "protomaps", "source-layer": "water", "minzoom": 10,
             "filter": ["all", ["has", "name"], \#(shown)],
             "layout": {"text-field": \#(label), "text-font": ["Noto Sans Italic"], "text-size": 13,
               "symbol-placement": ["match", ["geometry-type"], "LineString", "line", "point"]},
             "paint": {"text-color": "\#(c.waterText)", "text-halo-color": "\#(c.halo)", "text-halo-width": 1.2}},
            {"id": "roads-name", "type": "symbol", "source": "protomaps", "source-layer": "roads", "minzoom": 13,
             "filter": ["all", ["in", "kind", "highway", "major_road", "minor_road", "other"], ["has", "name"]],
             "layout": {"text-field": \#(label), "text-font": ["Noto Sans Regular"], "symbol-placement": "line",
               "text-size": ["interpolate", ["linear"], ["zoom"], 13, 10, 18, 15]},
             "paint": {"text-color": "\#(c.text)", "text-halo-color": "\#(c.halo)", "text-halo-width": 1.5}},
            {"id": "pois", "type": "symbol", "source": "protomaps", "source-layer": "pois", "minzoom": 15,
             "filter": ["all", ["match", ["get", "kind"], ["park", "garden", "station", "university", "museum"], true, false], \#(shown)],
             "layout": {"text-field": "{name}", "text-font": ["Noto Sans Regular"], "text-size": 11},
             "paint": {"text-color": "\#(c.text)", "text-halo-color": "\#(c.halo)", "text-halo-width": 1.2}},
            {"id": "places", "type": "symbol", "source": "protomaps", "source-layer": "places",
             "filter": ["all", ["in", ["get", "kind"], ["literal", ["locality", "macrohood", "neighbourhood"]]], \#(shown)],
             "layout": {"text-field": \#(label), "text-font": ["Noto Sans Regular"],
               "text-size": ["step", ["zoom"], ["match", ["get", "kind"], "locality", 14, "macrohood", 13, 11], 10, ["match", ["get", "kind"], "locality", 18, "macrohood", 13, 11]]},
             "paint": {"text-color": "\#(c.text)", "text-halo-color": "\#(c.halo)", "text-halo-width": 1.5}}
          ]
        }
        """#
    }
}
