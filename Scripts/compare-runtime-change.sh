#!/usr/bin/env bash
# The runtime benchmarks at BASE and in the working tree, run in turn in one run: whether a change
# made any workload slower. Each side's compare-runtime measures its own floor (SQLite's C API) in the same
# rounds, so each side's DataStore ratio to the floor is measured under the conditions of its run.
#
#     Scripts/compare-runtime-change.sh [BASE] [RUNS] [ROUNDS]
#
# BASE defaults to b76caa8 (before merge policies, the container and the object lifecycle), RUNS to
# 3 per side and ROUNDS to 10 per run. The script prints, per workload, each side's median
# DataStore time and ratio to the floor over its runs, and the working tree's time over BASE's.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-b76caa8}"
runs="${2:-3}"
rounds="${3:-10}"
work="$(mktemp -d)"
trap 'git worktree remove --force "$work/checkout" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/checkout" "$base" >/dev/null 2>&1
# The dependencies' checkouts, so that the base side need not fetch them again.
[ -d Benchmarks/.build/repositories ] && mkdir -p "$work/checkout/Benchmarks/.build" \
    && cp -R Benchmarks/.build/repositories "$work/checkout/Benchmarks/.build/"

for root in "$work/checkout" "$PWD"; do
    echo "building compare-runtime at $root…" >&2
    swift build -c release --package-path "$root/Benchmarks" --product compare-runtime > "$work/build.log" 2>&1 \
        || { tail -30 "$work/build.log" >&2; exit 1; }
done

for ((run = 0; run < runs; run++)); do
    for side in base head; do
        root="$([ "$side" = base ] && echo "$work/checkout" || echo "$PWD")"
        echo "run $((run + 1)) of $runs, $side…" >&2
        (cd "$root/Benchmarks" && .build/release/compare-runtime "$rounds") > "$work/$side.$run.txt"
    done
done

python3 - "$work" "$runs" <<'PYTHON'
import re, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
def read(side):
    """Per workload, the DataStore times and the ratios to the floor of each run."""
    found = {}
    for run in range(runs):
        workload = None
        for line in open(f"{work}/{side}.{run}.txt"):
            if line.startswith("The same, as the README"): break
            if line and not line.startswith(" ") and not line.startswith("Medians"):
                workload = line.strip()
            match = re.match(r"\s+DataStore objects\s+([\d.]+) ms\s+([\d.]+)×", line)
            if match and workload:
                found.setdefault(workload, []).append((float(match[1]), float(match[2])))
    return found
base, head = read("base"), read("head")
print(f"DataStore, median over {runs} runs a side: time (ratio to the floor)")
for workload in base:
    b_ms = statistics.median(t for t, _ in base[workload]); b_ratio = statistics.median(r for _, r in base[workload])
    h_ms = statistics.median(t for t, _ in head[workload]); h_ratio = statistics.median(r for _, r in head[workload])
    print(f"  {workload:28} base {b_ms:8.1f} ms ({b_ratio:.2f}×)  head {h_ms:8.1f} ms ({h_ratio:.2f}×)  head/base {h_ms / b_ms:.2f}×")
PYTHON
