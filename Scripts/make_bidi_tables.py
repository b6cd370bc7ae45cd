#!/usr/bin/env python3
"""Generates the Unicode tables of right-to-left text: bidi classes, mirrored
brackets, Arabic joining types, presentation forms and lam-alef ligatures.

Bidi classes and presentation forms (the <isolated>/<final>/<initial>/<medial>
decompositions of Arabic Presentation Forms-A and -B) come from Python's
`unicodedata`. Python lacks two properties, Joining_Type (ArabicShaping.txt)
and Bidi_Mirroring_Glyph (BidiMirroring.txt); they come from the Unicode
database Perl ships (`Unicode::UCD`, Debian's perl-modules), checked to be the
same Unicode version as Python's. Run from the package root:

    python3 Scripts/make_bidi_tables.py

Writes Sources/MapRendering/Symbols/BidiTables+Data.swift.
"""
import json
import os
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "Sources", "MapRendering", "Symbols", "BidiTables+Data.swift")

# The order of `BidiClass`'s cases in BidiClass.swift.
CLASSES = ["L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
           "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"]
# The order of `ArabicShaper.JoiningType`'s cases.
JOINING = ["U", "D", "R", "L", "C", "T"]

# DerivedBidiClass.txt's defaults for unassigned code points (the rest are L).
UNASSIGNED_DEFAULTS = [
    ("R", 0x0590, 0x05FF), ("R", 0x07C0, 0x085F), ("R", 0xFB1D, 0xFB4F), ("R", 0x10800, 0x10CFF),
    ("R", 0x10D40, 0x10EBF), ("R", 0x10F00, 0x10F2F), ("R", 0x10F70, 0x10FFF), ("R", 0x1E800, 0x1EC6F),
    ("R", 0x1ECC0, 0x1ECFF), ("R", 0x1ED50, 0x1EDFF), ("R", 0x1EF00, 0x1EFFF),
    ("AL", 0x0600, 0x07BF), ("AL", 0x0860, 0x08FF), ("AL", 0xFB50, 0xFDCF), ("AL", 0xFDF0, 0xFDFF),
    ("AL", 0xFE70, 0xFEFF), ("AL", 0x10D00, 0x10D3F), ("AL", 0x10EC0, 0x10EFF), ("AL", 0x10F30, 0x10F6F),
    ("AL", 0x1EC70, 0x1ECBF), ("AL", 0x1ED00, 0x1ED4F), ("AL", 0x1EE00, 0x1EEFF),
    ("ET", 0x20A0, 0x20CF),
    ("BN", 0xFDD0, 0xFDEF), ("BN", 0xE0000, 0xE0FFF),
]

PERL = r'''
use Unicode::UCD qw(prop_invmap);
my %out = (version => Unicode::UCD::UnicodeVersion());
for my $prop ("Joining_Type", "Bidi_Mirroring_Glyph") {
    my ($list, $map, $format, $default) = prop_invmap($prop);
    my @pairs;
    for my $i (0 .. $#$list) { push @pairs, [$list->[$i], $map->[$i]]; }
    $out{$prop} = {pairs => \@pairs, format => $format};
}
print "{\"version\":\"$out{version}\"";
for my $prop ("Joining_Type", "Bidi_Mirroring_Glyph") {
    print ",\"$prop\":{\"format\":\"$out{$prop}{format}\",\"pairs\":[";
    print join(",", map { my $v = $_->[1]; $v = ref($v) ? $v->[0] : $v; "[$_->[0],\"$v\"]" } @{$out{$prop}{pairs}});
    print "]}";
}
print "}\n";
'''


def perl_properties():
    """Joining_Type and Bidi_Mirroring_Glyph as inversion maps from Perl's Unicode::UCD."""
    data = json.loads(subprocess.run(["perl", "-e", PERL], check=True, capture_output=True, text=True).stdout)
    if data["version"] != unicodedata.unidata_version:
        sys.exit("Perl's Unicode %s differs from Python's %s" % (data["version"], unicodedata.unidata_version))
    return data


def expand(inversion):
    """An inversion map's pairs as (start, end, value) ranges."""
    pairs = inversion["pairs"]
    for i, (start, value) in enumerate(pairs):
        end = pairs[i + 1][0] - 1 if i + 1 < len(pairs) else 0x10FFFF
        yield start, end, value


def bidi_ranges():
    """(start, class index) where the bidi class changes, from 0."""
    defaults = {}
    for cls, lo, hi in UNASSIGNED_DEFAULTS:
        for cp in range(lo, hi + 1):
            defaults[cp] = cls
    starts = []
    last = None
    for cp in range(0x110000):
        cls = unicodedata.bidirectional(chr(cp))
        if not cls:
            cls = "BN" if (cp & 0xFFFE) == 0xFFFE else defaults.get(cp, "L")
        if cls != last:
            starts.append((cp, CLASSES.index(cls)))
            last = cls
    return starts


