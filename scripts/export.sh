#!/bin/bash
# Regenerate the base's two postings from the commits after 'base' in its
# tree: fixes/ from base..fixes, next/ from fixes..series. Each gets
# format-patch files, a cover letter from its branch's description (see
# cover.sh), To/Cc from the base's get_maintainer.pl, and a series file.
# Usage: BASE=NAME export.sh
set -eu
. "$(dirname "$0")/lib.sh"

if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
	echo "export: $tree has uncommitted changes; commit them (git commit -s) first" >&2
	exit 1
fi
if ! git -C "$tree" merge-base --is-ancestor fixes series 2>/dev/null ||
	! git -C "$tree" merge-base --is-ancestor base fixes; then
	echo "export: $tree needs branch 'fixes' between base and series, at the last" \
		"fix (rebase with --update-refs keeps it there)" >&2
	exit 1
fi
# Fixed dates, no signature, and the cover letter from the author of the
# first patch: the same commits give the same files on any machine.
first=$(git -C "$tree" rev-list --reverse base..series | head -n 1)
export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
GIT_COMMITTER_NAME=$(git -C "$tree" log -1 --format=%an "$first")
GIT_COMMITTER_EMAIL=$(git -C "$tree" log -1 --format=%ae "$first")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for part in $parts; do
	case $part in
	fixes) range=base..fixes prefix=$BASE_FIXES_PREFIX to=${BASE_FIXES_TO:-} ;;
	next) range=fixes..series prefix=$BASE_NEXT_PREFIX to=${BASE_NEXT_TO:-} ;;
	esac
	out=$series/$part
	n=$(git -C "$tree" rev-list --count "$range")
	if [ "$n" -eq 0 ]; then
		echo "export: no commits in $range of $tree" >&2
		exit 1
	fi
	# To: the maintainers, or the base's own address for the part (stable@);
	# Cc: the rest. "none": a part that is not mailed (a distribution's).
	addr=()
	if [ "$to" != none ]; then
		rm -f "$tmp"/*.patch
		git -C "$tree" format-patch -q -o "$tmp" "$range"
		while read -r field who; do
			if [ -n "$to" ] && [ "$field" = To: ]; then
				field=Cc:
			fi
			case $field in
			To:) addr+=("--to=$who") ;;
			Cc:) addr+=("--cc=$who") ;;
			esac
		done < <("$top/scripts/maintainers.sh" "$tmp"/*.patch)
		[ -z "$to" ] || addr=("--to=$to" "${addr[@]}")
	fi
	mkdir -p "$out"
	rm -f "$out"/*.patch "$out/series"
	git -C "$tree" format-patch -q --zero-commit --signature=perf-series \
		--subject-prefix="$prefix" --cover-letter --cover-from-description=subject \
		"${addr[@]}" -o "$out" "$range"
	for p in "$out"/[0-9]*.patch; do
		case "$p" in */0000-cover-letter.patch) ;; *) basename "$p" ;; esac
	done >"$out/series"
	echo "export: $n patch(es) and a cover letter in ${out#"$top"/}/"
done
