#!/bin/bash
# Carry the cover letter's text into TREE as the branch description, which
# 'git format-patch --cover-from-description=subject' (make export) writes back.
# Usage: cover.sh PATCHDIR TREE
set -eu
cover="$1/0000-cover-letter.patch"
tree=$2
[ -f "$cover" ] || exit 0
# The subject (a folded header may span lines) without "[PATCH 0/N] ", a
# blank line, then the body up to the shortlog ("Name (N):") that
# format-patch appends.
desc=$(awk '
	!subj && /^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); s = $0; subj = 1; next }
	subj == 1 && /^ / { s = s $0; next }
	subj == 1 { print s; print ""; subj = 2; next }
	subj == 2 && /^[^ ].* \([0-9]+\):$/ { exit }
	subj == 2 { print }
' "$cover")
git -C "$tree" config branch.series.description "$desc"
