#!/bin/bash
# make check-all: every check on every base (the default one and each
# backport), the slow ones too; one line of totals per base, then overall.
# Usage: check-all.sh CHECK...
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
default=$(sed -n 's/^BASE_NAME=//p' base.conf)
passed=0
failed=0
for base in "$default" $(cd backports && echo *); do
	line=$(BASE=$base make -s perf base-perf build/gen-trace >/dev/null 2>&1 &&
		BASE=$base scripts/check.sh "$@" 2>&1 | tee "build/check-all-$base.log" | tail -n 1)
	echo "check-all $base: ${line:-did not build; see BASE=$base make}"
	case $line in
	*" passed, "*" failed")
		passed=$((passed + ${line%% passed*}))
		f=${line#*passed, }
		failed=$((failed + ${f%% failed*}))
		;;
	*) failed=$((failed + 1)) ;;
	esac
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
