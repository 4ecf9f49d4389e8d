#!/usr/bin/env python3
"""Shows that editing one entity of the Bookshelf example recompiles one generated file.

Usage: Scripts/check-incremental-build.py

SHARED_SCRATCH_PATH, when set, is the build folder (`--scratch-path`) instead of the package's .build.

Builds Examples/Bookshelf, changes the default value of Book.price in its model, rebuilds with
`swift build -v`, and reads from the compiler invocations which files of the Bookshelf module were
compiled: exactly `Bookshelf+Book.swift` must be. Then adds an attribute to Book, which changes the
class's interface, and prints what that recompiles (the entity's file and, by Swift's own
dependency rules, the files that use the class). The model is restored however the run ends.
"""
import os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
package = os.path.join(root, "Examples", "Bookshelf")
model = os.path.join(package, "Sources", "Bookshelf", "Models", "Bookshelf.xcdatamodeld", "Bookshelf.xcdatamodel", "contents")


scratch = ["--scratch-path", os.path.abspath(os.environ["SHARED_SCRATCH_PATH"])] if os.environ.get("SHARED_SCRATCH_PATH") else []


def build(verbose=False):
    result = subprocess.run(["swift", "build", "--package-path", package] + scratch + (["-v"] if verbose else []),
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(result.stdout + result.stderr + "\nincremental build: the example does not build")
    return result.stdout + result.stderr


def compiled_files(log):
    """The files of the Bookshelf module that compile jobs had as primary files."""
    files = set()
    for line in log.splitlines():
        tokens = line.split()
        if not tokens or not tokens[0].endswith("swift-frontend") or "-c" not in tokens:
            continue
        if "-module-name" not in tokens or tokens[tokens.index("-module-name") + 1] != "Bookshelf":
            continue
        files.update(os.path.basename(tokens[i + 1]) for i, token in enumerate(tokens) if token == "-primary-file")
    return sorted(files)


def rebuild_after(original, edited):
    if edited == original:
        sys.exit("incremental build: the edit did not apply")
    with open(model, "w") as file:
        file.write(edited)
    return compiled_files(build(verbose=True))


original = open(model).read()
try:
    build()
    price = '<attribute name="price" attributeType="Double" defaultValueString="0.0"'
    files = rebuild_after(original, original.replace(price, price.replace("0.0", "1.5")))
    print(f"Book.price's default changed: compiled {', '.join(files) or 'nothing'}")
    if files != ["Bookshelf+Book.swift"]:
        sys.exit("incremental build: a change to one entity must recompile its file alone")

    title = '<attribute name="title" '
    files = rebuild_after(original, original.replace(title, '<attribute name="subtitle" optional="YES" attributeType="String"/>\n        ' + title))
    print(f"Book.subtitle added: compiled {', '.join(files)}")
    if "Bookshelf+Book.swift" not in files:
        sys.exit("incremental build: the changed entity's file was not recompiled")
finally:
    with open(model, "w") as file:
        file.write(original)
    build()
