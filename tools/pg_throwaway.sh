#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: made in a temporary folder, listening on
# 127.0.0.1 only, run as a non-root user (PostgreSQL refuses root), no password (trust on
# the loopback address only).
#
#   eval "$(tools/pg_throwaway.sh start)"   # prints: export FAIRYPOST_TEST_POSTGRES=postgresql://...; export PG_THROWAWAY_DIR=...
#   tools/pg_throwaway.sh stop "$PG_THROWAWAY_DIR"
#
# Needs Debian's postgresql package (its binaries in /usr/lib/postgresql/<version>/bin) or
# initdb/pg_ctl on the PATH. PG_PORT chooses the port (default: a free one).
set -euo pipefail

find_bin() {
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$d/initdb" ] && { echo "$d"; return; }
    done
    echo "pg_throwaway: no initdb found (apt-get install postgresql)" >&2
    exit 1
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    local bin dir port user
    bin=$(find_bin)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/fairypost-pg.XXXXXX")
    port=${PG_PORT:-$(free_port)}
    user=$(id -un)
    run=()
    if [ "$(id -u)" = 0 ]; then  # PostgreSQL will not run as root
        user=nobody
        chown "$user" "$dir"
        run=(runuser -u "$user" --)
    fi
    "${run[@]}" "$bin/initdb" -D "$dir/data" -U fairypost --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "export FAIRYPOST_TEST_POSTGRES=postgresql://fairypost@127.0.0.1:$port/postgres"
    echo "export PG_THROWAWAY_DIR=$dir"
}

stop() {
    local dir=${1:?the folder start printed}
    local bin
    bin=$(find_bin)
    run=()
    [ "$(id -u)" = 0 ] && run=(runuser -u "$(stat -c %U "$dir")" --)
    "${run[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}

case "${1:-}" in
    start) start ;;
    stop) shift; stop "$@" ;;
    *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
esac
