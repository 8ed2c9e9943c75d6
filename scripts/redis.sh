#!/usr/bin/env bash
# A Redis server where the rate limits count (companion/limits.py), so that every
# gunicorn worker shares one count: for `make serve`, `make serve-https`, the tests.
#   uri=$(scripts/redis.sh start DIR)   # prints: redis+unix:///.../DIR/redis.sock
#   scripts/redis.sh stop DIR           # stops that server, removes DIR
# It listens on a unix socket in DIR only (no TCP port: nothing to collide with, and only
# this user reaches it), and everything of it lives in DIR (its pid, socket, log; no
# data: the counts are worth nothing after a restart), so several run side by side, one
# per directory. `start` on a DIR whose server still runs prints its URI and starts
# nothing (`make serve` run again). Installs Debian's redis-server when it is missing.
set -euo pipefail
umask 077  # DIR (and an instance folder made for it) this user's only

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}

running() {  # the server DIR's pid file names is alive, and answers on its socket
  local dir=$1
  [ -f "$dir/redis.pid" ] && kill -0 "$(cat "$dir/redis.pid")" 2>/dev/null \
    && [ "$(redis-cli -s "$dir/redis.sock" ping 2>/dev/null)" = PONG ]
}

start() {
  local dir=$1 sudo=""
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ ${#dir} -gt 96 ]; then  # a unix socket's path holds at most 107 bytes
    echo "$dir is too long a path for Redis's socket: give a shorter folder" >&2
    exit 1
  fi
  if ! command -v redis-server >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "Installing Debian's redis-server package for the rate limits" >&2
    $sudo apt-get update -qq >&2
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    # The package starts a server of its own on port 6379 where systemd runs: not ours.
    { command -v systemctl >/dev/null && $sudo systemctl disable --now redis-server; } >/dev/null 2>&1 || true
  fi
  touch "$dir/started-here"  # `stop` removes only a directory `start` used
  if ! running "$dir"; then
    rm -f "$dir/redis.sock"
    redis-server --port 0 --unixsocket "$dir/redis.sock" --unixsocketperm 700 \
      --daemonize yes --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" \
      --save '' --appendonly no >&2 || { cat "$dir/redis.log" >&2; exit 1; }
    for _ in $(seq 100); do running "$dir" && break; sleep 0.05; done
    running "$dir" || { echo "Redis did not start:" >&2; cat "$dir/redis.log" >&2; exit 1; }
  fi
  echo "redis+unix://$dir/redis.sock"
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  if [ ! -f "$dir/started-here" ]; then
    echo "$dir was not set up by '$0 start': left as it is" >&2
    exit 1
  fi
  if [ -f "$dir/redis.pid" ]; then
    local pid
    pid=$(cat "$dir/redis.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  fi
  rm -rf "$dir"
}

[ $# = 2 ] && [ -n "$2" ] || usage
case "$1" in
  start) start "$2" ;;
  stop) stop "$2" ;;
  *) usage ;;
esac
