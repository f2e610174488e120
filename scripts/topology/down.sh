#!/usr/bin/env bash
# Stops what up.sh started (the two nodes, then the monitor) and removes its data directory.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

for name in node1 node2 monitor; do
  [ -d "$TOPOLOGY_DIR/$name" ] || continue
  as_owner pg_autoctl stop --pgdata "$TOPOLOGY_DIR/$name" --immediate >/dev/null 2>&1
  # A keeper that does not stop (or was killed, leaving its postmaster): stop that postmaster.
  for _ in $(seq 40); do
    [ -f "$TOPOLOGY_DIR/$name/postmaster.pid" ] || break
    as_owner pg_ctl stop -D "$TOPOLOGY_DIR/$name" -m immediate >/dev/null 2>&1
    sleep 0.25
  done
done
rm -rf "$TOPOLOGY_DIR"
echo "stopped and removed $TOPOLOGY_DIR"
