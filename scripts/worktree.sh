#!/bin/sh
# Make DIR a clean detached worktree of TREE at REV (created on first use).
# Usage: worktree.sh TREE DIR REV
set -eu
tree=$1
dir=$(realpath -m "$2")
sha=$(git -C "$tree" rev-parse "$3")
if [ ! -e "$dir/.git" ]; then
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$dir" "$sha"
else
	git -C "$dir" checkout -q -f --detach "$sha"
	git -C "$dir" clean -q -fd
fi
