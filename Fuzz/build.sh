#!/usr/bin/env bash
# Builds libFuzzer binaries for targets in Fuzz/<name>/ (main.swift holds
# LLVMFuzzerTestOneInput): Raster and ImageCodecs (and, when a target imports
# them, MapRendering and URLSchemeKit, with testing enabled so targets reach
# internal parsers) are compiled once with coverage instrumentation and
# AddressSanitizer into static libraries, then linked with each entry point.
# Output: .build-fuzz/fuzz-<name>.
#   Fuzz/build.sh png jpeg
#   .build-fuzz/fuzz-png -max_total_time=600 Fuzz/corpus-work Fuzz/png/corpus
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: Fuzz/build.sh TARGET... (folders in Fuzz/)" >&2; exit 2; }
out=.build-fuzz
mkdir -p "$out"
# One package name for every module, as SwiftPM gives it (for `package` access).
flags=(-O -parse-as-library -sanitize=fuzzer,address -g -package-name URLSchemeKit)
build_library() {  # module name, extra flags, sources...
    local module=$1 extra=$2; shift 2
    swiftc "${flags[@]}" $extra -module-name "$module" -I "$out" -emit-module -emit-module-path "$out/$module.swiftmodule" \
        -emit-library -static -o "$out/lib$module.a" "$@"
}
# Every target but the server's (which imports URLSchemeServer alone) links the codecs.
if [ -n "$(grep -LE "import (URLSchemeServer|URLSchemeKitTesting)" $(printf 'Fuzz/%s/main.swift ' "$@") || true)" ]; then
    build_library Raster "" $(find Sources/Raster -name '*.swift')
    build_library ImageCodecs -enable-testing $(find Sources/ImageCodecs -name '*.swift')
fi
# grep reads the files itself: `cat … | grep -q` under pipefail fails at random
# when grep exits at its first match and cat dies of SIGPIPE (seen in CI).
if grep -qE "import (URLSchemeKit|MapRendering)$" $(printf 'Fuzz/%s/main.swift ' "$@"); then
    build_library MapRendering -enable-testing $(find Sources/MapRendering -name '*.swift')
fi
if grep -qE "import URLSchemeKit$" $(printf 'Fuzz/%s/main.swift ' "$@"); then
    build_library URLSchemeKit -enable-testing $(find Sources/URLSchemeKit -name '*.swift')
fi
if grep -q "import URLSchemeServer" $(printf 'Fuzz/%s/main.swift ' "$@"); then
    # The server's request parser alone: its four files need Foundation only,
    # and the targets reach nothing else of the server.
    build_library URLSchemeServer -enable-testing Sources/URLSchemeServer/HTTPRequest.swift \
        Sources/URLSchemeServer/HTTPRequestError.swift Sources/URLSchemeServer/HTTPRequestParser.swift \
        Sources/URLSchemeServer/HTTPFieldName.swift
fi
if grep -q "import URLSchemeKitTesting" $(printf 'Fuzz/%s/main.swift ' "$@"); then
    # The HAR reader and writer alone: Foundation only, like the server's parser.
    build_library URLSchemeKitTesting -enable-testing $(find Sources/URLSchemeKitTesting/HAR -name '*.swift')
fi
for name in "$@"; do
    libraries=(-lImageCodecs -lRaster)
    if grep -q "import URLSchemeServer" "Fuzz/$name/main.swift"; then
        libraries=(-lURLSchemeServer)
    elif grep -q "import URLSchemeKitTesting" "Fuzz/$name/main.swift"; then
        libraries=(-lURLSchemeKitTesting)
    elif grep -qE "import URLSchemeKit$" "Fuzz/$name/main.swift"; then
        libraries=(-lURLSchemeKit -lMapRendering "${libraries[@]}" -lFoundationNetworking)
    elif grep -q "import MapRendering" "Fuzz/$name/main.swift"; then
        libraries=(-lMapRendering "${libraries[@]}")
    fi
    swiftc "${flags[@]}" -I "$out" -L "$out" "${libraries[@]}" "Fuzz/$name/main.swift" -o "$out/fuzz-$name"
    echo "built $out/fuzz-$name"
done
