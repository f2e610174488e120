#!/usr/bin/env bash
# The Python client's checks: mypy (strict) and pytest against the shipped server (the tests start
# it with `npm start`, as users do). The client has no third-party dependency; the checks need
# mypy and pytest, from Debian's packages (PyPI is out of reach where this runs): the virtual
# environment sees them (--system-site-packages), and burrow-client itself is installed the way
# its README says, offline: pip install --no-index (its build backend is in the tree and needs
# nothing). Debian's interpreter (/usr/bin/python3), whatever else is first on PATH.
# Usage: scripts/test-python.sh [work-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d /tmp/burrow-python-XXXXXX)}
mkdir -p "$work"

packages=(python3-venv python3-pip python3-pytest python3-mypy)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

rm -rf "$work/venv"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-index ./clients/python
cd clients/python
# mypy is CPU and pytest mostly waits on the server it starts: side by side.
"$work/venv/bin/python" -m mypy --cache-dir "$work/mypy-cache" >"$work/mypy.log" 2>&1 &
mypy=$!
status=0
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider || status=$?
wait "$mypy" || status=$?
cat "$work/mypy.log"
exit "$status"
