#!/bin/bash
# Run the demo and require its verdicts: patched perf right on every input;
# base perf shows the problems the series fixes (so the verdicts can fail).
# Usage: BASE=NAME check-demo.sh
set -eu
. "$(dirname "$0")/lib.sh"
check=demo
need "$perf" "$base_perf" "$top/build/gen-trace"
if ! "$top/scripts/demo.sh" "$b/demo" "$base_perf" "$perf" "$top/build/gen-trace" >"$b/demo.log" 2>&1; then
	tail -5 "$b/demo.log"
	stop "demo failed; see $b/demo.log"
fi
expect() { # LABEL REGEX WHY [required]
	line=$(grep "^$1: overlapping" "$b/demo/verdicts.txt" || true)
	if [ -z "$line" ] && [ -n "${4:-}" ]; then
		fail "$1: no verdict (see $b/demo.log)"
	elif [ -z "$line" ]; then
		echo "SKIP $1: no verdict (see $b/demo.log)"
	elif echo "$line" | grep -Eq "$2"; then
		pass "$1: $3"
	else
		fail "$1: $3: $line"
	fi
}
for input in trace trace-sparc64 live; do
	expect "patched-$input" ': OK$' "no overlapping, inherited or leftover maps"
done
expect base-trace 'leftover [1-9][0-9]*,' "base keeps maps from before the exec"
expect base-trace-sparc64 'prot [1-9][0-9]*:' "base loses the protection of big-endian maps"
expect base-live 'leftover [1-9][0-9]*,' "base keeps maps from before the exec"
# The e_machine of a sparc64 recording's processes (default base: perf 7.3
# looks it up per thread; 6.12 takes the file's arch for all).
if [ "$base" = "$default_base" ]; then
	if grep -q '^patched-regs: .*: unknown$' "$b/demo/regs.txt"; then
		pass "patched-regs: a sparc64 recording's registers are sparc64's"
	else
		fail "patched-regs: $(grep '^patched-regs' "$b/demo/regs.txt")"
	fi
	if grep -q '^base-regs: .*: BP$' "$b/demo/regs.txt"; then
		pass "base-regs: base names a sparc64 recording's registers after x86's"
	else
		fail "base-regs: base does not show the bug: $(grep '^base-regs' "$b/demo/regs.txt")"
	fi
fi
# A sample that the file holds after an exec of its process, with a time
# before it, taken as it comes: perf script --show-round-events processes
# the events out of time order, as AUX area trace is decoded.
"$top/build/gen-trace" late "$b/demo/late.data"
late_dso() {
	"$1" script --show-round-events -i "$b/demo/late.data" -F ip,dso 2>/dev/null |
		awk '$1 == "401000" { print $2 }'
}
if [ "$(late_dso "$perf")" = "(/bin/old)" ]; then
	pass "patched-late: a sample taken after a later exec resolves in the image of its time"
else
	fail "patched-late: $(late_dso "$perf")"
fi
if [ "$(late_dso "$base_perf")" = "(/bin/new)" ]; then
	pass "base-late: base resolves it in the program after the exec"
else
	fail "base-late: base does not show the bug: $(late_dso "$base_perf")"
fi
# The real sparc64 recordings (sparc64/recording/), read on x86.
for input in real-sparc64 real-sparc64-d; do
	expect "patched-$input" ': OK$' "every task's maps as in the guest's /proc" required
	expect "base-$input" 'leftover [1-9][0-9]*,.* prot [1-9][0-9]*:' \
		"base keeps maps from before an exec and loses big-endian protection" required
done
finish "$check"
