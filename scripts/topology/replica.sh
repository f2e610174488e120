#!/usr/bin/env bash
# A PostgreSQL 15 primary and one hot standby streaming from it (pg_basebackup -R), for trying
# and testing read replicas (docs/scaling.md, "Read replicas"). Debian's PostgreSQL 15 binaries,
# run as the unprivileged user postgres when started as root; trust authentication on 127.0.0.1:
# a test fixture only.
#   bash scripts/topology/replica.sh start    -> prints the primary's and the standby's URLs
#   bash scripts/topology/replica.sh stop
#   bash scripts/topology/replica.sh kill-replica   (immediate stop of the standby)
# Ports: ${BURROW_TOPOLOGY_PORT:-6440} (primary) and the next one (standby).
set -euo pipefail

action=${1:-}
port=${BURROW_TOPOLOGY_PORT:-6440}
replica_port=$((port + 1))
dir=${BURROW_TOPOLOGY_DIR:-/tmp/burrow-topology-$port}
bin=${BURROW_TOPOLOGY_BIN:-/usr/lib/postgresql/15/bin}
user=${BURROW_TOPOLOGY_USER:-postgres}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}
running() {
  [ -f "$1/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$1" status >/dev/null 2>&1
}
server_opts() {
  echo "-c listen_addresses=127.0.0.1 -p $1 -k $dir -c max_connections=100 -c fsync=off -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on -c hot_standby_feedback=on"
}

case "$action" in
  start)
    [ -x "$bin/postgres" ] || { echo "no PostgreSQL binaries in $bin (apt-get install postgresql-15)" >&2; exit 1; }
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown "$user": "$dir"
    chmod 700 "$dir"
    if [ ! -f "$dir/primary/PG_VERSION" ]; then
      # initdb's default pg_hba.conf trusts replication connections from 127.0.0.1 with --auth=trust.
      as_owner "$bin/initdb" -D "$dir/primary" -U postgres --auth=trust --encoding=UTF8 --no-locale --no-instructions >"$dir/initdb.log"
    fi
    running "$dir/primary" || as_owner "$bin/pg_ctl" -D "$dir/primary" -l "$dir/primary.log" -w -t 60 -o "$(server_opts "$port")" start >/dev/null
    if [ ! -f "$dir/replica/PG_VERSION" ]; then
      # -R writes standby.signal and primary_conninfo: the copy starts as a streaming standby.
      as_owner "$bin/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$dir/replica" -R -X stream -c fast >"$dir/basebackup.log" 2>&1
    fi
    running "$dir/replica" || as_owner "$bin/pg_ctl" -D "$dir/replica" -l "$dir/replica.log" -w -t 60 -o "$(server_opts "$replica_port")" start >/dev/null
    echo "BURROW_TOPOLOGY_PRIMARY_URL=postgres://postgres@127.0.0.1:$port/postgres"
    echo "BURROW_TOPOLOGY_REPLICA_URL=postgres://postgres@127.0.0.1:$replica_port/postgres"
    ;;
  kill-replica)
    if [ -f "$dir/replica/postmaster.pid" ]; then as_owner "$bin/pg_ctl" -D "$dir/replica" -m immediate -w stop >/dev/null || true; fi
    ;;
  stop)
    for node in replica primary; do
      if [ -f "$dir/$node/postmaster.pid" ]; then as_owner "$bin/pg_ctl" -D "$dir/$node" -m fast -w stop >/dev/null || true; fi
    done
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop|kill-replica" >&2
    exit 2
    ;;
esac
