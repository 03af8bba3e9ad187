#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL server, then stops the server and deletes its
# files, whatever the command's outcome.
#
#   Scripts/with-postgres.sh swift test --skip-build --filter CairnPostgresTests
#
# The server listens only on a Unix socket in a temporary folder (no TCP port), with durability
# off (fsync, synchronous_commit, full_page_writes), as its data is thrown away at the end. The
# command sees CAIRN_TEST_POSTGRES_URL, e.g.
#   postgresql://postgres@/cairn_test?host=/tmp/cairn-postgres.XXXXXX/socket
# and PostgreSQL's tests read it (without it they are skipped).
#
# Missing server binaries or libpq headers are installed with apt-get (Debian, as root). Run as
# root, the server runs as the `postgres` user (PostgreSQL refuses to run as root); run as
# another user, it runs as that user. PG_BIN overrides the folder of initdb and pg_ctl.
set -euo pipefail

if [[ $# -eq 0 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,15p' "$0"
    exit 2
fi

# The newest installed server's bin folder (Debian keeps them in /usr/lib/postgresql/<n>/bin).
find_bin() {
    if [[ -n "${PG_BIN:-}" ]]; then echo "$PG_BIN"; return; fi
    local candidate
    candidate=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
    if [[ -n "$candidate" && -x "$candidate/pg_ctl" ]]; then echo "$candidate"; return; fi
    if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v pg_ctl)"
    fi
}

bin=$(find_bin)
need=()
[[ -n "$bin" && -x "$bin/initdb" ]] || need+=(postgresql)
pkg-config --exists libpq 2>/dev/null || need+=(libpq-dev pkg-config)
if [[ ${#need[@]} -gt 0 ]]; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
        echo "with-postgres.sh: missing ${need[*]}; install them (Debian: apt-get install ${need[*]}) or set PG_BIN" >&2
        exit 2
    fi
    echo "with-postgres.sh: installing ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends "${need[@]}" >&2
    bin=$(find_bin)
    [[ -n "$bin" && -x "$bin/initdb" ]] || { echo "with-postgres.sh: no initdb after installing postgresql" >&2; exit 2; }
fi

# As root, the server's commands run as `postgres`; otherwise as the caller.
as_server() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

folder=$(mktemp -d "${TMPDIR:-/tmp}/cairn-postgres.XXXXXX")
data="$folder/data"
socket="$folder/socket"
started=0
cleanup() {
    local status=$?
    if [[ $started -eq 1 ]]; then
        as_server "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$folder"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$socket"
[[ $(id -u) -eq 0 ]] && chown -R postgres: "$folder"

as_server "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$folder/initdb.log" 2>&1 \
    || { cat "$folder/initdb.log" >&2; exit 1; }
cat >>"$data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$socket'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
EOF

started=1
as_server "$bin/pg_ctl" -D "$data" -l "$folder/server.log" -w -t 60 start >/dev/null \
    || { cat "$folder/server.log" >&2; exit 1; }
as_server "$bin/createdb" -h "$socket" -U postgres cairn_test

export CAIRN_TEST_POSTGRES_URL="postgresql://postgres@/cairn_test?host=$socket"
echo "with-postgres.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') at $CAIRN_TEST_POSTGRES_URL" >&2

set +e
"$@"
exit $?
