#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on a loopback port, for the tests: Debian's server binaries, run
# as an unprivileged user (the `postgres` account when called as root), trust authentication on
# 127.0.0.1 only, fsync off (nothing here outlives the run).
#
#   export DATAMODELKIT_POSTGRES_URL=$(Scripts/postgres-server.sh start)   # prints the URL
#   Scripts/postgres-server.sh stop
set -euo pipefail

dir="${TMPDIR:-/tmp}/datamodelkit-postgres"
port="${DATAMODELKIT_POSTGRES_PORT:-54329}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -n "$bin" ] || { echo "postgres-server: no PostgreSQL server found; install Debian's 'postgresql' package" >&2; exit 1; }
as_user=()
[ "$(id -u)" -ne 0 ] || as_user=(runuser -u postgres --)

case "${1:-start}" in
start)
    [ ! -f "$dir/data/postmaster.pid" ] || "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" -ne 0 ] || chown postgres "$dir"
    "${as_user[@]}" "$bin/initdb" -D "$dir/data" -U datamodelkit --auth=trust -E UTF8 --locale=C >"$dir/initdb.log"
    "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    "${as_user[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U datamodelkit datamodelkit
    echo "postgresql://datamodelkit@127.0.0.1:$port/datamodelkit"
    ;;
stop)
    [ ! -d "$dir/data" ] || "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
