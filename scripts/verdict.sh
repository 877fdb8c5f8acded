#!/bin/bash
# Compare the maps perf shows per task with the expected ("truth") maps.
#
# Usage: verdict.sh [-s] LABEL TRUTH REPORT
#
#   -s      compare the p/s column (private/shared) too, not only rwx
#   TRUTH   lines "task PID KIND COMM" (KIND: synth-fork, exec or plain) and
#           "map PID START END PROT NAME" (hex START/END, END exclusive,
#           PROT like r-xp); blank lines and #-comments are ignored.
#           Written by tools/gen-trace.c or from /proc/PID/maps.
#   REPORT  the output of "perf report -i FILE --tasks --mmaps": task lines
#           "pid tid ppid |comm", each followed by its map lines
#           "start-end prot pgoff ino name".
#
# For each task of TRUTH, maps are matched by (start, end, name) and counted:
#   overlapping  pairs of printed maps of the task whose ranges overlap
#   inherited    printed maps not in the truth, for a synth-fork task
#   leftover     printed maps not in the truth, for an exec task
#   extra        printed maps not in the truth, for a plain task
#   missing      truth maps not printed
#   prot         matched maps whose printed protection (rwx only; with -s,
#                rwx and p/s) differs; cross-endian reading is known to lose
#                it, so it is counted apart and not as a mismatch
# Prints a line per problem of a task (with a few of the maps), then
#   LABEL: overlapping N, inherited N, leftover N, missing N, extra N, prot N: OK|WRONG
# OK when all counts are zero.  Exits 0 either way; 2 on bad usage or input.
set -eu

prog=verdict.sh
plen=3
if [ "${1:-}" = -s ]; then
	plen=4
	shift
