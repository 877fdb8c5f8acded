#!/bin/bash
# Lay down build/tree: the pristine base as one commit tagged 'base', then
# one commit per patch of patches/series (git am).
# Usage: tree.sh DEB TREE
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=/dev/null # variables only
. "$top/base.conf"
deb=$1
tree=$2
export GIT_AUTHOR_NAME="perf-series harness" GIT_AUTHOR_EMAIL="harness@localhost"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"

# Remember what the series was, so that unsaved.sh can tell work that
# patches/ superseded (after a git pull) from work not exported yet.
record_applied() {
	git -C "$tree" format-patch --stdout base..HEAD | git patch-id --stable |
		cut -d' ' -f1 >"$(git -C "$tree" rev-parse --git-dir)/applied-patch-ids"
}

if [ ! -d "$tree/.git" ]; then
	tmp="$tree.tmp"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	echo "tree: extracting $BASE_PACKAGE $BASE_VERSION into $tree"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-source-*.tar.xz' >"$tmp/src.tar.xz"
	tar -xJf "$tmp/src.tar.xz" -C "$tmp" --strip-components=1 \
		--wildcards '*/tools/perf/MANIFEST'
	{
		cat "$tmp/tools/perf/MANIFEST"
		grep -v '^#' "$top/base-files.txt"
	} | sed '/^$/d; s|^|*/|' >"$tmp/paths"
	tar -xJf "$tmp/src.tar.xz" -C "$tmp" --strip-components=1 \
		--wildcards --files-from="$tmp/paths"
	rm "$tmp/src.tar.xz" "$tmp/paths"
	git -C "$tmp" init -q -b series
	git -C "$tmp" add -A
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$tmp" commit -q -m "$BASE_PACKAGE $BASE_VERSION: tools/perf and what it builds with"
	git -C "$tmp" tag base
	mv "$tmp" "$tree"
else
	"$top/scripts/unsaved.sh" "$tree"
	have=$(git -C "$tree" format-patch --stdout base..HEAD | git patch-id --stable | cut -d' ' -f1)
	want=$(cd "$top/patches" && grep -v '^#' series | xargs -r cat | git patch-id --stable | cut -d' ' -f1)
	if [ "$have" = "$want" ]; then
		"$top/scripts/cover.sh" "$top/patches" "$tree"
		record_applied
		echo "tree: $tree already holds the series"
		exit 0
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f -B series base
fi

"$top/scripts/cover.sh" "$top/patches" "$tree"
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	if ! git -C "$tree" am -q --committer-date-is-author-date "$top/patches/$p" >"$tree.am.log" 2>&1; then
		echo "tree: patch $p does not apply:" >&2
		grep -E '^(error|Patch failed|patch failed)' "$tree.am.log" >&2 || cat "$tree.am.log" >&2
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		exit 1
	fi
done <"$top/patches/series"
rm -f "$tree.am.log"
record_applied
echo "tree: $tree at $(git -C "$tree" rev-list --count base..HEAD) patch(es) on base"
