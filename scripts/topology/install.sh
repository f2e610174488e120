#!/usr/bin/env bash
# Installs the topology engines from Debian's packages: PostgreSQL 15, pg_auto_failover (its
# extension for the monitor and its pg_autoctl keeper), PgBouncer and HAProxy. Run as root.
set -euo pipefail
packages=(postgresql-15 postgresql-15-auto-failover pg-auto-failover-cli pgbouncer haproxy)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "already installed: ${packages[*]}"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh must run as root to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
