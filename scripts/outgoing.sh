#!/bin/bash
# Write the base's postings, ready for git send-email, into $b/outgoing/:
# fixes/ and next/, each the series' patches re-authored by AUTHOR and
# signed off by AUTHOR (the Developer's Certificate of Origin needs a
# person; the team's own sign-off goes), with the posting's cover letter
# and To/Cc. A part its base.conf does not mail (BASE_NEXT_TO=none: the
# 6.12 distribution patches) is left out. Then checkpatch on the result.
# Usage: BASE=NAME AUTHOR="Name <email>" [OUTGOING=DIR] outgoing.sh
set -eu
. "$(dirname "$0")/lib.sh"
author=${AUTHOR:-}
if ! [[ "$author" =~ ^([^\<\>@]*[^\<\>@\ ])\ \<([^\<\>@\ ]+@[^\<\>@\ ]+)\>$ ]]; then
	echo "outgoing: give AUTHOR=\"Your Name <you@example.org>\" (got '${author}')." >&2
	echo "The patches carry the team's identity, and the Developer's Certificate of" >&2
	echo "Origin needs a person: each patch goes out authored and signed off by AUTHOR." >&2
	exit 2
fi
need "$tree/.git"
out=${OUTGOING:-$b/outgoing}
work=$b/outgoing-tree
export GIT_AUTHOR_NAME="${BASH_REMATCH[1]}" GIT_AUTHOR_EMAIL="${BASH_REMATCH[2]}"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
team=$(sed -n 's/^From: //p;/^$/q' "$series/fixes/0001-"*.patch)
rm -rf "$out"
mkdir -p "$out"
"$top/scripts/worktree.sh" "$tree" "$work" base
for part in $parts; do
	case $part in
	fixes) prefix=$BASE_FIXES_PREFIX to=${BASE_FIXES_TO:-} ;;
	next) prefix=$BASE_NEXT_PREFIX to=${BASE_NEXT_TO:-} ;;
	esac
	from=$(git -C "$work" rev-parse HEAD)
	# the team's From: and Signed-off-by: out, AUTHOR's in (git am -s)
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		awk -v team="$team" -v author="$author" '
			!body && $0 == "From: " team { print "From: " author; next }
			!body && /^$/ { body = 1 }
			body && !diff && $0 == "Signed-off-by: " team { next }
			/^---$/ { diff = 1 }
			{ print }' "$series/$part/$p" >"$work.patch"
		if ! git -C "$work" am -q -s "$work.patch"; then
			git -C "$work" am --abort
			echo "outgoing: ${series#"$top"/}/$part/$p does not apply" >&2
			exit 1
		fi
	done <"$series/$part/series"
	rm -f "$work.patch"
	if [ "$to" = none ]; then
		echo "outgoing: $part/ is not mailed (BASE_NEXT_TO=none)"
		continue
	fi
	# the exported cover letter's To/Cc, subject and text
	addr=()
	while read -r field who; do
		case $field in
		To:) addr+=("--to=$who") ;;
		Cc:) addr+=("--cc=$who") ;;
		esac
	done < <(awk '/^$/ { exit } /^[A-Za-z-]+: / { f = "" }
		/^(To|Cc): / { f = $1; sub(/^(To|Cc): /, "") } /^ / { sub(/^ +/, "") }
		f { sub(/,$/, ""); print f, $0 }' "$series/$part/0000-cover-letter.patch")
	# a branch of its own, whose description format-patch takes for the
	# cover letter: the tree's ('fixes', 'series') are checked out there
	branch=outgoing-$part
	git -C "$work" branch -f "$branch" HEAD
	desc=series
	[ "$part" = next ] || desc=fixes
	git -C "$work" config "branch.$branch.description" \
		"$(git -C "$tree" config "branch.$desc.description")"
	git -C "$work" format-patch -q --subject-prefix="$prefix" --cover-letter \
		--cover-from-description=subject "${addr[@]}" -o "$out/$part" "$from..$branch"
	for p in "$out/$part"/[0-9]*.patch; do
		case "$p" in */0000-cover-letter.patch) ;; *) basename "$p" ;; esac
	done >"$out/$part/series"
	echo "outgoing: $(wc -l <"$out/$part/series") patch(es) and a cover letter in ${out#"$top"/}/$part/"
done
"$top/scripts/checkpatch.sh" "$out"
