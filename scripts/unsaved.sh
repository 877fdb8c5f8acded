#!/bin/bash
# Refuse to go on when TREE holds work that patches/ does not: uncommitted
# changes, or commits after 'base' that no patch in patches/ carries.
# FORCE=1 overrides.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
[ "${FORCE:-0}" = 1 ] && exit 0
dirty=$(git -C "$tree" status --porcelain --untracked-files=no | wc -l)
have=$(git -C "$tree" format-patch --stdout base..HEAD | git patch-id --stable | cut -d' ' -f1 | sort)
# what patches/ holds, and what tree.sh last applied (patches/ may have
# moved on since, e.g. after a git pull)
saved=$({ cat "$top"/patches/[0-9]*.patch 2>/dev/null | git patch-id --stable | cut -d' ' -f1
	cat "$(git -C "$tree" rev-parse --git-dir)/applied-patch-ids" 2>/dev/null; } | sort)
unsaved=$(comm -23 <(echo "$have") <(echo "$saved") | grep -c . || true)
if [ "$dirty" -gt 0 ] || [ "$unsaved" -gt 0 ]; then
	echo "$tree holds work that patches/ does not: $dirty changed file(s), $unsaved commit(s) not exported." >&2
	echo "Commit it there and run 'make export' first, or run again with FORCE=1 to drop it." >&2
	exit 1
fi
