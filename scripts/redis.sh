#!/usr/bin/env bash
# A Redis server on loopback where the rate limits count (companion/limits.py), so that
# every gunicorn worker shares one count: for `make serve`, the tests and CI.
#   uri=$(scripts/redis.sh start DIR)   # prints: redis://127.0.0.1:PORT/0
#   scripts/redis.sh stop DIR           # stops that server, removes DIR
# Everything of one server lives in DIR (its pid, port, log; no data: the counts are
# worth nothing after a restart), so several run side by side, one per directory.
# `start` on a DIR whose server still runs prints that server's URI and starts nothing
# (`make serve` run again). Installs Debian's redis-server package when it is missing.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}

running() {  # the server DIR's pid file names is alive, and answers
  local dir=$1
  [ -f "$dir/redis.pid" ] && [ -f "$dir/port" ] && kill -0 "$(cat "$dir/redis.pid")" 2>/dev/null \
    && [ "$(redis-cli -p "$(cat "$dir/port")" ping 2>/dev/null)" = PONG ]
}

start() {
  local dir=$1 port sudo=""
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if ! command -v redis-server >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "Installing Debian's redis-server package for the rate limits" >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >/dev/null
  fi
  if running "$dir"; then
    echo "redis://127.0.0.1:$(cat "$dir/port")/0"
    return
  fi
  # The port it had, if it ran here before (the same URI after a restart), else a free one.
  port=$(cat "$dir/port" 2>/dev/null \
    || python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  echo "$port" >"$dir/port"
  touch "$dir/started-here"  # `stop` removes only a directory `start` used
  redis-server --bind 127.0.0.1 --port "$port" --daemonize yes --dir "$dir" \
    --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --save '' --appendonly no >&2 \
    || { cat "$dir/redis.log" >&2; exit 1; }
  for _ in $(seq 100); do
    running "$dir" && { echo "redis://127.0.0.1:$port/0"; return; }
    sleep 0.05
  done
  echo "Redis did not start:" >&2
  cat "$dir/redis.log" >&2
  exit 1
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
