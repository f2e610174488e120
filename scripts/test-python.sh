#!/usr/bin/env bash
# The Python client's checks: mypy (strict) and pytest against a real server (the tests start one).
# PyPI is out of reach where this runs, so the dependencies are Debian's packages: the virtual
# environment sees them (--system-site-packages) and pip installs only burrow-client itself,
# offline (--no-index; setuptools from Debian, hence --no-build-isolation). Debian's interpreter
# (/usr/bin/python3), whatever else is first on PATH. Usage: scripts/test-python.sh [work-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d /tmp/burrow-python-XXXXXX)}
mkdir -p "$work"

packages=(python3-venv python3-setuptools python3-pip python3-httpx python3-websockets python3-pydantic python3-pytest mypy)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --without-pip: Debian's pip, seen through the system site packages, installs into it.
/usr/bin/python3 -m venv --system-site-packages --without-pip "$work/venv"
# A copy: building the package writes build/ and *.egg-info beside its sources.
rm -rf "$work/src" && cp -r clients/python "$work/src"
"$work/venv/bin/python" -m pip install -q --no-deps --no-build-isolation --no-index "$work/src"
cd clients/python
# mypy is CPU and pytest mostly waits on the server it starts: side by side.
"$work/venv/bin/python" -m mypy --cache-dir "$work/mypy-cache" >"$work/mypy.log" 2>&1 &
mypy=$!
status=0
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider || status=$?
wait "$mypy" || status=$?
cat "$work/mypy.log"
exit "$status"
