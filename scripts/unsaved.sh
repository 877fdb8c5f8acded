#!/bin/bash
# Refuse to go on when TREE holds work that the base's series folder does
# not: uncommitted changes, or commits after 'base' that no patch there
# carries. FORCE=1 overrides.
# Usage: BASE=NAME unsaved.sh TREE
set -eu
. "$(dirname "$0")/lib.sh"
tree=$1
[ "${FORCE:-0}" = 1 ] && exit 0
dirty=$(git -C "$tree" status --porcelain --untracked-files=no | wc -l)
have=$(git -C "$tree" format-patch --stdout base..HEAD | git patch-id --stable | cut -d' ' -f1 | sort)
# what the series folder holds, and what tree.sh last applied (the folder
# may have moved on since, e.g. after a git pull)
saved=$({ series_files | xargs -r cat | git patch-id --stable | cut -d' ' -f1
	cat "$(git -C "$tree" rev-parse --git-dir)/applied-patch-ids" 2>/dev/null; } | sort)
unsaved=$(comm -23 <(echo "$have") <(echo "$saved") | grep -c . || true)
if [ "$dirty" -gt 0 ] || [ "$unsaved" -gt 0 ]; then
	echo "$tree holds work that ${series#"$top"/} does not: $dirty changed file(s), $unsaved commit(s) not exported." >&2
	echo "Commit it there and run 'make BASE=$base export' first, or run again with FORCE=1 to drop it." >&2
	exit 1
fi
