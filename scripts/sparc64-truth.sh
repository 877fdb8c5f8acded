#!/bin/bash
# The truth file of scripts/verdict.sh from the maps.txt the sparc64 guest
# wrote (sparc64/guest/capture.c: "process PID KIND COMM", "parent PPID",
# "thread TID", "map LINE" of /proc/PID/maps): a task per thread, each with
# its process's maps as a correct perf must show them after 'perf record' (-d: 'perf
# record -d').
# Usage: sparc64-truth.sh [-d] MAPS
#
# This is the one place where /proc's maps are turned into perf's. Each
# rule is a fact of the kernel's records or of perf's naming, none hides a
# difference between perf versions (both perfs read the same records):
#  1. Names: perf names an executable anonymous map or [heap] (rwx on
#     sparc64) /tmp/perf-PID.map (map__new(), for JIT symbol files), PID
#     the process that mapped it: for a process forked during the recording
#     (KIND plain), its parent. Any other anonymous map is "//anon".
#  2. What is recorded: without -d only executable maps; a process perf
#     synthesizes from /proc (KIND synth-fork) with -d: every map readable
#     or executable (perf_event__synthesize_mmap_events()).
# A process whose image was loaded during the recording (KIND exec, or
# plain: forked from one) is known to perf only from the kernel's MMAP2
# records, and the kernel has no record for munmap(), nor, without -d, for
# an mprotect() that leaves a map not executable:
#  3. ELF text over the whole span: the loaders map an ELF image (/bin/*,
#     /lib/*, /lib64/*) from its start to its data segment with the text's
#     protection, then the kernel (the program, ld.so: past the text) or
#     ld.so (libraries: PROT_NONE) takes back what lies past the text. perf
#     keeps the text there wherever no later recorded map lies.
#  4. Without -d, the data segment is one map from its start, rwx as
#     mapped: the later mprotect() of its RELRO part to r-- is not recorded.
#  5. With -d, glibc's ld.so maps each library 1 MiB aligned: it reserves
#     the image's size plus 1 MiB PROT_NONE at the lowest free address,
#     maps the image at the aligned address in it and unmaps the head and
#     the tail left over (_dl_map_segment()). perf keeps both as //anon
#     ---p, unless a later record (the next library's reservation) covers
#     them. The head is the gap below the image, the tail what the 1 MiB
#     leaves past the image's end (its data, or its bss mapped after it).
#  6. With -d, the kernel's phantom stack: setup_arg_pages() clears
#     VM_EXEC of the new stack (sparc64 stacks are executable by default,
#     the programs' PT_GNU_STACK is not) with mprotect_fixup(), which
#     records the stack, one page, while it still sits below STACK_TOP_MAX
#     (0x7ff00000000); relocate_vma_down() then moves it and records
#     nothing. Recorded as //anon rw-p, never unmapped, so perf keeps it,
#     unless the stack stayed at the top (random offset 0) and its own
#     record covers it.
set -eu
data=0
if [ "${1:-}" = -d ]; then
	data=1
	shift
