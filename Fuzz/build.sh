#!/usr/bin/env bash
# Builds a libFuzzer binary for one target in Fuzz/<name>/ (main.swift holds
# LLVMFuzzerTestOneInput): Raster and ImageCodecs (and, for a target that
# imports it, MapRendering and URLSchemeKit, with testing enabled so targets
# reach internal parsers) are compiled with coverage instrumentation and
# AddressSanitizer into static libraries, then linked with the entry point.
# Output: .build-fuzz/fuzz-<name>.
#   Fuzz/build.sh png
#   .build-fuzz/fuzz-png -max_total_time=600 Fuzz/corpus-work Fuzz/png/corpus
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: Fuzz/build.sh TARGET (a folder in Fuzz/)}
out=.build-fuzz
mkdir -p "$out"
flags=(-O -parse-as-library -sanitize=fuzzer,address -g)
build_library() {  # module name, extra flags, sources...
    local module=$1 extra=$2; shift 2
    swiftc "${flags[@]}" $extra -module-name "$module" -I "$out" -emit-module -emit-module-path "$out/$module.swiftmodule" \
        -emit-library -static -o "$out/lib$module.a" "$@"
}
build_library Raster "" $(find Sources/Raster -name '*.swift')
build_library ImageCodecs "" $(find Sources/ImageCodecs -name '*.swift')
libraries=(-lImageCodecs -lRaster)
if grep -q "import URLSchemeKit" "Fuzz/$name/main.swift"; then
    build_library MapRendering "" $(find Sources/MapRendering -name '*.swift')
    build_library URLSchemeKit -enable-testing $(find Sources/URLSchemeKit -name '*.swift')
    libraries=(-lURLSchemeKit -lMapRendering "${libraries[@]}" -lFoundationNetworking)
fi
swiftc "${flags[@]}" -I "$out" -L "$out" "${libraries[@]}" "Fuzz/$name/main.swift" -o "$out/fuzz-$name"
echo "built $out/fuzz-$name"
