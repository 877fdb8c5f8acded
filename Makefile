# perf fork/exec maps series: fetch the base, apply the series, build, prove.
# See README.md. Every target's work is in scripts/.
#
# BASE names the perf base: the default one that base.conf pins (7.3, the
# series in patches/), or a backport in backports/NAME/ (make BASE=6.12).
# The default base builds under build/, a backport under build/NAME/.

DEFAULT_BASE := $(shell sed -n 's/^BASE_NAME=//p' base.conf)
BASE ?= $(DEFAULT_BASE)
export BASE

ifeq ($(BASE),$(DEFAULT_BASE))
B := build
SERIES := patches
CONF := base.conf
else
B := build/$(BASE)
SERIES := backports/$(BASE)
CONF := $(SERIES)/base.conf
endif
ifeq ($(wildcard $(CONF)),)
$(error BASE=$(BASE): no $(CONF); the bases are $(DEFAULT_BASE) and $(notdir $(wildcard backports/*)))
endif

PERF := $(B)/perf/perf
BASE_PERF := $(B)/base-perf/perf
GEN := build/gen-trace
DEPS := build/deps.stamp

# Every check of 'make check' on the default base; on a backport, those that
# need no more than its trees and perfs.
CHECKS := checkpatch postings unit demo mutations full live fuzz
# In make check-all only: with them, .ci/run on a fresh clone would pass 60 min.
SLOW_CHECKS := bisect sparc64 sparc64-system asan clang
BACKPORT_CHECKS := checkpatch postings unit demo mutations live fuzz

.PHONY: all deps fetch tree perf base-perf demo export outgoing debian-patches check check-all \
	$(addprefix check-,$(CHECKS) $(SLOW_CHECKS)) bench

all: $(PERF) $(BASE_PERF) $(GEN)
	scripts/demo.sh $(B)/demo $(BASE_PERF) $(PERF) $(GEN)

$(DEPS): packages.txt scripts/deps.sh
	@mkdir -p build
	scripts/deps.sh
	@touch $@

deps: $(DEPS)

fetch: $(DEPS)
	scripts/fetch-base.sh

# Lay down $(B)/tree (the pristine base, tag 'base', plus the series) and
# $(B)/base-tree; tree.head and base.head change only when the trees do.
$(B)/tree.head $(B)/base.head &: $(DEPS) $(CONF) $(wildcard $(SERIES)/*/series $(SERIES)/*/*.patch)
	scripts/tree.sh

tree: $(B)/tree.head

# Save the commits after 'base' in $(B)/tree into $(SERIES)/: fixes/ from
# base..fixes, next/ from fixes..series.
export:
	scripts/export.sh

# The postings, ready for git send-email, in $(B)/outgoing/: authored and
# signed off by AUTHOR="Name <email>", the person who sends them.
outgoing: $(B)/tree.head
	AUTHOR="$(AUTHOR)" scripts/outgoing.sh

# The series as Debian patches with DEP-3 headers, in $(B)/debian/patches/.
debian-patches: $(B)/tree.head
	scripts/debian-patches.sh

$(PERF): $(B)/tree.head build-options.txt
	scripts/build-perf.sh $(B)/tree $(B)/perf

$(BASE_PERF): $(B)/base.head build-options.txt
	scripts/build-perf.sh $(B)/base-tree $(B)/base-perf

perf: $(PERF)
base-perf: $(BASE_PERF)

$(GEN): tools/gen-trace.c
	@mkdir -p build
	$(CC) -O2 -Wall -Wextra -o $@ $<

demo: $(PERF) $(BASE_PERF) $(GEN)
	scripts/demo.sh $(B)/demo $(BASE_PERF) $(PERF) $(GEN)

# Every test of the project; ends with one line "N passed, N failed".
check: $(PERF) $(BASE_PERF) $(GEN)
	scripts/check.sh $(if $(filter $(DEFAULT_BASE),$(BASE)),$(CHECKS),$(BACKPORT_CHECKS))

# Every check on every base.
check-all: $(GEN)
	scripts/check-all.sh $(CHECKS) $(SLOW_CHECKS)

check-checkpatch: $(B)/tree.head
	scripts/checkpatch.sh

check-postings: $(B)/tree.head
	scripts/check-postings.sh

check-unit: $(PERF)
	scripts/check-unit.sh

check-demo: $(PERF) $(BASE_PERF) $(GEN)
	scripts/check-demo.sh

check-mutations: $(PERF)
	scripts/check-mutations.sh

check-bisect: $(PERF)
	scripts/check-bisect.sh

check-full: $(PERF) $(BASE_PERF)
	scripts/check-full.sh

check-live: $(PERF) $(BASE_PERF)
	scripts/check-live.sh

check-sparc64: $(PERF) $(GEN)
	scripts/check-sparc64.sh

# The report's scenario recorded by a sparc64 kernel under qemu-system-sparc64;
# builds (cached) the guest kernel and static sparc64 perfs, base and patched.
check-sparc64-system: $(PERF) $(BASE_PERF)
	scripts/check-sparc64-system.sh

check-fuzz: $(PERF)
	scripts/check-fuzz.sh

check-asan: $(B)/tree.head
	scripts/check-asan.sh

check-clang: $(B)/tree.head
	scripts/check-clang.sh

bench: $(PERF) $(BASE_PERF) $(GEN)
	scripts/bench.sh
