import Foundation

/// The slippy map `SchemeServer` answers at `/`: Leaflet (from
/// ``ServerConfiguration/leafletDirectory``, e.g. Debian's `libjs-leaflet`,
/// served at `/leaflet/…`) over `/tiles/NAME/…`, the source told by
/// `?tiles=NAME` (else the first), framed by its TileJSON's `bounds`.
///
/// The page writes how it went into `#viewer-check` (`viewer-check: ok, N
/// tiles` or `viewer-check: FAILED …` with the tiles that failed and the
/// errors seen), which `Scripts/check_viewer_in_browser.sh` reads from
/// headless Chromium.
enum ViewerPage {
    /// The files of a Leaflet distribution served at `/leaflet/…`, and nothing else from its folder.
    static let leafletFiles: Set<String> = [
        "leaflet.js", "leaflet.css", "images/layers.png", "images/layers-2x.png",
        "images/marker-icon.png", "images/marker-icon-2x.png", "images/marker-shadow.png",
    ]

    /// The page for tile sources `names`; without Leaflet, a page saying how to get it.
    static func html(names: [String], hasLeaflet: Bool) -> String {
        guard hasLeaflet else {
            return """
            <!doctype html><meta charset="utf-8"><title>urlscheme serve</title>
            <p>The map viewer needs Leaflet: install Debian's <code>libjs-leaflet</code>
            or give <code>--leaflet DIR</code> (a folder with <code>leaflet.js</code> and <code>leaflet.css</code>).
            Tile sources: \(names.isEmpty ? "none (give --tiles NAME=SOURCE)" : names.joined(separator: ", ")).</p>
            """
        }
        let list = "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]"  // names are letters, digits, - and _
        return """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>urlscheme serve</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="/leaflet/leaflet.css">
        <style>html, body { margin: 0; height: 100%; font: 14px sans-serif; } #map { position: absolute; inset: 0 0 1.6em 0; }
        #viewer-check { position: absolute; left: 0.5em; bottom: 0.2em; color: #555; }</style>
        </head><body><div id="map"></div><div id="viewer-check">viewer-check: loading</div>
        <script src="/leaflet/leaflet.js"></script>
        <script>
        const names = \(list);
        const name = new URLSearchParams(location.search).get("tiles") || names[0];
        const check = document.getElementById("viewer-check");
        let loaded = 0, failed = [], errors = [];
        window.addEventListener("error", event => { errors.push(String(event.message)); report(); });
        function report() {
          check.textContent = errors.length || failed.length || !loaded
            ? `viewer-check: FAILED, ${loaded} tiles, failed: ${failed.join(" ")}, errors: ${errors.join("; ")}`
            : `viewer-check: ok, ${loaded} tiles of ${name}`;
        }
        if (!name) { errors.push("no tile source: give --tiles NAME=SOURCE"); report(); }
        else fetch(`/tiles/${name}.json`).then(answer => {
          if (!answer.ok) throw new Error(`/tiles/${name}.json answered ${answer.status}`);
          return answer.json();
        }).then(tilejson => {
          const map = L.map("map");
          const layer = L.tileLayer(tilejson.tiles[0], { attribution: tilejson.attribution || "", minZoom: tilejson.minzoom, maxZoom: tilejson.maxzoom });
          layer.on("tileload", () => { loaded += 1; report(); });
          layer.on("tileerror", event => { failed.push(event.tile.src.replace(location.origin, "")); report(); });
          layer.addTo(map);
          const b = tilejson.bounds;
          if (b) map.fitBounds([[b[1], b[0]], [b[3], b[2]]]); else map.setView([0, 0], 1);
        }).catch(error => { errors.push(String(error)); report(); });
        </script></body></html>
        """
    }
}
