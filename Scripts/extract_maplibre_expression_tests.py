#!/usr/bin/env python3
"""Copies a selection of MapLibre's expression conformance cases into one JSON
fixture for VectorStyleConformanceTests.

Source: github.com/maplibre/maplibre-style-spec, test/integration/expression/tests
(BSD-3-Clause, "Copyright (c) 2020, MapLibre contributors"; the licence is copied
beside the fixture). Each case keeps the expression, the property spec's type,
the inputs (globals: zoom; feature: properties, id, geometry type) and MapLibre's
expected compile result and outputs. Only operator folders of our subset are
taken; the cases our subset does not follow by design are listed in EXCLUDED with
the reason, so the test runs every other case of those folders.

    python3 Scripts/extract_maplibre_expression_tests.py /path/to/maplibre-style-spec
"""
import json, os, subprocess, sys

FOLDERS = """all any case coalesce concat downcase upcase equal not_equal less less_or_equal greater
greater_or_equal geometry-type get has id in interpolate literal match not step to-boolean to-number
to-string zoom number string boolean plus minus times divide mod pow min max legacy""".split()

# name -> why our subset differs from MapLibre there (kept out of the fixture).
EXCLUDED = {
    # Operators outside the subset, used inside otherwise-supported cases.
    "interpolate/cubic-bezier": "cubic-bezier interpolation is outside the subset",
    "interpolate/cubic-bezier-3-args": "cubic-bezier", "interpolate/cubic-bezier-5-args": "cubic-bezier",
    "interpolate/cubic-bezier-expression-control-point": "cubic-bezier",
    "interpolate/cubic-bezier-invalid-control-point": "cubic-bezier",
    "interpolate/global-state": "global-state", "interpolate/projection": "projection",
    "step/projection": "projection", "legacy/exponential/color-hcl": "hcl colour space",
    "legacy/exponential/color-lab": "lab colour space",
}

def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout

def main(repo):
    root = "test/integration/expression/tests"
    paths = [p for p in git(repo, "ls-tree", "-r", "--name-only", "HEAD", root).split("\n") if p.endswith("/test.json")]
    cases = []
    for path in sorted(paths):
        name = path[len(root) + 1:-len("/test.json")]
        if name.split("/")[0] not in FOLDERS or name in EXCLUDED:
            continue
        test = json.loads(git(repo, "show", "HEAD:" + path))
        expected = test.get("expected", {})
        compiled = expected.get("compiled", {})
        cases.append({
            "name": name,
            "expression": test["expression"],
            "type": test.get("propertySpec", {}).get("type"),
            "default": test.get("propertySpec", {}).get("default"),
            "interpolated": test.get("propertySpec", {}).get("expression", {}).get("interpolated"),
            "inputs": test.get("inputs", []),
            "compiled": compiled.get("result"),
            "outputType": compiled.get("type"),
            "outputs": expected.get("outputs", []),
        })
    commit = git(repo, "rev-parse", "HEAD").strip()
    out = os.path.join(os.path.dirname(__file__), "..", "Tests", "MapRenderingTests", "Fixtures", "MapLibreExpressions")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump({"source": "maplibre/maplibre-style-spec@" + commit, "cases": cases}, f, indent=0, sort_keys=True)
    with open(os.path.join(out, "LICENSE.txt"), "w") as f:
        f.write(git(repo, "show", "HEAD:LICENSE.txt"))
    print(len(cases), "cases from", commit)

if __name__ == "__main__":
    main(sys.argv[1])
