#!/bin/bash
# Lay down the base's trees: $tree (build/tree, build/NAME/tree) holds the
# pristine base as one commit tagged 'base', then one commit per patch of the
# series (git am), fixes/ then next/, with branch 'fixes' at the last of
# fixes/ and branch 'series' at the last; $base_tree is a worktree of
# 'base'. The files tree.head and base.head next to them name the commits,
# and change only when these do: the Makefile's perf builds depend on them.
# Usage: BASE=NAME tree.sh
set -eu
. "$(dirname "$0")/lib.sh"
export GIT_AUTHOR_NAME="perf-series harness" GIT_AUTHOR_EMAIL="harness@localhost"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
subject="$BASE_PACKAGE $BASE_VERSION: tools/perf and what it builds with"

# Remember what the series was, so that unsaved.sh can tell work that
# the series folder superseded (after a git pull) from work not exported yet.
record_applied() {
	git -C "$tree" format-patch --stdout base..HEAD | git patch-id --stable |
		cut -d' ' -f1 >"$(git -C "$tree" rev-parse --git-dir)/applied-patch-ids"
}

# stamp FILE REV: FILE holds REV's commit; rewritten only if it changed.
stamp() {
	local sha
	sha=$(git -C "$tree" rev-parse "$2")
	[ "$(cat "$1" 2>/dev/null)" = "$sha" ] || echo "$sha" >"$1"
}

finish_tree() {
	record_applied
	# checkpatch.pl leaves its cache of CamelCase names in the tree
	grep -qs checkpatch-camelcase "$tree/.git/info/exclude" ||
		echo '.checkpatch-camelcase.*' >>"$tree/.git/info/exclude"
	[ -e "$base_tree/.git" ] || git -C "$tree" worktree add -q --detach "$base_tree" base
	stamp "$b/base.head" base
	stamp "$b/tree.head" HEAD
}

# A tree of another base version (e.g. from before a repin) is replaced,
# unless it holds work the series does not.
if [ -d "$tree/.git" ] && [ "$(git -C "$tree" log -1 --format=%s base)" != "$subject" ]; then
	"$top/scripts/unsaved.sh" "$tree"
	echo "tree: $tree is of another base; laying it down again"
	rm -rf "$tree" "$base_tree"
fi

if [ ! -d "$tree/.git" ]; then
	deb=$("$top/scripts/fetch-base.sh")
	tmp="$tree.tmp"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	echo "tree: extracting $BASE_PACKAGE $BASE_VERSION into $tree"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-source-*.tar.xz' >"$tmp/src.tar.xz"
	tar -xJf "$tmp/src.tar.xz" -C "$tmp" --strip-components=1 \
		--wildcards '*/tools/perf/MANIFEST'
	# tar fails on a path that two patterns match: leave out the
	# MANIFEST's paths that base-files.txt's globs cover
	globs=$(grep -v '^#' "$top/base-files.txt")
	while read -r path; do
		for glob in $globs; do
			# shellcheck disable=SC2254 # the glob is meant to match
			case "$path" in $glob) continue 2 ;; esac
		done
		echo "$path"
	done <"$tmp/tools/perf/MANIFEST" >"$tmp/manifest"
	{ cat "$tmp/manifest"; echo "$globs"; } | sed '/^$/d; s|^|*/|' | sort -u >"$tmp/paths"
	tar -xJf "$tmp/src.tar.xz" -C "$tmp" --strip-components=1 \
		--wildcards --files-from="$tmp/paths"
	rm "$tmp/src.tar.xz" "$tmp/paths" "$tmp/manifest"
	git -C "$tmp" init -q -b series
	git -C "$tmp" add -A
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$tmp" commit -q -m "$subject"
	git -C "$tmp" tag base
	rm -rf "$base_tree"
	mv "$tmp" "$tree"
	git -C "$tree" worktree prune
else
	"$top/scripts/unsaved.sh" "$tree"
	have=$(git -C "$tree" format-patch --stdout base..HEAD | git patch-id --stable | cut -d' ' -f1)
	want=$(series_files | xargs -r cat | git patch-id --stable | cut -d' ' -f1)
	if [ "$have" = "$want" ]; then
		"$top/scripts/cover.sh" "$series" "$tree"
		nfixes=$(grep -cv '^#' "$series/fixes/series" || true)
		git -C "$tree" branch -f fixes "$(git -C "$tree" rev-list --reverse base..HEAD |
			sed -n "${nfixes}p")"
		finish_tree
		echo "tree: $tree already holds the series"
		exit 0
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f -B series base
fi

"$top/scripts/cover.sh" "$series" "$tree"
for part in $parts; do
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		if ! git -C "$tree" am -q --committer-date-is-author-date "$series/$part/$p" \
			>"$tree.am.log" 2>&1; then
			echo "tree: patch ${series#"$top"/}/$part/$p does not apply to" \
				"$BASE_PACKAGE $BASE_VERSION:" >&2
			grep -E '^(error|Patch failed|patch failed)' "$tree.am.log" >&2 ||
				cat "$tree.am.log" >&2
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			exit 1
		fi
	done <"$series/$part/series"
	if [ "$part" = fixes ]; then
		git -C "$tree" branch -f fixes HEAD
	fi
done
rm -f "$tree.am.log"
finish_tree
echo "tree: $tree at $(git -C "$tree" rev-list --count base..HEAD) patch(es) on base"
