#!/usr/bin/env bash
# Builds the parser fuzz target with libFuzzer and runs it.
#   Fuzz/run-parser-fuzzer.sh              # 1,000,000 inputs (the acceptance run)
#   RUNS=50000 Fuzz/run-parser-fuzzer.sh   # a quick run
# Seeds are the bundled models, the test fixtures and, when present, ../shared/corpus.
# A crash leaves its input as Fuzz/crash-* for replay: .build/release/ParserFuzzer Fuzz/crash-…
set -euo pipefail
cd "$(dirname "$0")"
runs="${RUNS:-1000000}"
swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product ParserFuzzer

corpus=".out/parser-corpus"
mkdir -p "$corpus"
find ../Models ../Tests/DataModelParserTests/Fixtures ../../shared/corpus -name contents -print0 2>/dev/null |
    while IFS= read -r -d '' file; do
        cp "$file" "$corpus/seed-$(printf '%s' "$file" | md5sum | cut -c1-12)"
    done
.build/release/ParserFuzzer "$corpus" Seeds -runs="$runs" -max_len=16384 -dict=xml.dict \
    -artifact_prefix=./crash- -print_final_stats=1
