#!/bin/bash
# make check-full: perf's whole test suite (builtin and shell tests) with the
# base perf and with the patched perf, compared test by test. Outputs, the
# raw runs included, in build/full/; the table is build/full/compare.txt.
#
# Tests are keyed by description ("suite: subtest" for subtests), not by
# number: the series inserts a suite, so the numbers shift. Each test that
# FAILED is re-run once (its suite, by its number in that perf) on its side,
# so that flakes are told apart from regressions on both sides alike. A test
# that still looks like a regression or a fix then runs 3 more times on both
# sides: some tests fail about half the time here (e.g. "Number of exit
# events of a simple workload"), and a single unlucky draw is not a verdict.
#
# Verdicts (results listed per side in run order, "FAILED,Ok"):
#   same        same result on both, FAILED on both included (environment:
#               no hardware counters or breakpoints in this VM, etc.)
#   new test    only in the patched perf (the series' own tests)
#   regression  FAILED in every run on patched, in none on base; also a new
#               test that FAILED in every run (the series' own failure)
#   fixed       FAILED in every run on base, in none on patched
#   flaky       FAILED in some runs and not in others, on either side
#   changed     Ok on one side, Skip on the other
#
# Last line: "full: N passed, N failed", passed = tests whose last run on the
# patched perf is Ok, failed = regressions only: tests that fail with both
# perfs are not the series' failures and count as neither. Exit 1 if any.
# Usage: BASE=NAME check-full.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=full
need "$tree/.git" "$base_tree/tools" "$perf" "$base_perf"
cd "$top"
out=$b/full
mkdir -p "$out"
declare -A trees=([base]=$base_tree [patched]=$tree)
declare -A perfs=([base]=$base_perf [patched]=$perf)

# parse LIST OUTPUT: "num<TAB>key<TAB>result" for each result line of a perf
# test OUTPUT, descriptions taken from LIST ('perf test list') so that the
# padding and any ':' in them do not matter. Suite lines of suites with
# subtests (no result) and "Running" lines are dropped.
parse() {
	awk 'match($0, /^ *[0-9]+(\.[0-9]+)?: /) {
		n = substr($0, 1, RLENGTH - 2); sub(/^ +/, "", n)
		rest = substr($0, RLENGTH + 1)
		if (FNR == NR) { desc[n] = rest; next }
		if (!(n in desc) || index(rest, desc[n]) != 1) next
		r = substr(rest, length(desc[n]) + 1); sub(/^ *: */, "", r)
		if (r ~ /^Ok/) r = "Ok"; else if (r ~ /^Skip/) r = "Skip"
		else if (r ~ /^FAILED/) r = "FAILED"; else next
		key = desc[n]
		if (n ~ /\./) { s = n; sub(/\..*/, "", s); key = desc[s] ": " key }
		print n "\t" key "\t" r
	}' "$1" "$2"
}

# perftest SIDE ARGS...: 'perf test ARGS' from the tree's tools/perf (where
# the shell tests are), with a timeout against a hung test.
perftest() {
	local s=$1
	shift
	(cd "${trees[$s]}/tools/perf" && timeout -k 30 2400 "${perfs[$s]}" test "$@") 2>&1 || true
}

# run SIDE: the whole suite. -S (6.12's default): with -p, 6.12 runs the shell
# tests in parallel too (none is marked exclusive yet), which 2 shared cores
# make flaky.
run() {
	local t=$SECONDS
	perftest "$1" list >"$out/$1.list"
	perftest "$1" -S >"$out/$1.txt"
	parse "$out/$1.list" "$out/$1.txt" >"$out/$1.res"
	: >"$out/$1-rerun.txt"
	: >"$out/$1-rerun.res"
	echo "$1: $(awk -F '\t' '{ c[$3]++ } END {
		printf "%d Ok, %d Skip, %d FAILED", c["Ok"], c["Skip"], c["FAILED"] }' \
		"$out/$1.res") ($((SECONDS - t))s)"
}

