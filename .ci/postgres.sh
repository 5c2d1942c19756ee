#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the test suite: Debian's server (installed when missing),
# initdb on a temp directory, a free loopback port, run as an unprivileged user (initdb and
# pg_ctl refuse root), durability off (the data dies with the run). Source this file, then:
#   pg_throwaway_start   # exports TEST_DATABASE_URL; registers nothing, so trap pg_throwaway_stop
#   pg_throwaway_stop    # stops the server and deletes the directory; safe to call twice
# Also runnable on its own: `bash .ci/postgres.sh run -- CMD...` starts, runs CMD, stops.

pg_throwaway_bindir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && echo "$dir"
  done | sort -V | tail -n 1
}

pg_throwaway_start() {
  local bindir
  bindir="$(pg_throwaway_bindir)"
  if [ -z "$bindir" ]; then
    echo "ci: installing Debian's PostgreSQL server"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq postgresql >/dev/null
    bindir="$(pg_throwaway_bindir)"
  fi
  # root may not run the server: Debian's package creates the `postgres` system user for it.
  local as=()
  if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); fi

  PG_THROWAWAY_DIR="$(mktemp -d /tmp/docchat-pg.XXXXXX)"
  chmod 700 "$PG_THROWAWAY_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$PG_THROWAWAY_DIR"; fi
  PG_THROWAWAY_PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  PG_THROWAWAY_AS=("${as[@]}")
  PG_THROWAWAY_BINDIR="$bindir"
  export PG_THROWAWAY_DIR PG_THROWAWAY_PORT PG_THROWAWAY_BINDIR

  "${as[@]}" "$bindir/initdb" -D "$PG_THROWAWAY_DIR/data" -U docchat --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  "${as[@]}" "$bindir/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -l "$PG_THROWAWAY_DIR/server.log" -w -t 60 \
    -o "-p $PG_THROWAWAY_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$PG_THROWAWAY_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    start >/dev/null
  export TEST_DATABASE_URL="postgres://docchat@127.0.0.1:$PG_THROWAWAY_PORT/postgres"
  echo "ci: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') at 127.0.0.1:$PG_THROWAWAY_PORT ($PG_THROWAWAY_DIR)"
}

pg_throwaway_stop() {
  [ -n "${PG_THROWAWAY_DIR:-}" ] || return 0
  if [ -d "$PG_THROWAWAY_DIR/data" ]; then
    "${PG_THROWAWAY_AS[@]}" "$PG_THROWAWAY_BINDIR/pg_ctl" -D "$PG_THROWAWAY_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$PG_THROWAWAY_DIR"
  PG_THROWAWAY_DIR=""
}

if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "${1:-}" = run ]; then
  set -euo pipefail
  shift
  [ "${1:-}" = -- ] && shift
  trap pg_throwaway_stop EXIT
  pg_throwaway_start
  "$@"
fi
