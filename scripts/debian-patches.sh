#!/bin/bash
# Write the base's series as a distribution patch set, in the layout of
# Debian's debian/patches/: $b/debian/patches/ with a series file, the
# fixes under bugfix/all/ and the rest under features/all/perf-exec/, each
# patch with DEP-3 headers (Origin:, Forwarded:, Last-Update:). Forwarded:
# is "no" until the postings are sent: FORWARDED_FIXES and FORWARDED_NEXT
# give their URLs. With AUTHOR, the patches are AUTHOR's (From: and
# Signed-off-by:), as make outgoing's are; without, the team's.
# Usage: BASE=NAME [AUTHOR="Name <email>"] [FORWARDED_FIXES=URL]
#        [FORWARDED_NEXT=URL] debian-patches.sh
set -eu
. "$(dirname "$0")/lib.sh"
out=$b/debian/patches
rm -rf "$b/debian"
mkdir -p "$out"
updated=$(date -u +%Y-%m-%d)
team=$(sed -n 's/^From: //p;/^$/q' "$series/fixes/0001-"*.patch)
{
	echo "# perf: a new address space on exec, and the fixes it builds on;"
	echo "# $BASE_PACKAGE $BASE_VERSION"
} >"$out/series"
for part in $parts; do
	# the upstream posting: the default base's cover letter
	cover=$top/patches/$part/0000-cover-letter.patch
	posting=$(awk '/^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); s = $0; f = 1; next }
		f && /^ / { s = s $0; next } f { print s; exit }' "$cover")
	case $part in
	fixes) dir=bugfix/all forwarded=${FORWARDED_FIXES:-no} list=perf-tools ;;
	next) dir=features/all/perf-exec forwarded=${FORWARDED_NEXT:-no} list=perf-tools-next ;;
	esac
	# not upstream yet: the posting, sent (its URL) or not
	origin="vendor, $forwarded"
	[ "$forwarded" != no ] || origin="vendor, for the $list posting \"$posting\" (not yet sent)"
	mkdir -p "$out/$dir"
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		name=${p#[0-9][0-9][0-9][0-9]-}
		# the mail headers DEP-3 reads (From, Date, Subject without its
		# [PATCH n/m]), then its own, then the message and the diff
		awk -v origin="$origin" -v fwd="$forwarded" -v upd="$updated" \
			-v team="$team" -v author="${AUTHOR:-}" '
			NR == 1 && /^From [0-9a-f]+ / { next }
			!body && /^Subject: / { sub(/\[[^]]*\] /, ""); h = "s"; subj = $0; next }
			!body && /^[ \t]/ { if (h == "s") subj = subj $0; next }
			!body && author != "" && $0 == "From: " team { h = ""; print "From: " author; next }
			!body && /^(From|Date): / { h = ""; print; next }
			!body && /^[A-Za-z-]+: / { h = ""; next }
			!body && /^$/ { body = 1; print subj; print "Origin: " origin
				print "Forwarded: " fwd; print "Last-Update: " upd; print; next }
			body && author != "" && $0 == "Signed-off-by: " team { print "Signed-off-by: " author; next }
			/^-- $/ { exit }
			{ print }' "$series/$part/$p" >"$out/$dir/$name"
		echo "$dir/$name" >>"$out/series"
	done <"$series/$part/series"
done
echo "debian-patches: $(grep -vc '^#' "$out/series") patches and a series file in ${out#"$top"/}/"
