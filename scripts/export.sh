#!/bin/bash
# Regenerate the base's series folder (patches/, backports/NAME/: format-patch
# files, cover letter, series) from the commits after 'base' in its tree.
# Usage: BASE=NAME export.sh
set -eu
. "$(dirname "$0")/lib.sh"
out=$series

if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
	echo "export: $tree has uncommitted changes; commit them (git commit -s) first" >&2
	exit 1
fi
n=$(git -C "$tree" rev-list --count base..HEAD)
if [ "$n" -eq 0 ]; then
	echo "export: no commits after base in $tree" >&2
	exit 1
fi
rm -f "$out"/*.patch "$out/series"
# Fixed dates, no signature, and the cover letter from the author of the
# first patch: the same commits give the same files on any machine.
first=$(git -C "$tree" rev-list --reverse base..HEAD | head -n 1)
GIT_COMMITTER_NAME=$(git -C "$tree" log -1 --format=%an "$first") \
GIT_COMMITTER_EMAIL=$(git -C "$tree" log -1 --format=%ae "$first") \
GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git -C "$tree" format-patch -q --zero-commit --signature=perf-series \
	--subject-prefix="${BASE_SUBJECT_PREFIX:-PATCH}" \
	--cover-letter --cover-from-description=subject \
	-o "$out" base..HEAD
for p in "$out"/[0-9]*.patch; do
	case "$p" in */0000-cover-letter.patch) ;; *) basename "$p" ;; esac
done >"$out/series"
echo "export: $n patch(es) and a cover letter in ${out#"$top"/}/"
