#!/usr/bin/env bash
# Builds and starts the Failed Banks service (Examples/FailedBanksServer) on a new database of the
# PostgreSQL server at $DATAMODELKIT_POSTGRES_URL, with 3,000 sample banks, and checks its pages:
# every bank once, in sections by state, latest closing first, 20 to a page.
#
#   DATAMODELKIT_POSTGRES_URL=$(Scripts/postgres-server.sh start) Scripts/smoke-test-failed-banks-server.sh
#
# SHARED_SCRATCH_PATH, when set, is the build folder (--scratch-path) instead of the package's .build.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATAMODELKIT_POSTGRES_URL:?set it to a PostgreSQL server (Scripts/postgres-server.sh start)}"

database="failed_banks_$$"
psql "$DATAMODELKIT_POSTGRES_URL" -q -c "CREATE DATABASE $database"
port=8089
build=(--package-path Examples/FailedBanksServer ${SHARED_SCRATCH_PATH:+--scratch-path "$SHARED_SCRATCH_PATH"})
swift build "${build[@]}"
binaries="$(swift build "${build[@]}" --show-bin-path)"
"$binaries/failed-banks-server" \
    --database "${DATAMODELKIT_POSTGRES_URL%/*}/$database?sslmode=disable" --port "$port" --sample-banks 3000 \
    > .build/failed-banks-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; psql "$DATAMODELKIT_POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" || true' EXIT

for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null && break
    kill -0 $server 2>/dev/null || { cat .build/failed-banks-server.log; echo "failed-banks-server: exited"; exit 1; }
    sleep 0.2
done
for page in $(seq 0 149); do curl -sf "http://127.0.0.1:$port/banks?page=$page&size=20"; echo; done > .build/failed-banks-pages.jsonl
status=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/banks?size=0")

python3 - "$status" <<'PY'
import json, sys
pages = [json.loads(line) for line in open(".build/failed-banks-pages.jsonl")]
assert sys.argv[1] == "400", f"size=0 answered {sys.argv[1]}, not 400"
rows = []
for number, page in enumerate(pages):
    assert page["page"] == number and page["pageSize"] == 20 and page["bankCount"] == 3000, page
    banks = [(section["state"], bank) for section in page["sections"] for bank in section["banks"]]
    assert len(banks) == 20, f"page {number} has {len(banks)} banks"
    rows += banks
assert len(rows) == 3000
states = [state for state, _ in rows]
assert states == sorted(states), "sections are not in state order"
for previous, current in zip(rows, rows[1:]):
    if previous[0] == current[0]:
        assert (previous[1]["closeDate"] or "") >= (current[1]["closeDate"] or ""), f"{previous} before {current}"
print(f"failed-banks-server: 150 pages, 3,000 banks in {len(set(states))} states, in order")
PY
