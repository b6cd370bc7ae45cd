#!/usr/bin/env python3
"""Builds every Swift code block of README.md and docs/*.md, so the examples
cannot drift from the API.

Each ```swift block becomes the main.swift of an executable target of its own
in a throwaway package (.build/readme-blocks) that depends on this package by
path and imports nothing but Foundation, FoundationNetworking and URLSchemeKit,
as a newcomer's app would (and URLSchemeKitTesting, with XCTest, in a block
that imports it, as a test target would). The package is built with warnings as errors.

The block's info string says what to do with it:
  ```swift            built
  ```swift runnable   built, then run (must exit 0 within 60 s)
  ```swift fragment   not built: a piece of a larger program (counted and listed)

Names the examples take as given (a session, a URL, a folder, a photo…) are
declared before a block that uses them and does not declare them itself; see
CONTEXT below. Prints one line per block and a total, and exits 1 when a block
does not build or a runnable block fails.

  Scripts/check_readme_code.py [--keep]
"""
import pathlib
import re
import shutil
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
work = root / ".build" / "readme-blocks"

# name → declaration, for names the examples use without declaring them.
CONTEXT = {
    "scratch": 'let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("readme-block-\\(getpid())", isDirectory: true)',
    "session": """let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.installURLSchemeKit(URLSchemeKitEnvironment(imageCache: QueryKeyedURLCache(memoryCapacity: 16 << 20, diskCapacity: 0), httpCache: nil))
    return URLSession(configuration: configuration)
}()""",
    "configuration": "let configuration = URLSessionConfiguration.ephemeral",
    "environment": "let environment = URLSchemeKitEnvironment(assets: AssetImageSource(store: try! FileAssetStore(directory: scratch)))",
    "url": 'let url = URL(string: "map://?latitude=59.935634&longitude=30.325935&width=64&height=64")!',
    "mapURL": 'let mapURL = URL(string: "map://?latitude=59.935634&longitude=30.325935&width=64&height=64")!',
    "avatarURL": 'let avatarURL = URL(string: "avatar://?id=aaaaaaaaaaaaaaaaaaaaaaaaaa&size=64")!',
    "contactSheet": """final class ContactSheet: Sendable { func add(_ bitmap: Bitmap) {} }
let contactSheet = ContactSheet()""",
    "folder": 'let folder = scratch.appendingPathComponent("folder", isDirectory: true)',
    "tileCache": 'let tileCache = scratch.appendingPathComponent("tiles", isDirectory: true)',
    "photosFolder": 'let photosFolder = scratch.appendingPathComponent("photos", isDirectory: true)',
    "cacheFolder": 'let cacheFolder = scratch.appendingPathComponent("cache", isDirectory: true)',
    "webCache": 'let webCache = scratch.appendingPathComponent("web", isDirectory: true)',
    "pickedPhoto": """let pickedPhoto: URL = {
    let file = scratch.appendingPathComponent("picked.jpg")
    try! FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    try! JPEGEncoder().encode(Bitmap(width: 48, height: 32, fill: RGBA(200, 120, 40))).write(to: file)
    return file
}()""",
    "MyURLProtocol": "final class MyURLProtocol: URLProtocol {}",
    "drawPNG": "func drawPNG(_ value: some Any) -> Data { (try? PNGEncoder().encode(Bitmap(width: 1, height: 1, fill: .white))) ?? Data() }",
}
# Names some context declarations need in turn.
NEEDS = {name: ["scratch"] for name in ["folder", "tileCache", "photosFolder", "cacheFolder", "webCache", "pickedPhoto", "environment"]}
HEADER = """import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import URLSchemeKit
"""


def blocks():
    files = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    for path in files:
        lines = path.read_text(encoding="utf-8").splitlines()
        index = 0
        while index < len(lines):
            match = re.match(r"^```swift\b(.*)$", lines[index])
            if not match:
                index += 1
                continue
            start = index + 1
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            yield path.relative_to(root), start, match.group(1).strip(), "\n".join(lines[start:end])
            index = end + 1


