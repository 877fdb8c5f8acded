#!/bin/bash
# make check-full: perf's whole test suite (builtin and shell tests) with the
# base perf and with the patched perf, compared test by test.
#
# Tests are keyed by description ("suite: subtest" for subtests), not by
# number: the series inserts a suite, so the numbers shift. Every FAILED test
# is re-run once (its suite, by number, in the same perf) on both sides so
# that flakes are told apart from regressions fairly.
#
# Verdicts in build/full/compare.txt:
#   same        same result on both (including FAILED on both: environment)
#   new test    only in the patched perf (the series' own tests)
#   regression  not FAILED on base, FAILED twice on patched; also a new test
#               that FAILS twice (that is the series' own failure)
#   fixed       FAILED twice on base, not FAILED on patched
#   flaky       FAILED then passed on the re-run, on either side
#   changed     Ok on one side, Skip on the other
#
# Last line: "full: N passed, N failed" with passed = tests Ok on the patched
# perf (after the re-run) and failed = regressions only; tests failing on
# both perfs (no hardware counters in a VM etc.) are not the series' failures
# and count as neither. Exit status 1 if any regression.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/full
mkdir -p "$out"

# parse LIST OUTPUT: "num<TAB>key<TAB>result" for each result line of a perf
# test OUTPUT, with descriptions taken from LIST ('perf test list') so that
# the padding and any ':' in descriptions do not matter. Suite lines of
# suites with subtests carry no result and are dropped.
parse() {
	awk -F '\t' 'FNR == NR {
		if (!match($0, /^ *[0-9]+(\.[0-9]+)?: /)) next
		n = substr($0, 1, RLENGTH - 2); sub(/^ +/, "", n)
		desc[n] = substr($0, RLENGTH + 1)
		next
	}
	match($0, /^ *[0-9]+(\.[0-9]+)?: /) {
		n = substr($0, 1, RLENGTH - 2); sub(/^ +/, "", n)
		rest = substr($0, RLENGTH + 1)
		if (!(n in desc) || index(rest, desc[n]) != 1) next
		r = substr(rest, length(desc[n]) + 1); sub(/^ *: */, "", r)
		if (r ~ /^Ok/) r = "Ok"; else if (r ~ /^Skip/) r = "Skip"
		else if (r ~ /^FAILED/) r = "FAILED"; else next
		key = desc[n]
		if (n ~ /\./) { s = n; sub(/\..*/, "", s); key = desc[s] ": " key }
		print n "\t" key "\t" r
	}' "$1" "$2"
}

# run NAME TREE PERF: the whole suite, then each failed suite once more.
run() {
	local name=$1 dir=$top/$2/tools/perf perf=$top/$3 t=$SECONDS n
	(cd "$dir" && "$perf" test list) >"$out/$name.list" 2>&1
	# -S (6.12's default): with -p, 6.12 runs the shell tests in parallel
	# too (none is marked exclusive yet), which 2 shared cores make flaky.
	# The timeout guards against a hung test (the rest then goes missing).
	(cd "$dir" && timeout -k 30 2400 "$perf" test -S) >"$out/$name.txt" 2>&1 || true
	parse "$out/$name.list" "$out/$name.txt" >"$out/$name.res"
	: >"$out/$name-rerun.txt"
	awk -F '\t' '$3 == "FAILED" { sub(/\..*/, "", $1); print $1 }' "$out/$name.res" |
		sort -un | while read -r n; do
		(cd "$dir" && timeout -k 30 600 "$perf" test "$n") >>"$out/$name-rerun.txt" 2>&1 || true
	done
	parse "$out/$name.list" "$out/$name-rerun.txt" >"$out/$name-rerun.res"
	echo "$name: $(awk -F '\t' '{ c[$3]++ } END {
		printf "%d Ok, %d Skip, %d FAILED", c["Ok"], c["Skip"], c["FAILED"] }' \
		"$out/$name.res") ($((SECONDS - t))s; $(wc -l <"$out/$name-rerun.res") re-run)"
}

run base build/base-tree build/base-perf/perf
run patched build/tree build/perf/perf

# Join both sides by key, with the re-run's result after the first one
# ("FAILED,Ok"), and write the table and the summary.
awk -F '\t' -v table="$out/compare.txt" '
function final(r) { return r ~ /,/ ? substr(r, index(r, ",") + 1) : r }
function flaky(r) { return r ~ /^FAILED,/ && final(r) != "FAILED" }
FILENAME ~ /-rerun\.res$/ { side = FILENAME ~ /base/ ? "b" : "p"
	if (res[side, $2] == "FAILED") res[side, $2] = "FAILED," $3; next }
{ side = FILENAME ~ /base/ ? "b" : "p"; res[side, $2] = $3
	if (!($2 in seen)) { seen[$2] = 1; keys[++nk] = $2 }
	if (length($2) > w) w = length($2) }
END {
	printf "%-*s  %-14s %-14s %s\n", w, "test", "base", "patched", "verdict" >table
	for (i = 1; i <= nk; i++) {
		k = keys[i]; b = ("b", k) in res ? res["b", k] : "-"
		p = ("p", k) in res ? res["p", k] : "-"
		if (b == "-") v = final(p) == "FAILED" ? "regression" : "new test"
		else if (p == "-") v = "removed"
		else if (final(p) == "FAILED" && final(b) != "FAILED") v = "regression"
		else if (final(b) == "FAILED" && final(p) != "FAILED") v = "fixed"
		else if (flaky(b) || flaky(p)) v = "flaky"
		else if (final(b) == final(p)) v = "same"
		else v = "changed"
		printf "%-*s  %-14s %-14s %s\n", w, k, b, p, v >table
		if (final(p) == "Ok") passed++
		if (v == "same" && final(b) == "FAILED") list["failing on both"] = list["failing on both"] "\n  " k
		else if (v != "same") list[v] = list[v] "\n  " k
		if (v == "regression") failed++
	}
	split("new test,regression,fixed,flaky,changed,removed,failing on both", order, ",")
	for (i = 1; i in order; i++)
		if (order[i] in list) printf "%s:%s\n", order[i], list[order[i]]
	printf "full: %d passed, %d failed\n", passed, failed
	exit (failed > 0)
}' "$out/base.res" "$out/patched.res" "$out/base-rerun.res" "$out/patched-rerun.res"
