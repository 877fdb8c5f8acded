#!/bin/sh
# Print the pid of PARENT's child named NAME as soon as it exists; fail
# after 20 s. Usage: wait-child.sh PARENT NAME
set -eu
for _ in $(seq 400); do
	pgrep -P "$1" -x "$2" && exit 0
	sleep 0.05
done
exit 1
