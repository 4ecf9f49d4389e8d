#!/usr/bin/env bash
# Parsing and fetching with predicates of the forms the language had before arithmetic, bits and
# functions joined it, built at BASE and at HEAD and run interleaved in one run: the cost of the
# larger grammar to the predicates apps already had.
#
#     Scripts/compare-predicate-cost.sh [BASE] [RUNS]     (BASE defaults to cd10772, RUNS to 10)
#
# Each run parses 24 predicates and counts their matches in an empty in-memory store (parse,
# resolution, SQL, statement) 300 times, and prints the median per predicate; the script prints
# each side's median of the runs and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-cd10772}"
runs="${2:-10}"
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/checkout" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/checkout" "$base" >/dev/null 2>&1

# One small package per side, each against its own checkout of DataModelKit.
for side in base head; do
    root="$([ "$side" = base ] && echo "$work/checkout" || pwd)"
    mkdir -p "$work/$side/Sources/predicate-cost"
    cat > "$work/$side/Package.swift" <<PACKAGE
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "predicate-cost",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "DataModelKit", path: "$root")],
    targets: [.executableTarget(name: "predicate-cost", dependencies: [
        .product(name: "DataStore", package: "DataModelKit"), .product(name: "DataModelParser", package: "DataModelKit"),
    ])]
)
PACKAGE
    cat > "$work/$side/Sources/predicate-cost/main.swift" <<'SWIFT'
import DataModelParser
import DataStore
import Foundation

let model = try ModelLoader().load(CommandLine.arguments[1] + "/Models/Everything.xcdatamodeld").model
let context = try PersistentStore.inMemory(model: ManagedObjectModel(model: model)).newContext()
let formats = [
    "title == 'Emma'", "title != nil", "pageCount > 100", "pageCount BETWEEN {100, 300}", "price < 9.99",
    "title BEGINSWITH[c] 'the'", "title CONTAINS[cd] 'war'", "title LIKE '*and*'", "title MATCHES '[A-Z].*'",
    "isAvailable == YES", "published > CAST(0, 'NSDate')", "title IN {'Emma', 'Persuasion', 'Middlemarch'}",
    "author.name == 'Austen'", "author.name ENDSWITH 'en' AND pageCount < 500", "NOT (title == 'x') OR pageCount == 1",
    "ANY tags.name == 'classic'", "ALL tags.name != 'draft'", "NONE tags.name BEGINSWITH 'a'",
    "chapters.@count > 10", "tags.@count == 0", "author.books.@count > 2",
    "SUBQUERY(chapters, $c, $c.title CONTAINS 'war').@count > 0", "shelf.featured.pageCount > pageCount",
    "(title == 'a' OR title == 'b') AND (pageCount > 1 OR price < 2)",
]
let rounds = 300
var durations: [Duration] = []
let clock = ContinuousClock()
for round in 0..<(rounds + 20) {
    let start = clock.now
    for format in formats {
        let request = FetchRequest<ManagedObject>(entityName: "Book", predicate: try ObjectPredicate(format: format))
        let count = try context.count(for: request)
        precondition(count == 0)
    }
    if round >= 20 { durations.append((clock.now - start) / formats.count) }
}
durations.sort()
let median = durations[durations.count / 2]
print(Double(median.components.attoseconds) / 1e12 + Double(median.components.seconds) * 1e6)
SWIFT
done

for side in base head; do
    echo "building $side…" >&2
    swift build -c release --package-path "$work/$side" > "$work/$side.log" 2>&1 || { tail -30 "$work/$side.log" >&2; exit 1; }
done

declare -a base_times head_times
for ((run = 0; run < runs; run++)); do
    base_times+=("$("$work/base/.build/release/predicate-cost" "$work/checkout")")
    head_times+=("$("$work/head/.build/release/predicate-cost" "$PWD")")
done
python3 - "${base_times[*]}" "${head_times[*]}" <<'PYTHON'
import statistics, sys
base = [float(x) for x in sys.argv[1].split()]
head = [float(x) for x in sys.argv[2].split()]
b, h = statistics.median(base), statistics.median(head)
print(f"per predicate, parse + fetch on an empty store: base {b:.1f} µs, head {h:.1f} µs, head/base {h / b:.2f}× ({len(base)} interleaved runs)")
PYTHON
