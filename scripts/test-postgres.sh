#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the test suite.
#   eval "$(scripts/test-postgres.sh start)"   # prints: export TEST_DATABASE_URL=...
#   scripts/test-postgres.sh stop
# Installs Debian's postgresql package when it is missing. Fails loudly if the
# server can't start: CI must never quietly run on SQLite alone.
set -euo pipefail
state=/tmp/companion-test-postgres

pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$dir" ] && command -v pg_ctl >/dev/null 2>&1; then dir=$(dirname "$(command -v pg_ctl)"); fi
  echo "$dir"
}

as_owner() {  # PostgreSQL refuses to run as root: use its own user there
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

start() {
  local bin port dir sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  bin=$(pg_bin)
  if [ -z "$bin" ]; then
    echo "Installing Debian's postgresql package for the tests" >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
    bin=$(pg_bin)
  fi
  stop >/dev/null 2>&1 || true
  dir=$(mktemp -d /tmp/companion-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=300" >&2 \
    || { cat "$dir/server.log" >&2; exit 1; }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres companion_test
  printf '%s\n%s\n' "$dir" "$bin" > "$state"
  echo "export TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:$port/companion_test"
}

stop() {
  [ -f "$state" ] || return 0
  local dir bin
  dir=$(sed -n 1p "$state"); bin=$(sed -n 2p "$state")
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$dir" "$state"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
