#!/usr/bin/env bash
# PgBouncer in transaction pooling mode in front of a PostgreSQL server, for running the tests (or
# trying Burrow) through a pooler (docs/scaling.md, "Through PgBouncer"). Debian's pgbouncer is
# installed when missing.
#   bash scripts/test-pgbouncer.sh start   -> prints the environment to use
#   bash scripts/test-pgbouncer.sh stop
# It listens on 127.0.0.1:${BURROW_PGBOUNCER_PORT:-6439} and forwards every database name to
# ${BURROW_PGBOUNCER_UPSTREAM_HOST:-127.0.0.1}:${BURROW_PGBOUNCER_UPSTREAM_PORT:-5432} (the machine's
# PostgreSQL 15, which trusts local connections), so each test database created on the server is
# reachable through the pooler under the same name. Trust authentication: a test fixture only.
# PgBouncer runs as the unprivileged user postgres (the Debian package's) when started as root.
set -euo pipefail

action=${1:-}
port=${BURROW_PGBOUNCER_PORT:-6439}
upstream_host=${BURROW_PGBOUNCER_UPSTREAM_HOST:-127.0.0.1}
upstream_port=${BURROW_PGBOUNCER_UPSTREAM_PORT:-5432}
dir=${BURROW_PGBOUNCER_DIR:-/tmp/burrow-pgbouncer-$port}
user=${BURROW_PGBOUNCER_USER:-postgres}

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    if ! command -v pgbouncer >/dev/null && [ ! -x /usr/sbin/pgbouncer ]; then
      [ "$(id -u)" = 0 ] || { echo "pgbouncer is not installed and installing it needs root: apt-get install pgbouncer" >&2; exit 1; }
      (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y pgbouncer) >&2
    fi
    # The package starts its own instance on 6432; this one is separate and leaves it alone.
    bouncer=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown "$user": "$dir"
    chmod 700 "$dir"
    as_owner tee "$dir/userlist.txt" >/dev/null <<USERS
"postgres" ""
USERS
    # pool_mode = transaction is the point; default_pool_size is per (database, user) pair, kept
    # small so the tests share few server connections, as a production pooler does.
    as_owner tee "$dir/pgbouncer.ini" >/dev/null <<INI
[databases]
* = host=$upstream_host port=$upstream_port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir = $dir
auth_type = trust
auth_file = $dir/userlist.txt
admin_users = postgres
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 10
max_db_connections = 40
server_reset_query =
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
    if [ -f "$dir/pgbouncer.pid" ] && kill -0 "$(cat "$dir/pgbouncer.pid")" 2>/dev/null; then :; else
      as_owner "$bouncer" -d "$dir/pgbouncer.ini"
    fi
    for _ in $(seq 1 50); do
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
      sleep 0.1
    done
    echo "BURROW_TEST_DATABASE_URL=postgres://postgres@$upstream_host:$upstream_port/postgres"
    echo "BURROW_TEST_POOLER_URL=postgres://postgres@127.0.0.1:$port/postgres"
    echo "BURROW_TEST_REQUIRED_MAJOR=15"
    ;;
  stop)
    if [ -f "$dir/pgbouncer.pid" ]; then
      pid=$(cat "$dir/pgbouncer.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
