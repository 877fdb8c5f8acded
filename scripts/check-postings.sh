#!/bin/bash
# The postings as a submitter sends them and a distribution takes them:
# make outgoing with a stand-in AUTHOR (into $b/check-outgoing) must be
# re-authored, signed off by AUTHOR alone and checkpatch-clean, and git
# am must apply it, fixes then next, to the pristine base, giving the tree
# the series gives; so must git apply the Debian patches (make
# debian-patches), in the order of their series file.
# Usage: BASE=NAME check-postings.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=postings
need "$tree/.git"
author="Stand-in Submitter <submitter@example.org>"
out=$b/check-outgoing
work=$b/check-postings-tree
want=$(git -C "$tree" rev-parse 'series^{tree}')

if AUTHOR="$author" OUTGOING=$out "$top/scripts/outgoing.sh" >"$b/check-outgoing.log" 2>&1; then
	pass "make outgoing: $(grep -c '^PASS checkpatch' "$b/check-outgoing.log") patch(es), checkpatch-clean"
else
	fail "make outgoing failed; see $b/check-outgoing.log"
fi
if AUTHOR="" "$top/scripts/outgoing.sh" >/dev/null 2>&1; then
	fail "make outgoing without AUTHOR did not refuse"
else
	pass "make outgoing without AUTHOR refuses"
fi

# each sent patch: From: AUTHOR, one Signed-off-by, AUTHOR's
bad=0
for p in "$out"/*/0*.patch; do
	[ -e "$p" ] || continue
	case $p in */0000-cover-letter.patch) continue ;; esac
	from=$(sed -n 's/^From: //p;/^$/q' "$p")
	sobs=$(sed '/^---$/q' "$p" | grep '^Signed-off-by: ' || true)
	if [ "$from" != "$author" ] || [ "$sobs" != "Signed-off-by: $author" ]; then
		echo "    ${p#"$out"/}: From '$from', sign-offs '$(echo "$sobs" | tr '\n' ' ')'"
		bad=$((bad + 1))
	fi
done
if [ "$bad" -eq 0 ]; then
	pass "every outgoing patch is from AUTHOR and signed off by AUTHOR alone"
else
	fail "$bad outgoing patch(es) not from AUTHOR or not signed off by AUTHOR alone"
fi
for c in "$out"/*/0000-cover-letter.patch; do
	if grep -q '^To: ' "$c" && grep -q '^Subject: \[PATCH .* 0*0/[0-9]*\]' "$c"; then
		pass "${c#"$out"/}: To: and a numbered subject"
	else
		fail "${c#"$out"/}: no To: or no [PATCH ... 0/N] subject"
	fi
	# a placeholder left in the text, such as @BENCH@
	if grep -Eq '@[A-Z_]+@' "$c"; then
		fail "${c#"$out"/}: a placeholder is left: $(grep -Eo '@[A-Z_]+@' "$c" | head -1)"
	fi
done

# apply HOW FILE...: to a fresh worktree at base, in order, with 'git am'
# (mail) or 'git apply' (Debian's patches); prints the tree it gives
apply() {
	local how=$1 p
	shift
	"$top/scripts/worktree.sh" "$tree" "$work" base
	for p in "$@"; do
		if [ "$how" = am ]; then
			GIT_COMMITTER_NAME=check GIT_COMMITTER_EMAIL=check@localhost \
				git -C "$work" am -q "$p" 2>"$work.log"
		else
			git -C "$work" apply --index "$p" 2>"$work.log"
		fi || {
			echo "    ${p#"$top"/} does not apply: $(head -n 1 "$work.log")" >&2
			git -C "$work" am --abort >/dev/null 2>&1 || true
			return 1
		}
	done
	git -C "$work" write-tree
}
# the parts a submitter sends, then those kept here (6.12's next/)
sent=()
for part in $parts; do
	dir=$out/$part
	[ -f "$dir/series" ] || dir=$series/$part
	mapfile -t -O "${#sent[@]}" sent < <(sed "s|^|$dir/|" "$dir/series")
done
got=$(apply am "${sent[@]}") || got=
if [ "$got" = "$want" ]; then
	pass "git am applies the outgoing patches to the pristine base, fixes then next, as the series"
else
	fail "the outgoing patches do not give the series' tree"
fi

if "$top/scripts/debian-patches.sh" >/dev/null; then
	deb=$b/debian/patches
	mapfile -t debs < <(grep -v '^#' "$deb/series" | sed "s|^|$deb/|")
	got=$(apply apply "${debs[@]}") || got=
	if [ "$got" = "$want" ]; then
		pass "the Debian patches apply to the pristine base in their series' order, as the series"
	else
		fail "the Debian patches do not give the series' tree"
	fi
	missing=0
	for p in "${debs[@]}"; do
		grep -q '^Origin: ' "$p" && grep -q '^Forwarded: ' "$p" || missing=$((missing + 1))
	done
	if [ "$missing" -eq 0 ]; then
		pass "every Debian patch has the DEP-3 headers Origin: and Forwarded:"
	else
		fail "$missing Debian patch(es) without Origin: or Forwarded:"
	fi
else
	fail "make debian-patches failed"
fi
finish "$check"
