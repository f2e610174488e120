#!/usr/bin/env bash
# The whole production topology on one machine, for trying it (docs/scaling.md, "The whole
# topology on one machine"):
#
#   clients -> HAProxy -> 3 Burrow instances -> PgBouncer x2 -> pg_auto_failover primary + standby
#                                            \-> direct to the nodes (LISTEN, owner locks, migrations)
#                                            \-> both nodes as read replicas (the primary is skipped)
#
#   bash scripts/topology/stack.sh up       -> installs what is missing (as root), starts it all,
#                                              prints the URL (HAProxy's /graphql) and an operator token
#   bash scripts/topology/stack.sh status   -> each piece and whether it runs
#   bash scripts/topology/stack.sh down     -> stops everything in reverse order, removes the directory
#
# It reuses the pieces' own scripts: install.sh, up.sh/down.sh (the monitor and two PostgreSQL 15
# nodes), scripts/test-pgbouncer.sh (one transaction-mode PgBouncer in front of each node) and
# haproxy.sh. Settings (environment): BURROW_STACK_DIR (everything: data, logs, pid files; default
# /tmp/burrow-stack) and BURROW_STACK_PORT (default 7400): the monitor takes it, the nodes the next
# two, then the two PgBouncers, the three instances, HAProxy and its statistics page (7400-7409).
# Burrow runs as the user who runs this (root included: only PostgreSQL refuses root, and it runs
# as the user postgres); the instances are the built server (`burrow serve` rebuilds dist/ first
# when a source is newer).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

action=${1:-}
dir=${BURROW_STACK_DIR:-/tmp/burrow-stack}
base=${BURROW_STACK_PORT:-7400}
node_ports=($((base + 1)) $((base + 2)))
bouncer_ports=($((base + 3)) $((base + 4)))
burrow_ports=($((base + 5)) $((base + 6)) $((base + 7)))
haproxy_port=$((base + 8))
stats_port=$((base + 9))

# What up.sh/down.sh and the other scripts read: their directories inside this one.
export BURROW_TOPOLOGY_DIR="$dir/postgres" BURROW_TOPOLOGY_PORT=$base
export BURROW_HAPROXY_DIR="$dir/haproxy" BURROW_HAPROXY_PORT=$haproxy_port BURROW_HAPROXY_STATS_PORT=$stats_port
export BURROW_HAPROXY_BACKENDS="127.0.0.1:${burrow_ports[0]} 127.0.0.1:${burrow_ports[1]} 127.0.0.1:${burrow_ports[2]}"

pooled_url="postgresql://postgres@127.0.0.1:${bouncer_ports[0]},127.0.0.1:${bouncer_ports[1]}/burrow?target_session_attrs=read-write"
direct_url="postgresql://postgres@127.0.0.1:${node_ports[0]},127.0.0.1:${node_ports[1]}/burrow?target_session_attrs=read-write"
replica_urls="postgresql://postgres@127.0.0.1:${node_ports[0]}/burrow,postgresql://postgres@127.0.0.1:${node_ports[1]}/burrow"

# Every instance's environment. The PgBouncers front the nodes, so the pooled URL names both and
# only the primary's pooler reaches a read-write server; the direct URL names the nodes the same way.
burrow_vars=(
  BURROW_HOST=127.0.0.1 BURROW_POSTGRES_LIFECYCLE=external BURROW_POSTGRES_REQUIRED_MAJOR=15
  "BURROW_POSTGRES_URL=$pooled_url" "BURROW_POSTGRES_DIRECT_URL=$direct_url" "BURROW_POSTGRES_REPLICA_URLS=$replica_urls"
)

