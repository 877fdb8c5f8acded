#!/bin/bash
# The original report's scenario on a real sparc64 kernel. The default
# base's kernel source, cross-built (scripts/sparc64-kernel.sh), boots under
# qemu-system-sparc64 with static sparc64 perfs of $BASE, base and patched
# (scripts/sparc64-perf.sh); in the guest each perf records 'perf record -a
# -e cpu-clock', and again with -d (scripts/sparc64-record.sh). Each of the
# four recordings is read by four readers, the guest's sparc64 perfs and the
# host's x86 perfs, base and patched, and compared with the guest's
# /proc/PID/maps (scripts/sparc64-truth.sh, scripts/verdict.sh -s: ranges,
# names, rwx and p/s). The patched readers must get every task right; the
# base readers must be wrong, for the reasons the series fixes.
# Outputs in build/sparc64-system/BASE/. UPDATE=1 also keeps the patched
# perf's recordings in sparc64/recording/BASE/, which scripts/demo.sh
# shows: RUN.data.xz (perf.data), RUN.maps.xz (the guest's capture),
# RUN.truth, recorded-on.txt.
# Usage: BASE=NAME check-sparc64-system.sh (make check-sparc64-system)
set -eu
. "$(dirname "$0")/lib.sh"
check=sparc64-system
out=$top/build/sparc64-system
sys=$out/$base
rec=$sys/record
need "$b/tree.head" "$b/base.head" "$perf" "$base_perf"

# 1. The guest kernel: the default base's, whichever perf base is checked.
t0=$SECONDS
deb=$(BASE=$default_base "$top/scripts/fetch-base.sh") ||
	stop "fetch: no source for the guest kernel ($default_base)"
image=$("$top/scripts/sparc64-kernel.sh" "$deb" "$out/kernel") ||
	stop "kernel: the guest kernel does not build (above)"
t1=$SECONDS
# 2. The guest perfs, from the commits the host's perfs are built from.
for which in base patched; do
	head=$b/tree.head
	[ "$which" = base ] && head=$b/base.head
	"$top/scripts/sparc64-perf.sh" "$tree" "$(cat "$head")" "$sys/perf-$which" >/dev/null ||
		stop "perf: the $which sparc64 perf does not build (above)"
done
t2=$SECONDS
# 3. The guest runs: record (-F 100: the samples do not matter here, the
# maps do), capture /proc, report.
FREQ=${FREQ:-100} "$top/scripts/sparc64-record.sh" "$image" "$rec" \
	patched="$sys/perf-patched/perf" base="$sys/perf-base/perf" ||
	stop "guest: the recordings failed (above)"
t3=$SECONDS
echo "sparc64-system: kernel $((t1 - t0)) s, perfs $((t2 - t1)) s, guest $((t3 - t2)) s;" \
	"recorded on $(cut -d' ' -f1-2 "$rec/kernel.txt")"

# 4. Four readers per recording. A base reader must be wrong for the
# reasons the series fixes, each told by its verdict lines:
#   exec-leftovers     maps of the image before an exec (patch "Drop the
#                      old image's maps on exec"): leftover maps
#   private-as-shared  private maps printed 's' (patch "Print private
#                      mappings as private"): protection like r-xp/r-xs
#   prot-not-swapped   prot and flags of big-endian MMAP2 records not
#                      swapped (patch "Byte-swap the prot and flags"):
#                      protection like r-xp/---s
bugs() { # VERDICT: the reasons it shows
	grep -q ': leftover [1-9]' "$1" && echo exec-leftovers
	grep -Eq ' ([-r][-w][-x])p/\1s' "$1" && echo private-as-shared
	grep -Eq ' r[-w][-x]p/---s' "$1" && echo prot-not-swapped
	true
}
for run in patched patched-d base base-d; do
	d=$rec/$run
	opt=()
	[ "$run" = "${run%-d}" ] || opt=(-d)
	"$top/scripts/sparc64-truth.sh" ${opt[@]+"${opt[@]}"} "$d/maps.txt" >"$d/truth" ||
		stop "truth: cannot read $d/maps.txt"
	cp "$d/report-patched.txt" "$d/report-sparc64-patched.txt"
	cp "$d/report-base.txt" "$d/report-sparc64-base.txt"
	"$perf" report -i "$d/perf.data" --tasks --mmaps >"$d/report-x86-patched.txt" 2>"$d/x86.log" ||
		stop "x86: the patched perf cannot read $run/perf.data ($d/x86.log)"
	"$base_perf" report -i "$d/perf.data" --tasks --mmaps >"$d/report-x86-base.txt" 2>"$d/x86.log" ||
		stop "x86: the base perf cannot read $run/perf.data ($d/x86.log)"
	for reader in sparc64-patched x86-patched sparc64-base x86-base; do
		v=$d/verdict-$reader.txt
		"$top/scripts/verdict.sh" -s "$run/$reader" "$d/truth" "$d/report-$reader.txt" >"$v" ||
			stop "verdict: cannot compare $d/report-$reader.txt"
		line=$(tail -n 1 "$v")
		shown=$(bugs "$v" | xargs)
		case $reader in
		*-patched) want=OK ;;
		# in its own byte order: no swap to miss
		sparc64-base) want="exec-leftovers private-as-shared" ;;
		# (private-as-shared may show too, on a ---p map printed ---s)
		x86-base) want="exec-leftovers prot-not-swapped" ;;
		esac
		if [ "$want" = OK ] && [ "${line%: OK}" != "$line" ] ||
			[ "$shown" = "$want" ] || [ "${shown/private-as-shared /}" = "$want" ]; then
			pass "$line${shown:+ (base: ${shown// /, })}"
		else
			fail "$line (shows: ${shown:-none})"
			head -n 12 "$v"
		fi
	done
done
echo "sparc64-system: $((SECONDS - t0)) s in all; outputs in ${sys#"$top"/}"

# UPDATE=1: the patched perf's recordings become the demo's.
if [ "${UPDATE:-}" = 1 ]; then
	dest=$top/sparc64/recording/$base
	mkdir -p "$dest"
	rm -f "$dest"/*
	for run in patched patched-d; do
		xz -9 -c "$rec/$run/perf.data" >"$dest/$run.data.xz"
		xz -9 -c "$rec/$run/maps.txt" >"$dest/$run.maps.xz"
		cp "$rec/$run/truth" "$dest/$run.truth"
	done
	{
		echo "kernel: $(cat "$rec/kernel.txt")"
		echo "recorded by: perf $(sed -n 's/^# perf version : //p' "$rec/patched/header.txt")" \
			"with the series, static sparc64 (scripts/sparc64-perf.sh)"
		echo "options: -a -e cpu-clock -F ${FREQ:-100}, and -d (patched-d)"
		echo "made by: UPDATE=1 make BASE=$base check-sparc64-system"
	} >"$dest/recorded-on.txt"
	echo "sparc64-system: the recordings are in ${dest#"$top"/}; commit them"
fi
finish "$check"
