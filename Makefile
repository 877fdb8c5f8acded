# perf fork/exec maps series: fetch the base, apply the series, build, prove.
# See README.md. Every target's work is in scripts/.

B := build
DEB = $(shell ls $(B)/dl/linux-source-*.deb 2>/dev/null | head -n 1)
PERF := $(B)/perf/perf
BASE_PERF := $(B)/base-perf/perf
GEN := $(B)/gen-trace

.PHONY: all deps fetch tree perf base-perf demo export check \
	check-checkpatch check-unit check-demo check-mutations check-bisect \
	check-full check-live check-sparc64 check-fuzz check-asan bench

all: deps tree perf base-perf $(GEN)
	scripts/demo.sh $(B)/demo $(BASE_PERF) $(PERF) $(GEN)

deps:
	@mkdir -p $(B)
	scripts/deps.sh

fetch: deps
	scripts/fetch-base.sh $(B)/dl

# Lay down build/tree: pristine base (tag 'base') plus the series.
tree: fetch
	scripts/tree.sh "$$(scripts/fetch-base.sh $(B)/dl)" $(B)/tree
	@test -d $(B)/base-tree || git -C $(B)/tree worktree add -q --detach ../base-tree base

# Save the commits after 'base' in build/tree as patches/.
export:
	scripts/export.sh $(B)/tree

perf:
	scripts/build-perf.sh $(B)/tree $(B)/perf

base-perf:
	scripts/build-perf.sh $(B)/base-tree $(B)/base-perf

$(GEN): tools/gen-trace.c
	$(CC) -O2 -Wall -Wextra -o $@ $<

demo: $(GEN)
	scripts/demo.sh $(B)/demo $(BASE_PERF) $(PERF) $(GEN)

# Every test of the project; ends with one line "N passed, N failed".
check:
	scripts/check.sh

check-checkpatch:
	scripts/checkpatch.sh $(B)/tree

check-unit:
	scripts/check-unit.sh $(B)/tree $(PERF)

check-demo: $(GEN)
	scripts/check-demo.sh

check-mutations:
	scripts/check-mutations.sh

check-bisect:
	scripts/check-bisect.sh

check-full:
	scripts/check-full.sh

check-live:
	scripts/check-live.sh

check-sparc64:
	scripts/check-sparc64.sh

check-fuzz:
	scripts/check-fuzz.sh

check-asan:
	scripts/check-asan.sh

bench: $(GEN)
	scripts/bench.sh