bouncer() { # index start|stop
  BURROW_PGBOUNCER_PORT=${bouncer_ports[$1]} BURROW_PGBOUNCER_UPSTREAM_PORT=${node_ports[$1]} \
    BURROW_PGBOUNCER_DIR="$dir/pgbouncer$(($1 + 1))" bash "$root/scripts/test-pgbouncer.sh" "$2" >/dev/null
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

ready() { # port: /health/ready answers 200
  curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$1/health/ready" 2>/dev/null
}

up() {
  if [ -e "$dir" ]; then
    echo "$dir exists: run \`bash scripts/topology/stack.sh down\` first" >&2
    exit 1
  fi
  bash "$here/install.sh" >/dev/null
  mkdir -p "$dir"
  chmod 755 "$dir"
  echo "PostgreSQL: the pg_auto_failover monitor on $base, nodes on ${node_ports[0]} and ${node_ports[1]}"
  bash "$here/up.sh" >"$dir/up.log" 2>&1 || { cat "$dir/up.log" >&2; exit 1; }
  for i in 0 1; do
    bouncer "$i" start
    echo "PgBouncer (transaction mode) on ${bouncer_ports[$i]} -> node $((i + 1)) on ${node_ports[$i]}"
  done

  # Built once, migrated once, an operator token made once; then the three start together.
  (cd "$root" && env "${burrow_vars[@]}" node scripts/burrow.mjs migrate) >"$dir/migrate.log" 2>&1 || { cat "$dir/migrate.log" >&2; exit 1; }
  (cd "$root" && env "${burrow_vars[@]}" node scripts/burrow.mjs token create --operator --name stack-operator) >"$dir/operator-token" 2>"$dir/token.log" ||
    { cat "$dir/token.log" >&2; exit 1; }
  chmod 600 "$dir/operator-token"
  for i in 0 1 2; do
    port=${burrow_ports[$i]}
    # env execs node: the pid is the server's own, for down's SIGTERM.
    (
      cd "$root"
      env "${burrow_vars[@]}" BURROW_PORT="$port" nohup node scripts/burrow.mjs serve >"$dir/burrow$((i + 1)).log" 2>&1 &
      echo $! >"$dir/burrow$((i + 1)).pid"
    )
  done
  for i in 0 1 2; do
    port=${burrow_ports[$i]}
    for _ in $(seq 240); do
      ready "$port" && break
      alive "$dir/burrow$((i + 1)).pid" || { echo "Burrow instance $((i + 1)) exited:" >&2; cat "$dir/burrow$((i + 1)).log" >&2; exit 1; }
      sleep 0.25
    done
    ready "$port" || { echo "Burrow instance $((i + 1)) is not ready after 60 s; log: $dir/burrow$((i + 1)).log" >&2; exit 1; }
    echo "Burrow instance $((i + 1)) on $port (pid $(cat "$dir/burrow$((i + 1)).pid"), log $dir/burrow$((i + 1)).log)"
  done

  url=$(bash "$here/haproxy.sh" start)
  echo "HAProxy on $haproxy_port (statistics: http://127.0.0.1:$stats_port/stats)"
  echo
  echo "URL: $url"
  echo "operator token: $(cat "$dir/operator-token")"
  echo "logs and pid files: $dir; stop it all with: bash scripts/topology/stack.sh down"
}

down() {
  bash "$here/haproxy.sh" stop || true
  for i in 3 2 1; do
    pidfile="$dir/burrow$i.pid"
    alive "$pidfile" || continue
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true
    # A graceful stop drains requests first (BURROW_SHUTDOWN_GRACE_S); past 30 s it is killed.
    for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  bouncer 1 stop || true
  bouncer 0 stop || true
  bash "$here/down.sh" >/dev/null || true
  rm -rf "$dir"
  echo "stopped the topology and removed $dir"
}

status() {
  [ -d "$dir" ] || { echo "not running ($dir does not exist)"; exit 1; }
  local failed=0
  echo "PostgreSQL (pg_auto_failover):"
  # shellcheck source=common.sh
  (. "$here/common.sh" && as_owner pg_autoctl show state --pgdata "$TOPOLOGY_DIR/monitor") || failed=1
  for i in 0 1; do
    if alive "$dir/pgbouncer$((i + 1))/pgbouncer.pid"; then state=running; else state=stopped; failed=1; fi
    echo "PgBouncer $((i + 1)) on ${bouncer_ports[$i]} -> ${node_ports[$i]}: $state"
  done
  for i in 0 1 2; do
    if ready "${burrow_ports[$i]}"; then state=ready; elif alive "$dir/burrow$((i + 1)).pid"; then state="running, not ready"; failed=1; else state=stopped; failed=1; fi
    echo "Burrow instance $((i + 1)) on ${burrow_ports[$i]}: $state"
  done
  if alive "$dir/haproxy/haproxy.pid"; then
    echo "HAProxy on $haproxy_port: running; URL http://127.0.0.1:$haproxy_port/graphql"
  else
    echo "HAProxy on $haproxy_port: stopped"
    failed=1
  fi
  return $failed
}

case "$action" in
  up) up ;;
  down) down ;;
  status) status ;;
  *)
    echo "usage: $0 up|down|status" >&2
    exit 2
    ;;
esac
