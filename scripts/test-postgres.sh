#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the tests and the load benchmark.
#   dir=$(mktemp -d)
#   env=$(scripts/test-postgres.sh start "$dir")   # prints: export TEST_DATABASE_URL=...
#   eval "$env"
#   scripts/test-postgres.sh stop "$dir"           # stops that server, removes "$dir"
# Everything of one server lives in its directory (DIR, empty or new at start): the data
# (DIR/data, the server's pid is the first line of DIR/data/postmaster.pid), its socket,
# its logs and what `stop` needs (DIR/pg_bin). So several servers can run side by side,
# one per directory, and `stop DIR` stops only the one in DIR. Both commands refuse to run
# without DIR; `stop` removes only a directory `start` was given (or an empty one).
# Installs Debian's postgresql package when it is missing. Fails loudly if the
# server can't start: CI must never quietly run on SQLite alone.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}

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
  local dir=$1 bin port sudo=""
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "$dir is not empty: start needs a new or empty directory" >&2
    exit 1
  fi
  [ "$(id -u)" = 0 ] || sudo=sudo
  bin=$(pg_bin)
  if [ -z "$bin" ]; then
    echo "Installing Debian's postgresql package for the tests" >&2
    $sudo apt-get update -qq >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(pg_bin)
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)  # absolute: the server's socket directory
  echo "$bin" >"$dir/pg_bin"  # first: from here on `stop` cleans up whatever start left
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=300" >&2 \
    || { cat "$dir/server.log" >&2; exit 1; }
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres companion_test
  echo "export TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:$port/companion_test"
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  if [ ! -f "$dir/pg_bin" ]; then
    rmdir "$dir" 2>/dev/null && return 0  # empty: start never got to it
    echo "$dir was not set up by '$0 start': left as it is" >&2
    exit 1
  fi
  as_owner "$(cat "$dir/pg_bin")/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

[ $# = 2 ] && [ -n "$2" ] || usage
case "$1" in
  start) start "$2" ;;
  stop) stop "$2" ;;
  *) usage ;;
esac