def declares(code, name):
    return re.search(rf"\b(let|var|func|class|struct|enum)\s+{name}\b", code) is not None


def uses_testing(code):
    return re.search(r"^import URLSchemeKitTesting\b", code, re.M) is not None


def source(code):
    body = [line for line in code.splitlines() if not line.startswith("import ")]
    wanted = []
    for name in CONTEXT:
        if re.search(rf"\b{name}\b", code) and not declares(code, name):
            for needed in NEEDS.get(name, []) + [name]:
                if needed not in wanted:
                    wanted.append(needed)
    ordered = [name for name in CONTEXT if name in wanted]
    testing = "import XCTest\nimport URLSchemeKitTesting\n" if uses_testing(code) else ""
    return HEADER + testing + "\n".join(CONTEXT[name] for name in ordered) + "\n\n" + "\n".join(body) + "\n"


def main():
    found = list(blocks())
    if work.exists():
        shutil.rmtree(work)
    targets = []
    fragments = []
    for number, (path, line, info, code) in enumerate(found, 1):
        if info.startswith("fragment"):
            fragments.append(f"{path}:{line}")
            continue
        name = f"Block{number:02d}"
        directory = work / "Sources" / name
        directory.mkdir(parents=True)
        (directory / "main.swift").write_text(f"// {path}:{line}\n" + source(code), encoding="utf-8")
        targets.append((name, path, line, info.startswith("runnable"), uses_testing(code)))
    manifest = ["// swift-tools-version:6.0", "import PackageDescription", "let package = Package(",
                '    name: "ReadmeBlocks", platforms: [.macOS(.v15), .iOS(.v18)],',
                f'    dependencies: [.package(name: "URLSchemeKit", path: "{root}")],', "    targets: ["]
    for name, _, _, _, testing in targets:
        products = ["URLSchemeKit"] + (["URLSchemeKitTesting"] if testing else [])
        dependencies = ", ".join(f'.product(name: "{product}", package: "URLSchemeKit")' for product in products)
        manifest.append(f'        .executableTarget(name: "{name}", dependencies: [{dependencies}]),')
    # Swift 6 language mode, explicitly: the examples must compile as a Swift 6 app's code does.
    manifest += ["    ],", "    swiftLanguageModes: [.v6]", ")", ""]
    (work / "Package.swift").write_text("\n".join(manifest), encoding="utf-8")

    build = subprocess.run(["swift", "build", "--package-path", str(work), "-Xswiftc", "-warnings-as-errors"],
                           capture_output=True, text=True)
    failed = 0
    if build.returncode != 0:
        print(build.stdout[-6000:] + build.stderr[-3000:])
        for name, path, line, _, _ in targets:
            if f"Sources/{name}/" in build.stdout + build.stderr:
                print(f"{path}:{line}: does not build ({name})")
        failed += 1
    ran = 0
    if build.returncode == 0:
        binaries = pathlib.Path(subprocess.run(["swift", "build", "--package-path", str(work), "--show-bin-path"],
                                               capture_output=True, text=True).stdout.strip())
        for name, path, line, runnable, _ in targets:
            if not runnable:
                print(f"{path}:{line}: built")
                continue
            try:
                run = subprocess.run([str(binaries / name)], capture_output=True, text=True, timeout=60)
                ok = run.returncode == 0
                detail = (run.stdout + run.stderr).strip()[-500:]
            except subprocess.TimeoutExpired:
                ok, detail = False, "did not finish in 60 s"
            ran += 1
            print(f"{path}:{line}: built and ran" + ("" if ok else f": FAILED\n{detail}"))
            failed += 0 if ok else 1
    for fragment in fragments:
        print(f"{fragment}: fragment, not built")
    print(f"{len(found)} Swift blocks: {len(targets)} built, {ran} run, {len(fragments)} fragments"
          + ("" if failed == 0 else f"; {failed} failure(s)"))
    if "--keep" not in sys.argv and failed == 0:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


sys.exit(main())
