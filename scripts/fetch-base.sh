#!/bin/bash
# Download the base's pinned linux-source .deb (BASE_PACKAGE, BASE_VERSION
# from its base.conf) into build/dl, check its sha256 and print its path.
# The package comes from BASE_SUITE through an apt configuration of its own
# in build/apt/SUITE (sources list, lists, cache); /etc/apt is only read, for the
# machine's mirror.
# Usage: BASE=NAME fetch-base.sh
set -eu
. "$(dirname "$0")/lib.sh"
dl=$top/build/dl
apt=$top/build/apt/$BASE_SUITE
deb="$dl/${BASE_PACKAGE}_${BASE_VERSION//:/%3a}_all.deb"

# mirrors: "URI SUITE" for each deb source of the machine (one-line and
# deb822 formats)
mirrors() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++
			if ($2 ~ /^\[/) i++; print $i, $(i + 1) }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function flush(  u, s, i, j) {
			if (types ~ /(^| )deb( |$)/ && enabled != "no") {
				split(uris, u, " "); split(suites, s, " ")
				for (i in u) for (j in s) print u[i], s[j]
			}
			types = uris = suites = enabled = ""
		}
		/^[ \t]*$/ { flush(); next }
		/^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
		/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
		/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
		/^Enabled:/ { sub(/^Enabled:[ \t]*/, ""); enabled = tolower($0) }
		END { flush() }' "$f"
	done
}

# The machine's mirror for BASE_SUITE, else the one of its own release.
mirror() {
	local codename
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	mirrors | awk -v s="$BASE_SUITE" '$2 == s { print $1; exit }' | grep . ||
		mirrors | awk -v s="$codename" '$2 == s { print $1; exit }'
}

apt_get() {
	"$1" -q -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/none" \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::State::status=/dev/null -o APT::Sandbox::User=root "${@:2}"
}

sum_ok() { [ "$(sha256sum "$deb" | cut -d' ' -f1)" = "$BASE_SHA256" ]; }

if [ -f "$deb" ] && sum_ok; then
	echo "$deb"
	exit 0
fi
mkdir -p "$dl" "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/none"
uri=$(mirror) || true
if [ -z "$uri" ]; then
	echo "fetch: no Debian mirror in /etc/apt/sources.list(.d) to fetch $BASE_SUITE from" >&2
	exit 1
fi
echo "deb $uri $BASE_SUITE main" >"$apt/sources.list"
if ! apt_get apt-get update >"$apt/update.log" 2>&1 || grep -q '^[EW]: ' "$apt/update.log"; then
	echo "fetch: apt-get update of $BASE_SUITE failed (${apt#"$top"/}/update.log):" >&2
	grep -E '^[EW]: ' "$apt/update.log" >&2 || tail -n 3 "$apt/update.log" >&2
	exit 1
fi
offered=$(apt_get apt-cache madison "$BASE_PACKAGE" | awk -F '|' '{ gsub(/ /, "", $2); print $2 }')
if ! grep -qxF "$BASE_VERSION" <<<"$offered"; then
	echo "fetch: $BASE_SUITE no longer has $BASE_PACKAGE $BASE_VERSION." >&2
	echo "fetch: it offers: ${offered:-nothing}" | tr '\n' ' ' >&2
	echo >&2
	echo "fetch: to repin, set BASE_VERSION in ${conf#"$top"/} to one of those," \
		"run 'make BASE=$base fetch' and put the sha256 it reports into BASE_SHA256." >&2
	exit 1
fi
rm -f "$deb"
if ! (cd "$dl" && apt_get apt-get download "$BASE_PACKAGE=$BASE_VERSION" >"$apt/download.log" 2>&1) ||
	[ ! -f "$deb" ]; then
	echo "fetch: apt-get download $BASE_PACKAGE=$BASE_VERSION failed (${apt#"$top"/}/download.log):" >&2
	grep -E '^[EW]: ' "$apt/download.log" >&2 || tail -n 3 "$apt/download.log" >&2
	exit 1
fi
if ! sum_ok; then
	echo "fetch: checksum mismatch for $deb" >&2
	echo "fetch:   expected $BASE_SHA256 (${conf#"$top"/})" >&2
	echo "fetch:   got      $(sha256sum "$deb" | cut -d' ' -f1)" >&2
	rm -f "$deb"
	exit 1
fi
echo "$deb"
