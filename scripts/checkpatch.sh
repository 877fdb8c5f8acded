#!/bin/bash
# Run the base tree's checkpatch.pl --strict on every patch of both postings.
# A finding passes only if checkpatch-exceptions.txt lists its type for
# that patch (PART/FILE, e.g. next/0011-...), with a reason.
# DIR, if given, holds the postings instead of the base's series folder
# (make outgoing's).
# Usage: BASE=NAME checkpatch.sh [DIR]
set -eu
. "$(dirname "$0")/lib.sh"
check=checkpatch
[ $# -eq 0 ] || series=$(cd "$1" && pwd)
need "$tree/scripts/checkpatch.pl"
exceptions="$top/checkpatch-exceptions.txt"
while read -r path; do
	p=${path#"$series"/}
	ignore=
	while read -r glob type _; do
		case "$glob" in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2254 # the glob is meant to match
		case "$p" in $glob) ignore="$ignore${ignore:+,}$type" ;; esac
	done <"$exceptions"
	# From the tree, where git does not track the patch: checkpatch takes
	# a file git tracks for a source file, not a patch.
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree --no-summary \
		--terse --show-types ${ignore:+--ignore "$ignore"} "$path" 2>&1); then
		pass "checkpatch $p${ignore:+ (accepted: $ignore)}"
	else
		fail "checkpatch $p"
		echo "$out" | grep -v '^fatal: ' | sed 's/^/    /'
	fi
done < <(series_files)
finish "$check"
