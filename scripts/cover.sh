#!/bin/bash
# Carry each posting's cover letter into TREE as a branch description, which
# 'git format-patch --cover-from-description=subject' (make export) writes
# back: fixes/ into branch 'fixes', next/ into branch 'series'.
# Usage: cover.sh PATCHDIR TREE
set -eu
tree=$2
for part in fixes next; do
	cover="$1/$part/0000-cover-letter.patch"
	[ -f "$cover" ] || continue
	branch=series
	[ "$part" = next ] || branch=fixes
	# The subject (a folded header may span lines) without "[PATCH 0/N] ", a
	# blank line, then the body up to the shortlog ("Name (N):") that
	# format-patch appends; the other headers (To:, Cc:) are export's.
	desc=$(awk '
		hdr == 0 && /^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); s = $0; h = "s"; next }
		hdr == 0 && /^[ \t]/ { if (h == "s") s = s $0; next }
		hdr == 0 && /^[A-Za-z-]+: / { h = ""; next }
		hdr == 0 && /^$/ { hdr = 1; print s; print ""; next }
		hdr == 1 && /^[^ ].* \([0-9]+\):$/ { exit }
		hdr == 1 { print }
		' "$cover")
	git -C "$tree" config "branch.$branch.description" "$desc"
done
