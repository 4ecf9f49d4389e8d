#!/usr/bin/env python3
"""Generates Swift for every model version of a corpus and compiles it all against DataStore.

Usage: Scripts/compile-corpus.py [CORPUS_MODELS_DIR]   (default: ../shared/corpus/models)

With the default, the model version that wrote each store of ../shared/corpus/stores and
../shared/stores-incoming is compiled too, and so is the model that stores made in code carry (a
SwiftData store, and CoreDataPlus's in the tests' fixtures), generated from the store itself.

Builds a package in .build/corpus-package with one module per model version (the three layouts in
turn: entity files, single file, incremental), where the types a model names in userInfo are declared as an app would, plus
an executable that checks each compiled definition equals the parsed model. A module generated for
a version of a bundle of several carries every version of the bundle, that one as current: the
check compares each with its parsed version too. Fails on any generator error, any compiler error
or warning in generated code, or any definition that differs.

SHARED_SCRATCH_PATH, when set, is the package's build folder (`--scratch-path`), shared with other
packages that depend on DataModelKit so that its modules are not compiled again.
"""
import json, os, re, shutil, subprocess, sys

from generated_package import write_app_types, write_package

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "corpus", "models"))
store_folders = [] if len(sys.argv) > 1 else [os.path.join(root, "..", "shared", "corpus", "stores"),
                                              os.path.join(root, "..", "shared", "stores-incoming")]
work = os.path.join(root, ".build", "corpus-package")
carried_stores = [os.path.join(root, "Tests", "StoreSchemaTests", "Fixtures", "ThirdParty", "CoreDataPlus", "SampleModel2_V2.sqlite")]
if store_folders:
    carried_stores.append(os.path.join(root, "..", "shared", "stores-swiftdata", "CartKit__CartKitSwiftData_v1", "CartKitSwiftData_v1.sqlite"))
scratch = ["--scratch-path", os.path.abspath(os.environ["SHARED_SCRATCH_PATH"])] if os.environ.get("SHARED_SCRATCH_PATH") else []

if not os.path.isdir(corpus):
    sys.exit(f"compile-corpus: {corpus} not found; pass the corpus models folder")

subprocess.run(["swift", "build", "--product", "datamodel-gen"], cwd=root, check=True)
tool = os.path.join(subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, check=True,
                                   capture_output=True, text=True).stdout.strip(), "datamodel-gen")

def versions():
    """(model path, version name or None) for every model version of the corpus, in name order."""
    for name in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, name)
        if name.endswith(".xcdatamodeld"):
            for version in sorted(os.listdir(path)):
                if version.endswith(".xcdatamodel"):
                    yield path, version[: -len(".xcdatamodel")]
        elif name.endswith(".xcdatamodel"):
            yield path, None
    for folder in store_folders:
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            version_file = os.path.join(folder, name, "model-version.txt")
            if os.path.isfile(version_file):
                with open(version_file) as file:
                    yield os.path.abspath(os.path.join(folder, name, file.read().strip())), None
    # Stores are read through copies, never where they lie.
    copies = os.path.join(work, "Stores")
    os.makedirs(copies, exist_ok=True)
    for store in carried_stores:
        if os.path.isfile(store):
            copy = os.path.join(copies, os.path.basename(store))
            shutil.copyfile(store, copy)
            yield copy, None

shutil.rmtree(os.path.join(work, "Sources"), ignore_errors=True)
modules = []
failures = 0
for index, (path, version) in enumerate(versions()):
    module = f"CorpusModel{index:03d}"
    sources = os.path.join(work, "Sources", module)
    os.makedirs(sources)
    version_args = ["--model-version", version] if version else []
    options = ["--layout", ["entity-files", "single-file", "incremental"][index % 3]]
    generated = subprocess.run([tool, "generate", path, "-o", sources] + version_args + options,
                               capture_output=True, text=True)
    if generated.returncode != 0 or " error: " in generated.stderr:
        print(generated.stderr, file=sys.stderr)
        print(f"compile-corpus: generation failed for {path} {version or ''}", file=sys.stderr)
        failures += 1
        continue
    context = json.loads(subprocess.run([tool, "dump-context", path] + version_args, check=True,
                                        capture_output=True, text=True).stdout)
    write_app_types(os.path.join(sources, "AppTypes.swift"), context["userTypes"])
    modules.append((module, context["typeName"], path, version))

check = os.path.join(work, "Sources", "corpus-check")
os.makedirs(check)
with open(os.path.join(check, "main.swift"), "w") as file:
    file.write("import DataModel\nimport DataModelParser\nimport DataStore\nimport Foundation\n")
    file.write("".join(f"import {m}\n" for m, _, _, _ in modules))
    file.write("\nlet compiled: [(path: String, version: String?, model: ManagedObjectModel)] = [\n")
    for module, type_name, path, version in modules:
        file.write(f"    ({json.dumps(path)}, {json.dumps(version) if version else 'nil'}, {module}.{type_name}.model),\n")
    file.write("""]

var differing = 0
for entry in compiled {
    // A store file stands for the model it carries.
    let loaded = entry.path.hasSuffix(".sqlite")
        ? ModelLoader.Result(model: try PersistentStore.modelForStore(at: URL(fileURLWithPath: entry.path)), diagnostics: [])
        : try ModelLoader().load(entry.path, version: entry.version)
    let parsed = loaded.model.withoutSourceDetails
    // Every version of the bundle, oldest first, the one generated among them as current.
    let versions = try loaded.availableVersions.map {
        try ModelLoader().load(entry.path, version: $0).model.withoutSourceDetails
    }
    let name = "\\(entry.path) \\(entry.version ?? "")"
    if parsed != entry.model.model {
        differing += 1
        print("corpus-check: the compiled definition of \\(name) differs from the parsed model")
    } else if entry.model.versions != (versions.isEmpty ? [parsed] : versions)
        || entry.model.versions[entry.model.currentVersionIndex] != parsed {
        differing += 1
        print("corpus-check: the compiled versions of \\(name) differ from the parsed versions")
    }
}
print("corpus-check: \\(compiled.count - differing) of \\(compiled.count) compiled models equal their parsed versions")
exit(differing == 0 ? 0 : 1)
""")

check_target = f"""        .executableTarget(
            name: "corpus-check",
            dependencies: [
                .product(name: "DataModel", package: "DataModelKit"),
                .product(name: "DataModelParser", package: "DataModelKit"),
                .product(name: "DataStore", package: "DataModelKit"),
{''.join(f'                "{m}",{chr(10)}' for m, _, _, _ in modules)}            ]
        ),
"""
write_package(work, "CorpusPackage", root, [m for m, _, _, _ in modules], check_target)

print(f"compile-corpus: building {len(modules)} generated modules")
build = subprocess.run(["swift", "build", "--package-path", work] + scratch, capture_output=True, text=True)
output = build.stdout + build.stderr
generated_sources = os.path.join(work, "Sources")
problems = sorted(set(line for line in output.splitlines()
                      if line.startswith(generated_sources) and re.search(r": (warning|error): ", line)))
for line in problems:
    print(line, file=sys.stderr)
if build.returncode != 0:
    print(output[-4000:], file=sys.stderr)
    sys.exit("compile-corpus: the generated code does not compile")
if problems or failures:
    sys.exit(f"compile-corpus: {len(problems)} compiler diagnostics in generated code, {failures} models failed to generate")
subprocess.run(["swift", "run", "--skip-build", "--package-path", work] + scratch + ["corpus-check"], cwd=corpus, check=True)
print(f"compile-corpus: {len(modules)} model versions generated and compiled with no errors and no warnings")
