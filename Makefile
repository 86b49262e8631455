# SPDX-License-Identifier: GPL-2.0
# sch_airfair: airtime-fair queueing for WiFi access points.
#
#   make demo        install what is missing, boot a VM, show airtime fairness on hwsim
#   make check       install what is missing, build, run every test CI runs (unit + VM
#                    selftests, both kernels)
#   make deps        install the Debian packages the build and the tests need (root)
#   make             build modules (every supported kernel), tc plugin, tools
#   make selftest    VM selftests only; KVER=<release> for one kernel
#   make check-debug VM selftests on a debug 6.12 (KASAN, kmemleak, lockdep; built once,
#                    cached outside the checkout: vm/debug-kernel.sh)
#   make bench       per-packet cost vs fq_codel and cake (pktgen in the VM)
#   make scenarios   the papers' experiments (testbed/scenarios/*.toml) in the VM, every
#                    seed on every kernel; SCENARIOS="chen-yan mixed" for some, SEEDS="7"
#                    for fewer, SCENARIO_ARGS="--stock" for the stock mac80211
#   make report      docs/results.md and its plots from the saved runs (host, Python)
#   make check-openwrt  the OpenWrt feed (openwrt/): what can be built and run here
#   make patch       the iproute2 patch adding airfair to tc, in build/iproute2-patch/
#   make install     module for KVER, tc plugin + man page, tools (DESTDIR honoured)
#   make uninstall / clean
#
# `make` and `make install` install no packages and edit nothing under /etc: they only
# check that the build's packages are there (scripts/deps.sh --check build) and say
# which to install if not. `make deps`, `make check` and `make demo` install them.
#
# Kernels: every installed release of the supported series (scripts/kernels.sh),
# or KVERS="..." / KVER=...; KDIR=<headers> to build against another tree.

KVERS	?= $(shell scripts/kernels.sh 2>/dev/null)
KVER	?= $(firstword $(KVERS))
DESTDIR	?=
PREFIX	?= /usr/local
BUILD	:= $(CURDIR)/build
# Debian's python3 (deps.sh installs matplotlib for it), not one earlier in PATH
PYTHON	?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)
SCENARIOS ?=
SEEDS	?=
SCENARIO_ARGS ?=

.PHONY: all deps build-deps modules userspace tools feeder tc medium selftest-helpers check check-debug check-openwrt unit fuzz selftest demo bench \
	scenarios report
	install uninstall dkms-src patch deb clean

all: modules userspace

# Read-only: what `make` needs is installed, or the names of what is missing.
build-deps:
	@scripts/deps.sh --check build
# The targets that run tests install what is missing (scripts/deps.sh says what).
deps:
	@scripts/deps.sh all

modules: build-deps
	@[ -n "$(KVERS)" ] || { echo "modules: no kernel of a supported series (6.1, 6.12) with image and headers; make deps, or KVER=/KDIR=" >&2; exit 1; }
	@for k in $(KVERS); do scripts/build-modules.sh $$k || exit 1; done

userspace: tools feeder tc medium selftest-helpers
tools: build-deps
	@$(MAKE) -s -C tools/airtime-calc
	@$(MAKE) -s -C tools/airfair-stat
feeder: build-deps
	@$(MAKE) -s -C tools/airfair-feeder
tc: build-deps
	@$(MAKE) -s -C tc-extension
medium: build-deps
	@$(MAKE) -s -C testbed/medium
selftest-helpers:
	@$(MAKE) -s -C selftests/helpers OUT=$(BUILD)/selftests

check: deps
	@$(MAKE) -s all
	@scripts/check.sh $(if $(filter file,$(origin KVERS)),--require-series) $(KVERS)

unit: deps
	@$(MAKE) -s -C tests/unit check

# Fuzz every libFuzzer target FUZZ_SECONDS each (make check runs 60 s of each).
FUZZ_SECONDS ?= 600
fuzz: deps
	@$(MAKE) -s -C tests/fuzz run SECONDS=$(FUZZ_SECONDS)