fi
[ $# -eq 1 ] || { echo "usage: sparc64-truth.sh [-d] MAPS" >&2; exit 2; }
awk -v data="$data" '
BEGIN {
	ALIGN = 1048576			# the libraries PT_LOAD p_align
	PHANTOM = "000007feffffe000 000007ff00000000"	# STACK_TOP_MAX - 8 KiB
	for (i = 0; i < 16; i++)
		hexval[substr("0123456789abcdef", i + 1, 1)] = i
}
# 64-bit addresses as 16 hex digits: they compare as strings; mawk numbers
# hold 53 bits, so arithmetic goes by 32-bit halves.
function pad(h) { h = tolower(h); return substr("0000000000000000", 1, 16 - length(h)) h }
function half(h,   i, n) { n = 0; for (i = 1; i <= 8; i++) n = n * 16 + hexval[substr(h, i, 1)]; return n }
function sub_(a, b) { return (half(substr(a, 1, 8)) - half(substr(b, 1, 8))) * 4294967296 + \
	half(substr(a, 9)) - half(substr(b, 9)) }
function add(a, n,   hi, lo) {
	hi = half(substr(a, 1, 8)); lo = half(substr(a, 9)) + n
	hi += int(lo / 4294967296); lo %= 4294967296
	return sprintf("%08x%08x", hi, lo)
}
function emit(s, e, prot, name) { out[++nout] = s " " e " " prot " " name }
function image(n) { return n ~ /^\/(bin|lib|lib64)\// }
# The maps of one process, as perf must show them.
function process(   i, j, k, f, m, S, E, cur, last, g, tail, rec) {
	for (i = 1; i <= n; i++) {
		name[i] = nm[i] == "" ? "//anon" : nm[i]
		if ((nm[i] == "" || nm[i] == "[heap]") && pr[i] ~ /x/)
			name[i] = "/tmp/perf-" (kind == "plain" ? ppid : pid) ".map"
		# recorded: its last mmap or mprotect made a record (rule 2)
		rec[i] = kind == "synth-fork" ? (data ? pr[i] ~ /[rx]/ : pr[i] ~ /x/) : \
			(data || pr[i] ~ /x/)
		done[i] = 0
	}
	if (kind != "synth-fork") {
		for (i = 1; i <= n && en[i] <= substr(PHANTOM, 1, 16); i++)
			;
		if (data && (i > n || st[i] >= substr(PHANTOM, 18)))
			emit(substr(PHANTOM, 1, 16), substr(PHANTOM, 18), "rw-p", "//anon")
		for (i = 1; i <= n; i++) {
			if (!image(nm[i]) || off[i] != 0 || pr[i] !~ /x/)
				continue
			# i: the text of image f; S: its data segment; last: its
			# last map; E: its end, with its bss
			f = nm[i]; S = ""; last = i
			for (j = i + 1; j <= n; j++)
				if (nm[j] == f) {
					if (S == "" && pr[j] != "---p")
						S = j
					last = j
				}
			if (S == "")
				continue
			# rule 3: [text start, data segment) less later records
			cur = st[i]
			for (j = 1; j <= n; j++) {
				if (j == i || !rec[j] || en[j] <= cur || st[j] >= st[S])
					continue
				if (st[j] > cur)
					emit(cur, st[j], pr[i], f)
				if (en[j] > cur)
					cur = en[j]
			}
			if (cur < st[S])
				emit(cur, st[S], pr[i], f)
			done[i] = 1
			# rule 4
			if (!data) {
				emit(st[S], en[last], pr[last], f)
				for (j = S; j <= last; j++)
					if (nm[j] == f)
						done[j] = 1
			}
			# rule 5, for the libraries ld.so loaded
			if (!data || f !~ /^\/lib\//)
				continue
			E = last < n && st[last + 1] == en[last] && nm[last + 1] == "" ? \
				en[last + 1] : en[last]
			g = i > 1 ? en[i - 1] : st[i]
			if (g < st[i] && sub_(st[i], g) < ALIGN)
				emit(g, st[i], "---p", "//anon")
			m = sub_(E, st[i])
			tail = add(g, m >= ALIGN ? m + ALIGN : 2 * ALIGN)
			for (k = 1; k <= n && st[k] < E; k++)
				;
			if (k <= n && st[k] < tail)
				tail = st[k]
			# the next library reserved from E on: its head covers this
			if (E < tail && !(k <= n && nm[k] ~ /^\/lib\// && off[k] == 0))
				emit(E, tail, "---p", "//anon")
		}
	}
	for (i = 1; i <= n; i++)
		if (rec[i] && !done[i])
			emit(st[i], en[i], pr[i], name[i])
}
function flush(   i, j) {
	if (pid != "")
		process()
	for (i = 1; i <= nthreads; i++) {
		print "task", threads[i], kind, comm
		for (j = 1; j <= nout; j++)
			print "map", threads[i], out[j]
	}
	nthreads = n = nout = 0
}
$1 == "process" { flush(); pid = $2; kind = $3; comm = $4; next }
$1 == "parent" { ppid = $2; next }
$1 == "thread" { threads[++nthreads] = $2; next }
$1 == "map" {
	split($2, r, "-")
	st[++n] = pad(r[1]); en[n] = pad(r[2]); pr[n] = $3; off[n] = $4 !~ /^0+$/
	nm[n] = ""
	if (NF >= 7) {
		nm[n] = $0
		for (i = 1; i <= 6; i++)
			sub(/^[^ ]+ +/, "", nm[n])
	}
	next
}
{ print "sparc64-truth: bad line " FNR ": " $0 > "/dev/stderr"; exit 2 }
END { flush() }
' "$1"