fi
if [ $# -ne 3 ]; then
	echo "usage: $prog [-s] LABEL TRUTH REPORT" >&2
	exit 2
fi
label=$1
truth=$2
report=$3
for f in "$truth" "$report"; do
	if [ ! -f "$f" ] || [ ! -r "$f" ]; then
		echo "$prog: cannot read '$f'" >&2
		exit 2
	fi
done

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# Pass 1: read both files into one record stream, tab separated:
#   PID  -      -    T  KIND  COMM    a task of the truth
#   PID  -      -    P  -     COMM    that task is printed by perf
#   PID  START  END  T|P  PROT  NAME  a truth (T) or printed (P) map
# START/END are lowercase hex padded to 16 digits, so that they sort and
# compare as strings (awk numbers cannot hold 64-bit addresses).
awk -v prog="$prog" -v truth="$truth" -v report="$report" -v plen="$plen" '
function fail(msg) {
	printf "%s: %s\n", prog, msg > "/dev/stderr"
	failed = 1
	exit 2
}
function hex(h, where) {
	h = tolower(h)
	sub(/^0x/, "", h)
	if (h !~ /^[0-9a-f]+$/)
		fail(where ": bad hex address \"" h "\"")
	sub(/^0+/, "", h)
	if (length(h) > 16)
		fail(where ": address too big \"" h "\"")
	return substr("0000000000000000", 1, 16 - length(h)) h
}
# the rest of the line after the first n fields
function rest(n,   s, i) {
	s = $0
	sub(/^[ \t]+/, "", s)
	for (i = 0; i < n; i++)
		sub(/^[^ \t]+[ \t]+/, "", s)
	return s
}
FILENAME == truth {
	where = truth ":" FNR
	if (NF == 0 || $1 ~ /^#/)
		next
	if ($1 == "task") {
		if (NF < 3 || $2 !~ /^[0-9]+$/)
			fail(where ": expected \"task PID KIND COMM\"")
		if ($3 != "synth-fork" && $3 != "exec" && $3 != "plain")
			fail(where ": unknown task kind \"" $3 "\"")
		if ($2 in listed)
			fail(where ": task " $2 " listed twice")
		listed[$2] = 1
		print $2 "\t-\t-\tT\t" $3 "\t" rest(3)
	} else if ($1 == "map") {
		if (NF < 6 || $2 !~ /^[0-9]+$/ || $5 !~ /^[-r][-w][-x][-sp]$/)
			fail(where ": expected \"map PID START END PROT NAME\"")
		if (!($2 in listed))
			fail(where ": map of task " $2 " before its task line")
		print $2 "\t" hex($3, where) "\t" hex($4, where) "\tT\t" \
		      substr($5, 1, plen) "\t" rest(5)
	} else {
		fail(where ": unknown line")
	}
	next
}
# perf report --tasks: the column header, task lines, map lines
/^# +pid +tid +ppid +comm/ {
	header = 1
	next
}
/^ *-?[0-9]+ +-?[0-9]+ +-?[0-9]+ \|/ {
	cur = ($2 in listed) ? $2 : ""
	if (cur != "") {
		comm = $0
		sub(/^[^|]*\| */, "", comm)
		print cur "\t-\t-\tP\t-\t" comm
	}
	next
}
# "start-end perms pgoff id name": id is the inode or the build ID (perf
# 7.x), and empty when perf has neither, as for [vdso].
cur != "" && /^ +[0-9a-f]+-[0-9a-f]+ [-r][-w][-x][-sp] [0-9a-f]+ / {
	split($1, range, "-")
	where = report ":" FNR
	print cur "\t" hex(range[1], where) "\t" hex(range[2], where) "\tP\t" \
	      substr($2, 1, plen) "\t" rest($4 ~ /^[0-9a-f]+$/ && NF > 4 ? 4 : 3)
}
END {
	if (failed)
		exit 2
	if (!header)
		fail(report ": no \"perf report --tasks\" output in it")
}
' "$truth" "$report" >"$tmp"

# Pass 2: per task (tasks first, then maps by address), count and report.
LC_ALL=C sort -t "$(printf '\t')" -k1,1n -k2,2 -k3,3 -k4,4 "$tmp" |
awk -F '\t' -v label="$label" '
function lt(a, b) { return (a "") < (b "") }
# an address for humans: no padding, like perf prints it
function addr(h) { sub(/^0+/, "", h); return h == "" ? "0" : h }
function desc(s, e, name) { return addr(s) "-" addr(e) " " name }
# one problem line of the current task, with a handful of examples
function problem(what, n, examples) {
	if (n == 0)
		return
	if (++lines > 12) {
		more++
		return
	}
	printf "%s: task %s %s (%s): %s %d: %s\n", label, pid, comm, kind,
	       what, n, examples
}
function add_example(list, n, s) {
	if (n > 4)
		return list
	return n == 1 ? s : (n == 4 ? list ", ..." : list ", " s)
}
function finish_task(   i, k, t, p, unexp, unexp_ex, miss, miss_ex, prot, prot_ex, what) {
	if (pid == "")
		return
	unexp = miss = prot = 0
	unexp_ex = miss_ex = prot_ex = ""
	for (i = 1; i <= nkeys; i++) {	# each distinct map, by address
		k = keys[i]
		t = (k in tcount) ? tcount[k] : 0
		p = (k in pcount) ? pcount[k] : 0
		if (t > p) {
			miss += t - p
			miss_ex = add_example(miss_ex, miss, mapdesc[k])
		} else if (p > t) {
			unexp += p - t
			unexp_ex = add_example(unexp_ex, unexp, mapdesc[k])
		}
		if (t && p && tprot[k] != pprot[k]) {
			prot += t < p ? t : p
			prot_ex = add_example(prot_ex, prot, mapdesc[k] " " \
					      tprot[k] "/" pprot[k])
		}
	}
	what = kind == "synth-fork" ? "inherited" : kind == "exec" ? "leftover" : "extra"
	total[what] += unexp
	total["missing"] += miss
	total["overlapping"] += ovl
	total["prot"] += prot

	if (!printed) {
		if (++lines <= 12)
			printf "%s: task %s %s (%s): not printed by perf\n",
			       label, pid, comm, kind
		else
			more++
		problem("missing", miss, miss_ex)
	} else {
		problem("overlapping", ovl, ovl_ex)
		problem(what, unexp, unexp_ex)
		problem("missing", miss, miss_ex)
		# the summary line counts them all; a few examples do
		if (prot && ++prot_tasks <= 3)
			problem("prot (expected/printed)", prot, prot_ex)
	}
	split("", tcount); split("", pcount); split("", mapdesc)
	split("", tprot); split("", pprot); split("", aend); split("", adesc)
	split("", keys)
	pid = ""
}
$1 != pid {
	finish_task()
	pid = $1
	printed = ovl = nactive = nkeys = 0
	ovl_ex = ""
}
$2 == "-" && $4 == "T" { kind = $5; comm = $6; next }
$2 == "-" && $4 == "P" { printed = 1; next }
{
	k = $2 SUBSEP $3 SUBSEP $6
	if (!(k in mapdesc)) {
		keys[++nkeys] = k
		mapdesc[k] = desc($2, $3, $6)
	}
	if ($4 == "T") {
		tcount[k]++
		tprot[k] = $5
		next
	}
	pcount[k]++
	pprot[k] = $5
	# overlap sweep over the printed maps, which come sorted by start:
	# keep the ones still open at this start, each one is a pair
	n = 0
	for (i = 1; i <= nactive; i++)
		if (lt($2, aend[i])) {
			n++
			aend[n] = aend[i]
			adesc[n] = adesc[i]
			ovl++
			ovl_ex = add_example(ovl_ex, ovl, adesc[n] " & " mapdesc[k])
		}
	nactive = n + 1
	aend[nactive] = $3 ""
	adesc[nactive] = mapdesc[k]
}
END {
	finish_task()
	if (more)
		printf "%s: ... and %d more problem lines\n", label, more
	if (total["prot"])
		printf "%s: %d maps with wrong protection\n", label, total["prot"]
	bad = total["overlapping"] + total["inherited"] + total["leftover"] + \
	      total["missing"] + total["extra"] + total["prot"]
	printf "%s: overlapping %d, inherited %d, leftover %d, missing %d, extra %d, prot %d: %s\n",
	       label, total["overlapping"], total["inherited"], total["leftover"],
	       total["missing"], total["extra"], total["prot"], bad ? "WRONG" : "OK"
}
'
