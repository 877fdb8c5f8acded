#!/bin/sh
# Download the pinned linux-source .deb with apt-get and check its sha256.
# Usage: fetch-base.sh DIR   (the .deb lands in DIR)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=/dev/null # variables only
. "$top/base.conf"
dir=$1
deb="$dir/${BASE_PACKAGE}_$(echo "$BASE_VERSION" | sed 's/:/%3a/')_all.deb"

mkdir -p "$dir"
if [ ! -f "$deb" ]; then
	if ! apt-cache madison "$BASE_PACKAGE" | cut -d'|' -f2 | tr -d ' ' |
		grep -qxF "$BASE_VERSION"; then
		echo "fetch: $BASE_PACKAGE $BASE_VERSION is not in the package lists." >&2
		echo "fetch: versions apt-cache policy offers:" >&2
		apt-cache policy "$BASE_PACKAGE" >&2 || true
		echo "fetch: run 'apt-get update' first, or repin: edit BASE_VERSION and" >&2
		echo "fetch: BASE_SHA256 in base.conf (see its header)." >&2
		exit 1
	fi
	(cd "$dir" && apt-get download -q "$BASE_PACKAGE=$BASE_VERSION" 2>&1 |
		grep -v 'Download is performed unsandboxed') || true
	if [ ! -f "$deb" ]; then
		echo "fetch: apt-get download $BASE_PACKAGE=$BASE_VERSION failed" >&2
		exit 1
	fi
fi
sum=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$sum" != "$BASE_SHA256" ]; then
	echo "fetch: checksum mismatch for $deb" >&2
	echo "fetch:   expected $BASE_SHA256" >&2
	echo "fetch:   got      $sum" >&2
	rm -f "$deb"
	exit 1
fi
echo "$deb"