def joining_ranges(perl):
    """(start, joining type index) where the joining type changes, from 0."""
    names = {"Non_Joining": "U", "U": "U", "D": "D", "R": "R", "L": "L", "C": "C", "T": "T"}
    starts = []
    for start, end, value in expand(perl["Joining_Type"]):
        index = JOINING.index(names[value])
        if not starts or starts[-1][1] != index:
            starts.append((start, index))
    return starts


def mirrors(perl):
    """(code point, mirror) pairs of Bidi_Mirroring_Glyph (Perl gives each mirror as a decimal code point)."""
    pairs = []
    for start, end, value in expand(perl["Bidi_Mirroring_Glyph"]):
        if value == "":
            continue
        assert start == end, "a run of mirrored code points at %X" % start
        pairs.append((start, int(value)))
    return pairs


def presentation_forms():
    """Base → [isolated, final, initial, medial] (0 where none) and alef → (isolated, final) lam-alef ligatures."""
    slots = {"<isolated>": 0, "<final>": 1, "<initial>": 2, "<medial>": 3}
    forms = {}
    ligatures = {}
    # Presentation Forms-B first: where both blocks encode a shape, -B's is the one fonts and ICU use.
    for block in (range(0xFE70, 0xFF00), range(0xFB50, 0xFE00)):
        for cp in block:
            parts = unicodedata.decomposition(chr(cp)).split()
            if len(parts) < 2 or parts[0] not in slots:
                continue
            slot = slots[parts[0]]
            chars = [int(p, 16) for p in parts[1:]]
            if len(chars) == 1:
                base = chars[0]
            elif len(chars) == 2 and chars[0] in (0x20, 0x640) and unicodedata.category(chr(chars[1])) == "Mn":
                base = chars[1]  # a vowel mark: on a space (isolated) or on a tatweel (medial)
            elif len(chars) == 2 and chars[0] == 0x644 and slot in (0, 1) and 0xFEF5 <= cp <= 0xFEFC:
                ligatures.setdefault(chars[1], [0, 0])
                if ligatures[chars[1]][slot] == 0:
                    ligatures[chars[1]][slot] = cp
                continue
            else:
                continue
            entry = forms.setdefault(base, [0, 0, 0, 0])
            if entry[slot] == 0:
                entry[slot] = cp
    return forms, ligatures


def swift_array(name, kind, values, per_line=12, doc=""):
    lines = ["    /// %s" % doc, "    static let %s: [%s] = [" % (name, kind)]
    for i in range(0, len(values), per_line):
        lines.append("        " + ", ".join(values[i:i + per_line]) + ",")
    lines.append("    ]")
    return "\n".join(lines)


def main():
    perl = perl_properties()
    bidi = bidi_ranges()
    joining = joining_ranges(perl)
    mirror = mirrors(perl)
    forms, ligatures = presentation_forms()
    hexa = lambda v: "0x%X" % v
    out = ["// Generated by Scripts/make_bidi_tables.py from Unicode %s (Python's unicodedata, Perl's Unicode::UCD). Do not edit."
           % unicodedata.unidata_version, "", "extension BidiTables {"]
    out.append(swift_array("bidiClassStarts", "UInt32", [hexa(s) for s, _ in bidi],
                           doc="The first code point of each run of one bidi class."))
    out.append(swift_array("bidiClasses", "UInt8", [str(c) for _, c in bidi], per_line=32,
                           doc="Each run's class, as `BidiClass`'s raw value."))
    out.append(swift_array("joiningTypeStarts", "UInt32", [hexa(s) for s, _ in joining],
                           doc="The first code point of each run of one Arabic joining type."))
    out.append(swift_array("joiningTypes", "UInt8", [str(c) for _, c in joining], per_line=32,
                           doc="Each run's joining type, as `ArabicShaper.JoiningType`'s raw value."))
    out.append(swift_array("mirrorPairs", "UInt32", ["%s, %s" % (hexa(a), hexa(b)) for a, b in mirror], per_line=6,
                           doc="Bidi_Mirroring_Glyph: each mirrored code point and its mirror, sorted."))
    keys = sorted(forms)
    out.append(swift_array("presentationFormBases", "UInt32", [hexa(k) for k in keys],
                           doc="The letters and marks with presentation forms, sorted."))
    out.append(swift_array("presentationForms", "UInt16", ["%s, %s, %s, %s" % tuple(hexa(v) for v in forms[k]) for k in keys],
                           per_line=3, doc="Each base's isolated, final, initial and medial form (0: none)."))
    alefs = sorted(ligatures)
    out.append(swift_array("lamAlefAlefs", "UInt32", [hexa(k) for k in alefs],
                           doc="The alefs lam joins with in a mandatory ligature, sorted."))
    out.append(swift_array("lamAlefLigatures", "UInt16", ["%s, %s" % tuple(hexa(v) for v in ligatures[k]) for k in alefs],
                           per_line=6, doc="Each alef's lam-alef ligature, isolated and final."))
    out.append("}")
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")
    print("bidi runs %d, joining runs %d, mirrors %d, forms %d, ligatures %d"
          % (len(bidi), len(joining), len(mirror), len(forms), len(ligatures)))


if __name__ == "__main__":
    main()
