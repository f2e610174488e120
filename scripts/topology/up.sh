#!/usr/bin/env bash
# Brings up, on this machine, a pg_auto_failover monitor and two PostgreSQL 15 nodes (a primary
# and a synchronous standby) with failover timeouts lowered for a quick switch, then prints the
# multi-host URL for BURROW_POSTGRES_URL. Stop it with down.sh. Install first with install.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

command -v pg_autoctl >/dev/null || { echo "pg_autoctl is missing: run scripts/topology/install.sh as root" >&2; exit 1; }
if [ -e "$TOPOLOGY_DIR" ]; then
  echo "$TOPOLOGY_DIR exists: run scripts/topology/down.sh first" >&2
  exit 1
fi
mkdir -p "$TOPOLOGY_DIR"
[ "$(id -u)" -eq 0 ] && chown postgres: "$TOPOLOGY_DIR"

start_keeper() { # name: `pg_autoctl run` in the background, its log in $TOPOLOGY_DIR/name.log
  as_owner bash -c "nohup pg_autoctl run --pgdata '$TOPOLOGY_DIR/$1' >'$TOPOLOGY_DIR/$1.log' 2>&1 &"
}

states_are() { # the nodes' settled states, sorted and comma-separated, are exactly $1
  [ "$(monitor_psql -c "SELECT string_agg(reportedstate::text, ',' ORDER BY reportedstate::text) FROM pgautofailover.node WHERE reportedstate = goalstate")" = "$1" ]
}

wait_for() { # seconds description command...: polls until the command succeeds
  local seconds=$1 what=$2
  shift 2
  for _ in $(seq $((seconds * 4))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.25
  done
  echo "timed out after ${seconds} s waiting for $what; logs in $TOPOLOGY_DIR/*.log" >&2
  exit 1
}

as_owner pg_autoctl create monitor --pgdata "$TOPOLOGY_DIR/monitor" --pgport "$MONITOR_PORT" \
  --hostname 127.0.0.1 --auth trust --no-ssl >"$TOPOLOGY_DIR/create-monitor.log" 2>&1
start_keeper monitor
wait_for 60 "the monitor" monitor_psql -c 'SELECT 1'

# The monitor's defaults take ~30 s to give up on a lost primary (health checks every 5 s, 20 s
# before "unhealthy", 30 s for the old primary to demote itself). Lowered so that losing the
# primary promotes the standby in about 10 s. The nodes' network_partition_timeout (below) stays
# under primary_demote_timeout: a primary cut off from both monitor and standby stops taking
# writes before the standby may be promoted.
as_owner psql -X -q -h 127.0.0.1 -p "$MONITOR_PORT" -d pg_auto_failover >/dev/null <<'SQL'
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000;
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 5000;
SELECT pg_reload_conf();
SQL

monitor_uri="postgres://autoctl_node@127.0.0.1:$MONITOR_PORT/pg_auto_failover?sslmode=disable"
for index in 1 2; do
  port=${NODE_PORTS[$((index - 1))]}
  # The first node becomes the primary; the second clones it and streams from it.
  as_owner pg_autoctl create postgres --pgdata "$TOPOLOGY_DIR/node$index" --pgport "$port" --name "node$index" \
    --hostname 127.0.0.1 --listen 127.0.0.1 --dbname burrow --monitor "$monitor_uri" --auth trust --no-ssl \
    >"$TOPOLOGY_DIR/create-node$index.log" 2>&1
  as_owner pg_autoctl config set --pgdata "$TOPOLOGY_DIR/node$index" timeout.network_partition_timeout 3 >/dev/null
  start_keeper "node$index"
  if [ "$index" -eq 1 ]; then
    wait_for 60 "node1 to be the primary" states_are single
    wait_for 60 "node1 to accept connections" as_owner psql -X -q -h 127.0.0.1 -p "$port" -d burrow -c 'SELECT 1'
    # Burrow's search needs pg_trgm; an external database gets no extension from Burrow.
    as_owner psql -X -q -h 127.0.0.1 -p "$port" -d burrow -c 'CREATE EXTENSION IF NOT EXISTS pg_trgm'
  fi
done
wait_for 120 "a primary and a secondary" states_are primary,secondary

echo "pg_auto_failover monitor on 127.0.0.1:$MONITOR_PORT, nodes on 127.0.0.1:${NODE_PORTS[0]} and 127.0.0.1:${NODE_PORTS[1]} (data and logs in $TOPOLOGY_DIR)"
as_owner pg_autoctl show state --pgdata "$TOPOLOGY_DIR/monitor"
echo "synchronous_standby_names on the primary: $(as_owner psql -X -A -t -h 127.0.0.1 -p "${NODE_PORTS[0]}" -d burrow -c 'SHOW synchronous_standby_names')"
echo
echo "BURROW_POSTGRES_LIFECYCLE=external BURROW_POSTGRES_REQUIRED_MAJOR=15 \\"
echo "BURROW_POSTGRES_URL='postgresql://postgres@127.0.0.1:${NODE_PORTS[0]},127.0.0.1:${NODE_PORTS[1]}/burrow?target_session_attrs=read-write'"
