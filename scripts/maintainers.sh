#!/bin/bash
# Who a posting goes to: the base's scripts/get_maintainer.pl on PATCH...,
# with the base's MAINTAINERS (both taken from its package into $b/maint,
# once). Prints "To: Name <addr>" for the maintainers, then "Cc: ..." for
# the reviewers and lists, one a line.
# Usage: BASE=NAME maintainers.sh PATCH...
set -eu
. "$(dirname "$0")/lib.sh"
maint=$b/maint
if [ ! -x "$maint/scripts/get_maintainer.pl" ] || [ ! -f "$maint/MAINTAINERS" ]; then
	deb=$("$top/scripts/fetch-base.sh")
	rm -rf "$maint"
	mkdir -p "$maint"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
		tar -xJ -C "$maint" --strip-components=1 --wildcards \
			'*/MAINTAINERS' '*/scripts/get_maintainer.pl' ||
		{ echo "maintainers: no MAINTAINERS or get_maintainer.pl in $deb" >&2; exit 1; }
fi
# from the folder of the tree's top, without its git history
opts=(--no-tree --no-git --no-git-fallback --no-rolestats)
# newer versions print a subsystem's status unless told not to
grep -q 'substatus' "$maint/scripts/get_maintainer.pl" && opts+=(--no-substatus)
gm() {
	(cd "$maint" && perl scripts/get_maintainer.pl "${opts[@]}" "$@")
}
patches=()
for p in "$@"; do
	patches+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")")
done
gm --m --no-r --no-l "${patches[@]}" | sed 's/^/To: /'
gm --no-m --r --l "${patches[@]}" | sed 's/^/Cc: /'
