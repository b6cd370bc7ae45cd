#!/usr/bin/env python3
"""Fails when a public declaration in Sources/ has no documentation comment.

A declaration is a line whose modifiers include `public` or `open` and that
declares something (func, init, var, let, subscript, struct, class, enum,
protocol, typealias, actor, associatedtype, case). Its comment is the `///`
lines (or a `/** … */` block) directly above it, attributes such as
`@discardableResult` in between allowed. Overrides are exempt (they inherit
their superclass's documentation), and so are extensions (not symbols).

  Scripts/check_doc_comments.py [ROOT]     prints each undocumented declaration
                                           and exits 1 if there is any
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
declaration = re.compile(
    r"^\s*(?:@[\w().:, \"]+\s+)*(?:(?:public|open|final|static|class|nonisolated|mutating|convenience|required|"
    r"indirect|override|private\(set\)|fileprivate\(set\)|internal\(set\)|lazy|weak|unowned)\s+)*"
    r"(func|init[?!]?|var|let|subscript|struct|class|enum|protocol|typealias|actor|associatedtype|case)\b")
missing = []
checked = 0
for path in sorted((root / "Sources").rglob("*.swift")):
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        stripped = line.strip()
        words = re.findall(r"[\w()]+", stripped.split("{")[0].split("=")[0])
        if not ({"public", "open"} & set(words)) or "override" in words or "extension" in words or "import" in words:
            continue
        if not declaration.match(line):
            continue
        checked += 1
        above = number - 1
        while above >= 0 and lines[above].strip().startswith("@"):
            above -= 1
        previous = lines[above].strip() if above >= 0 else ""
        if not (previous.startswith("///") or previous.endswith("*/")):
            missing.append(f"{path.relative_to(root)}:{number + 1}: {stripped}")
for entry in missing:
    print(entry)
print(f"{checked} public declarations, {len(missing)} without a documentation comment")
sys.exit(1 if missing else 0)
