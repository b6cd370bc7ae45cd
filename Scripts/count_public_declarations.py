#!/usr/bin/env python3
"""Counts the public and open declarations of each module under ROOT/Sources
(the lines check_doc_comments.py treats as declarations, overrides included).

  Scripts/count_public_declarations.py [ROOT]
"""
import pathlib, re, sys, collections
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
declaration = re.compile(
    r"^\s*(?:@[\w().:, \"]+\s+)*(?:(?:public|open|final|static|class|nonisolated|mutating|convenience|required|"
    r"indirect|override|private\(set\)|fileprivate\(set\)|internal\(set\)|lazy|weak|unowned)\s+)*"
    r"(func|init[?!]?|var|let|subscript|struct|class|enum|protocol|typealias|actor|associatedtype|case)\b")
counts = collections.Counter()
for path in sorted((root / "Sources").rglob("*.swift")):
    module = path.relative_to(root / "Sources").parts[0]
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        words = re.findall(r"[\w()]+", stripped.split("{")[0].split("=")[0])
        if not ({"public", "open"} & set(words)) or "extension" in words or "import" in words:
            continue
        if declaration.match(stripped):
            counts[module] += 1
for module, n in sorted(counts.items()):
    print(f"{module}\t{n}")
print(f"total\t{sum(counts.values())}")