selftest: deps
	@$(MAKE) -s all
	@scripts/check.sh --vm-only $(if $(filter command line,$(origin KVER)),$(KVER),$(KVERS))

check-openwrt: deps
	@scripts/check-openwrt.sh

check-debug: deps
	@$(MAKE) -s userspace
	@scripts/check-debug.sh

# The demo boots with the patched mac80211 (mac80211-patches/, built once and cached) so
# that airfair gets each station's rate, loss and pending airtime from the hook; if that
# build fails it runs on the stock mac80211 (rates from airfair-feeder) and says so.
demo: deps
	@$(MAKE) -s all
	@KVER=$(KVER) testbed/demo.sh

# Each scenario x kernel x seed boots its own guest; testbed/scenarios.sh prints where
# the raw data went (build/results/scenarios/) and the wall time.
scenarios: deps
	@$(MAKE) -s all
	@testbed/scenarios.sh $(foreach k,$(KVERS),--kver $(k)) $(if $(SEEDS),--seeds "$(SEEDS)") \
		$(SCENARIO_ARGS) $(SCENARIOS)

report:
	@PYTHONPATH=testbed/analysis $(PYTHON) -m airfair_analysis.report

bench: deps
	@$(MAKE) -s all
	@vm/run.sh --kver $(KVER) --timeout 1800 -- bash testbed/bench/qdisc_bench.sh

install: all
	install -D -m 0644 $(BUILD)/$(KVER)/sch_airfair.ko \
		$(DESTDIR)/lib/modules/$(KVER)/updates/sch_airfair.ko
	[ -n "$(DESTDIR)" ] || depmod -a $(KVER)
	$(MAKE) -C tc-extension install DESTDIR=$(DESTDIR)
	install -D -m 0755 $(BUILD)/tools/airtime-calc $(DESTDIR)$(PREFIX)/bin/airtime-calc
	install -D -m 0644 tools/airtime-calc/airtime-calc.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/airtime-calc.1
	install -D -m 0755 $(BUILD)/testbed/medium/airfair-medium \
		$(DESTDIR)$(PREFIX)/bin/airfair-medium
	install -D -m 0755 $(BUILD)/tools/airfair-feeder $(DESTDIR)$(PREFIX)/sbin/airfair-feeder
	install -D -m 0644 tools/airfair-feeder/airfair-feeder.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/airfair-feeder.8
	install -D -m 0755 $(BUILD)/tools/airfair-stat $(DESTDIR)$(PREFIX)/sbin/airfair-stat
	install -D -m 0644 tools/airfair-stat/airfair-stat.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/airfair-stat.8

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KVER)/updates/sch_airfair.ko
	[ -n "$(DESTDIR)" ] || depmod -a $(KVER)
	$(MAKE) -C tc-extension uninstall DESTDIR=$(DESTDIR)
	rm -f $(DESTDIR)$(PREFIX)/bin/airtime-calc $(DESTDIR)$(PREFIX)/bin/airfair-medium \
		$(DESTDIR)$(PREFIX)/sbin/airfair-feeder $(DESTDIR)$(PREFIX)/sbin/airfair-stat \
		$(DESTDIR)$(PREFIX)/share/man/man1/airtime-calc.1 \
		$(DESTDIR)$(PREFIX)/share/man/man8/airfair-feeder.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/airfair-stat.8

# The DKMS source tree (build/dkms-src/airfair-VERSION); `dkms add` takes its path.
dkms-src:
	@scripts/dkms-src.sh

# The upstream iproute2 patch (git format-patch) in build/iproute2-patch/.
patch: build-deps
	@tc-extension/mkpatch.sh

# Debian packages airfair-dkms and airfair-tools in build/deb/ (lintian's report beside).
deb:
	@scripts/make-deb.sh

clean:
	rm -rf build
