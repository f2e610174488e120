# Shared by up.sh, down.sh and failover tests: where the topology lives and who runs it.
# BURROW_TOPOLOGY_DIR: its data (default /tmp/burrow-topology); BURROW_TOPOLOGY_PORT: the monitor's
# port, the nodes take the next two (default 6430, 6431, 6432).
TOPOLOGY_DIR=${BURROW_TOPOLOGY_DIR:-/tmp/burrow-topology}
BASE_PORT=${BURROW_TOPOLOGY_PORT:-6430}
MONITOR_PORT=$BASE_PORT
NODE_PORTS=($((BASE_PORT + 1)) $((BASE_PORT + 2)))
PG_BIN=${BURROW_TOPOLOGY_PG_BIN:-/usr/lib/postgresql/15/bin}
export PATH="$PG_BIN:$PATH"

# pg_autoctl keeps its configuration and state under XDG_CONFIG_HOME and XDG_DATA_HOME: inside
# the topology's directory, so down.sh removes everything and a new up.sh starts clean.
export XDG_CONFIG_HOME="$TOPOLOGY_DIR/xdg/config" XDG_DATA_HOME="$TOPOLOGY_DIR/xdg/data"

# PostgreSQL refuses root: as root, everything runs as the postgres user Debian's package made.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- env PATH="$PATH" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_DATA_HOME="$XDG_DATA_HOME" "$@"
  else
    "$@"
  fi
}

monitor_psql() {
  as_owner psql -X -q -A -t -h 127.0.0.1 -p "$MONITOR_PORT" -d pg_auto_failover -U autoctl_node "$@"
}
