#!/usr/bin/env bash
# HAProxy in front of several `burrow serve` instances on one PostgreSQL (docs/scaling.md, "Behind
# HAProxy"). Debian's haproxy (apt-get install haproxy), run unprivileged on ports of your choice:
#
#   BURROW_HAPROXY_BACKENDS="127.0.0.1:4001 127.0.0.1:4002 127.0.0.1:4003" \
#     bash scripts/topology/haproxy.sh start     -> writes $dir/haproxy.cfg, starts HAProxy, prints
#                                                   the front URL (http://127.0.0.1:$port/graphql)
#   bash scripts/topology/haproxy.sh config     -> prints the configuration it would write
#   bash scripts/topology/haproxy.sh stop
#
# Settings (environment): BURROW_HAPROXY_BACKENDS (host:port of each instance, space separated;
# start and config), BURROW_HAPROXY_PORT (the front, default 8480), BURROW_HAPROXY_STATS_PORT
# (the statistics page, /stats and /stats;csv, default 8481), BURROW_HAPROXY_DIR (configuration,
# pid file; default /tmp/burrow-haproxy-$port). As root it runs as the user nobody: HAProxy needs
# no privilege for ports above 1024.
set -euo pipefail

action=${1:-}
port=${BURROW_HAPROXY_PORT:-8480}
stats_port=${BURROW_HAPROXY_STATS_PORT:-8481}
dir=${BURROW_HAPROXY_DIR:-/tmp/burrow-haproxy-$port}
backends=${BURROW_HAPROXY_BACKENDS:-}

as_runner() {
  if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}

config() {
  if [ -z "$backends" ]; then
    echo "BURROW_HAPROXY_BACKENDS is empty: name each instance as host:port, space separated" >&2
    exit 2
  fi
  cat <<EOF
# Written by scripts/topology/haproxy.sh.
global
  maxconn 4096
  pidfile $dir/haproxy.pid

defaults
  mode http
  # The instance is gone or refuses: try again, on another instance (redispatch). Only failures to
  # connect are retried here, since the request never reached Burrow; a write whose connection broke
  # after it was sent is the client's to retry.
  retries 3
  option redispatch 1
  retry-on conn-failure
  timeout connect 1s
  timeout queue 5s
  timeout http-request 10s
  timeout client 60s
  timeout server 60s
  # Below Burrow's keep-alive (65 s), so HAProxy, not Burrow, closes an idle connection.
  timeout http-keep-alive 55s
  # A WebSocket (graphql-ws) is a tunnel once upgraded: idle subscribers stay open this long.
  timeout tunnel 1h
  timeout client-fin 5s
  timeout check 2s

frontend burrow
  bind 127.0.0.1:$port
  default_backend burrow

backend burrow
  balance roundrobin
  # Ready means: the database answers, migrations match, LISTEN is up, not shutting down.
  option httpchk
  http-check send meth GET uri /health/ready ver HTTP/1.1 hdr host burrow
  http-check expect status 200
  # A check a second; once one fails, every 250 ms: two failures take an instance out, three
  # successes put it back.
  default-server check inter 1s fastinter 250ms downinter 1s fall 2 rise 3
  # Which instance answered (also on a WebSocket's 101): for logs and the topology test.
  http-response set-header X-Burrow-Backend %[srv_name]
EOF
  local i=0
  for backend in $backends; do
    i=$((i + 1))
    echo "  server burrow$i $backend"
  done
  cat <<EOF

listen stats
  bind 127.0.0.1:$stats_port
  stats enable
  stats uri /stats
EOF
}

case "$action" in
  config)
    config
    ;;
  start)
    command -v haproxy >/dev/null || { echo "haproxy is not installed: apt-get install -y haproxy" >&2; exit 1; }
    mkdir -p "$dir"
    config >"$dir/haproxy.cfg"
    [ "$(id -u)" = 0 ] && chown nobody "$dir"
    as_runner haproxy -c -q -f "$dir/haproxy.cfg"
    as_runner haproxy -D -f "$dir/haproxy.cfg"
    echo "http://127.0.0.1:$port/graphql"
    ;;
  stop)
    if [ -f "$dir/haproxy.pid" ]; then
      pid=$(cat "$dir/haproxy.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$dir/haproxy.pid"
    fi
    ;;
  *)
    echo "usage: $0 start|config|stop" >&2
    exit 2
    ;;
esac
