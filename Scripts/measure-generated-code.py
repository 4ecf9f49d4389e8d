#!/usr/bin/env python3
"""Measures the generated code of models: lines per property in the entity files, and the time a
debug build takes to compile the generated module.

Usage: Scripts/measure-generated-code.py [MODEL ...] [--rounds N]

Without models: the bundled Everything model and the largest model (by properties) of
../shared/corpus/models. Builds a package in .build/generated-code-package with one module per
model, compiles DataStore once, then rebuilds each generated module N times (default 3) after
touching its files, and prints the median compile time: the rebuild's wall time less that of a
build with nothing to do.
"""
import json, os, shutil, statistics, subprocess, sys, time

from generated_package import write_app_types, write_package

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = os.path.join(root, ".build", "generated-code-package")
arguments = sys.argv[1:]
rounds = 3
if "--rounds" in arguments:
    index = arguments.index("--rounds")
    rounds = int(arguments[index + 1])
    del arguments[index:index + 2]

subprocess.run(["swift", "build", "--product", "datamodel-gen"], cwd=root, check=True)
tool = os.path.join(subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, check=True,
                                   capture_output=True, text=True).stdout.strip(), "datamodel-gen")


def context(model):
    return json.loads(subprocess.run([tool, "dump-context", model], check=True,
                                     capture_output=True, text=True).stdout)


def property_count(model_context):
    return sum(len(e["attributes"]) + len(e["relationships"]) + len(e["fetchedProperties"])
               for e in model_context["entities"])


def largest_corpus_model():
    corpus = os.path.join(root, "..", "shared", "corpus", "models")
    if not os.path.isdir(corpus):
        return None
    models = [os.path.join(corpus, name) for name in sorted(os.listdir(corpus))
              if name.endswith((".xcdatamodel", ".xcdatamodeld"))]
    return max(models, key=lambda model: property_count(context(model)))


models = arguments or [m for m in [os.path.join(root, "Models", "Everything.xcdatamodeld"), largest_corpus_model()] if m]

shutil.rmtree(os.path.join(work, "Sources"), ignore_errors=True)
measured = []
for index, model in enumerate(models):
    module = f"GeneratedModel{index}"
    sources = os.path.join(work, "Sources", module)
    os.makedirs(sources)
    subprocess.run([tool, "generate", model, "-o", sources], check=True, capture_output=True)
    model_context = context(model)
    write_app_types(os.path.join(sources, "AppTypes.swift"), model_context["userTypes"])
    entity_files = [os.path.join(sources, e["fileName"]) for e in model_context["entities"]]
    lines = sum(sum(1 for _ in open(path)) for path in entity_files)
    measured.append({"model": os.path.basename(model), "module": module, "sources": sources,
                     "entities": len(model_context["entities"]), "properties": property_count(model_context),
                     "lines": lines})

write_package(work, "GeneratedCodePackage", root, [m["module"] for m in measured])


def build(target):
    start = time.monotonic()
    subprocess.run(["swift", "build", "--package-path", work, "--target", target], check=True, capture_output=True)
    return time.monotonic() - start


for entry in measured:
    build(entry["module"])
    idle = statistics.median(build(entry["module"]) for _ in range(rounds))
    times = []
    for _ in range(rounds):
        for name in os.listdir(entry["sources"]):
            os.utime(os.path.join(entry["sources"], name))
        times.append(build(entry["module"]) - idle)
    entry["seconds"] = statistics.median(times)

print(f"{'model':<40} {'entities':>8} {'properties':>10} {'entity lines':>12} {'lines/property':>14} {'debug compile':>13}")
for m in measured:
    print(f"{m['model']:<40} {m['entities']:>8} {m['properties']:>10} {m['lines']:>12} "
          f"{m['lines'] / m['properties']:>14.1f} {m['seconds']:>12.1f}s")
