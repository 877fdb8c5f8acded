#!/bin/sh
# Install the Debian packages in packages.txt that are missing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
pkgs=$(grep -v '^#' "$top/packages.txt")
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run 'make deps' as root, or install them with apt-get" >&2
	exit 1
fi
echo "deps: installing$missing"
apt-get update -q >/dev/null
# shellcheck disable=SC2086 # one word per package
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >"$top/build/apt.log" 2>&1; then
	echo "deps: apt-get install failed; see build/apt.log:" >&2
	grep -E '^E:' "$top/build/apt.log" >&2 || tail -5 "$top/build/apt.log" >&2
	exit 1
fi