# rerun SIDE KEYS: re-run the suites of the tests named in file KEYS once,
# adding those tests' results to SIDE-rerun.res.
rerun() {
	local n
	awk -F '\t' 'NR == FNR { want[$0]; next }
		$2 in want { sub(/\..*/, "", $1); print $1 }' "$2" "$out/$1.res" |
		sort -un | while read -r n; do
		perftest "$1" "$n" | tee -a "$out/$1-rerun.txt" | parse "$out/$1.list" - |
			awk -F '\t' 'NR == FNR { want[$0]; next } $2 in want' "$2" - \
			>>"$out/$1-rerun.res"
	done
}

# verdicts: "key<TAB>base<TAB>patched<TAB>verdict" for every test.
verdicts() {
	awk -F '\t' '
	function nfail(r,  a, i, c) { split(r, a, ","); for (i in a) c += a[i] == "FAILED"; return c }
	function nrun(r,  a) { return split(r, a, ",") }
	function last(r) { sub(/.*,/, "", r); return r }
	{ s = FILENAME ~ /base/ ? "b" : "p"
	  if (!($2 in seen)) { seen[$2] = 1; keys[++nk] = $2 }
	  if ((s, $2) in res) res[s, $2] = res[s, $2] "," $3; else res[s, $2] = $3 }
	END { for (i = 1; i <= nk; i++) {
		k = keys[i]; b = ("b", k) in res ? res["b", k] : "-"
		p = ("p", k) in res ? res["p", k] : "-"
		bf = b == "-" ? 0 : nfail(b); pf = p == "-" ? 0 : nfail(p)
		if (b == "-") v = pf == nrun(p) ? "regression" : "new test"
		else if (p == "-") v = "removed"
		else if (pf == nrun(p) && bf == 0) v = "regression"
		else if (bf == nrun(b) && pf == 0) v = "fixed"
		else if ((bf && bf < nrun(b)) || (pf && pf < nrun(p))) v = "flaky"
		else if (bf || last(b) == last(p)) v = "same"
		else v = "changed"
		print k "\t" b "\t" p "\t" v
	} }' "$out/base.res" "$out/patched.res" "$out/base-rerun.res" "$out/patched-rerun.res"
}

run base
run patched
for s in base patched; do
	awk -F '\t' '$3 == "FAILED" { print $2 }' "$out/$s.res" >"$out/$s.failed"
	rerun "$s" "$out/$s.failed"
done
verdicts | awk -F '\t' '$4 == "regression" || $4 == "fixed" { print $1 }' >"$out/suspects"
for _ in 1 2 3; do
	rerun base "$out/suspects"
	rerun patched "$out/suspects"
done

# The table, then the tests by verdict and the last line.
verdicts | awk -F '\t' -v table="$out/compare.txt" -v base="$base" '
{ row[NR] = $0; for (i = 1; i <= 3; i++) if (length($i) > w[i]) w[i] = length($i)
  if ($4 == "same" && $2 ~ /FAILED/) v = "failing on both"; else v = $4
  if (v != "same") list[v] = list[v] "\n  " $1
  passed += $3 ~ /(^|,)Ok$/; failed += $4 == "regression" }
END {
	fmt = "%-" w[1] "s  %-" w[2] "s  %-" w[3] "s  %s\n"
	printf fmt, "test", "base", "patched", "verdict" >table
	for (i = 1; i <= NR; i++) { split(row[i], f, "\t"); printf fmt, f[1], f[2], f[3], f[4] >table }
	n = split("new test,regression,fixed,flaky,changed,removed,failing on both", order, ",")
	for (i = 1; i <= n; i++) if (order[i] in list) printf "%s:%s\n", order[i], list[order[i]]
	printf "full (%s): %d passed, %d failed\n", base, passed, failed
	exit (failed > 0)
}'
