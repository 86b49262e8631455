#!/usr/bin/env bash
# Run every test CI runs and total them. Host suites first (airtime model, tc plugin
# parsing, medium engine, a minute of fuzzing, build hygiene, the OpenWrt feed), DKMS
# for every kernel, then per kernel: the harness self-test and the VM selftests (on the
# module DKMS installed; the newest kernel's against the Debian packages, make deb's);
# a smoke of every testbed scenario.
# Each suite leaves TAP in build/results/; the last line is "N passed, N failed, N skipped".
# Usage: check.sh [--vm-only] [--require-series] KVER...
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
res=build/results
vm_only=0 require=0
while :; do
	case ${1:-} in
	--vm-only) vm_only=1; shift ;;
	--require-series) require=1; shift ;;	# every supported series must be tested
	*) break ;;
	esac
done
kvers=("$@")
[ ${#kvers[@]} -gt 0 ] || mapfile -t kvers < <(scripts/kernels.sh)
mkdir -p "$res"
rm -f "$res"/*.tap

# A kernel series that is not installed would silently shrink the run: count it failed.
if [ $require = 1 ]; then
	n=0
	for s in 6.1 6.12; do
		n=$((n + 1))
		if printf '%s\n' "${kvers[@]}" | grep -q "^$s\."; then
			echo "ok $n - kernel series $s present ($(printf '%s\n' "${kvers[@]}" | grep "^$s\."))"
		else
			echo "not ok $n - kernel series $s: no release with image, modules and headers (scripts/deps.sh)"
		fi
	done > "$res/kernels.tap"
fi

# Run a suite; if it fails without saying which test failed, record that it crashed.
suite() {
	local name=$1; shift
	local t0=$SECONDS
	echo "=== $name"
	"$@"
	local rc=$?
	if [ $rc -ne 0 ] && ! grep -qs '^not ok' "$res/$name.tap"; then
		echo "not ok 1 - $name exited $rc without reporting a failed test" >> "$res/$name.tap"
	fi
	echo "=== $name: exit $rc, $((SECONDS - t0)) s"
}

if [ $vm_only = 0 ]; then
	suite unit-airtime make -s -C tests/unit check
	suite tc-parse make -s -C tc-extension check
	suite medium-engine make -s -C testbed/medium check
	# the testbed's Python analysis (metrics, saved runs, agreement with fairness.sh)
	suite analysis bash -c "set -o pipefail; python3 testbed/analysis/tests/tap.py | tee '$res/analysis.tap'"
	# a smoke run; "make fuzz" fuzzes longer (FUZZ_SECONDS)
	suite fuzz bash -c "set -o pipefail; make -s -C tests/fuzz run SECONDS=60 | tee '$res/fuzz.tap'"
	# make / make install install no packages and leave /etc alone
	suite hygiene bash -c "set -o pipefail; tests/hygiene/make_hygiene.sh | tee '$res/hygiene.tap'"
	# the OpenWrt feed, as far as it can be built and run without a buildroot
	suite openwrt bash -c "set -o pipefail; scripts/check-openwrt.sh | tee '$res/openwrt.tap'"
fi

for k in "${kvers[@]}"; do
	scripts/build-modules.sh "$k" >/dev/null || echo "not ok 1 - module build for $k" > "$res/build-$k.tap"
done
# DKMS builds and installs the module for every kernel (private trees in build/dkms);
# the VM selftests then load what DKMS installed, as a user's system would.
if [ ${#kvers[@]} -gt 0 ]; then
	suite dkms bash -c "set -o pipefail; scripts/check-dkms.sh ${kvers[*]} | tee '$res/dkms.tap'"
fi

# The Debian packages, built, lintian-clean, DKMS from airfair-dkms's source for the
# newest kernel; that kernel's VM selftests below then run against them as installed
# (airfair-tools' files over the guest's /usr, tc's own plugin directory, the
# package-built module), the other kernel's against this tree's build.
deb_root="" deb_ko=""
if [ $vm_only = 0 ] && [ ${#kvers[@]} -gt 0 ]; then
	suite deb bash -c "set -o pipefail; scripts/check-deb.sh '${kvers[-1]}' | tee '$res/deb.tap'"
	if ! grep -qs '^not ok' "$res/deb.tap"; then
		deb_root=build/deb-root
		deb_ko=$(find "build/deb-dkms/install/${kvers[-1]}" -name 'sch_airfair.ko*' 2>/dev/null | head -n 1)
	fi
fi

# node_exporter for airfair_stat.sh's scrape (unpacked into build/, not installed)
scripts/node-exporter.sh >/dev/null ||
	echo "# node_exporter unavailable: airfair_stat.sh will skip its scrape"

# A guest the emulator kills (vm/emulator-fault.sh) runs again, twice at most, while
# there is time: the selftest runner then runs only the tests that had not finished, so
# a rerun costs a boot and the test that died, a few minutes, not the suite again.
# Without it the run is red anyway. On this project's 2-core machine the suites end 71
# minutes into CI's 90 (6.12's selftests 39-61 minutes in, its hook suite 61-71): a
# rerun may start until 20 minutes before CI's end (the hook suites, the last and 10
# minutes long, until 15), and the smoke after them skips what has no time left. A
# given AIRFAIR_VM_RERUN_UNTIL binds every suite.
check_t0=${AIRFAIR_CHECK_T0:-$(($(date +%s) - SECONDS))}
ci_end=$((check_t0 + 5400))	# CI stops a run at 90 minutes
export AIRFAIR_VM_RERUNS=${AIRFAIR_VM_RERUNS:-2}
hook_rerun_until=${AIRFAIR_VM_RERUN_UNTIL:-$((ci_end - 900))}
export AIRFAIR_VM_RERUN_UNTIL=${AIRFAIR_VM_RERUN_UNTIL:-$((ci_end - 1200))}

for k in "${kvers[@]}"; do
	ko=$(find "build/dkms/install/$k/updates/dkms" -name 'sch_airfair.ko*' 2>/dev/null | head -n 1)
	suite "harness-$k" scripts/harness-selftest.sh "$k" "$res/harness-$k.tap"
	if [ "$k" = "${kvers[-1]}" ] && [ -n "$deb_ko" ]; then
		suite "selftest-$k" bash -c "set -o pipefail; unset TC_LIB_DIR
		export AIRFAIR_INSTALLED=1 AIRFAIR_KO='$PWD/$deb_ko' AIRFAIR_FEEDER_BIN=/usr/sbin/airfair-feeder
		echo '# module under test: $deb_ko (airfair-dkms); tools: airfair-tools installed'
		vm/run.sh --kver '$k' --timeout 2400 -- bash -c \"cp -a '$PWD/$deb_root/usr/.' /usr/ &&
			bash selftests/run_tests.sh\" | tee '$res/selftest-$k.tap'"
	else
		suite "selftest-$k" bash -c "set -o pipefail; [ -n '$ko' ] && export AIRFAIR_KO='$PWD/$ko'
		echo '# module under test: ${ko:-build/$k/sch_airfair.ko}'
		vm/run.sh --kver '$k' --timeout 2400 -- bash selftests/run_tests.sh | tee '$res/selftest-$k.tap'"
	fi
	# The mac80211 hook: the same kernel booted with the patched mac80211.ko; the
	# download fairness test then takes rates from the hook and runs airfair-default;
	# stations join and leave under load while the hook answers for them. With them
	# the testbed's hwsim (A-MPDU TX status): minstrel_ht adapts while the medium
	# aggregates.
	suite "hook-$k" bash -c "set -o pipefail; export AIRFAIR_VM_RERUN_UNTIL=$hook_rerun_until
		mac80211-patches/build.sh '$k' >/dev/null || exit 1
		testbed/hwsim-patches/build.sh '$k' >/dev/null || exit 1
		vm/run.sh --kver '$k' --timeout 1200 --modules 'build/$k/mac80211' --modules 'build/$k/hwsim' -- \
			bash selftests/run_tests.sh hook_basic.sh hook_mlo.sh hook_refused.sh hook_txop.sh source_medium.sh fairness_download.sh feeder_sta_window.sh \
				airfair_churn.sh medium_ampdu.sh |
			tee '$res/hook-$k.tap'"
done

# Every scenario of testbed/scenarios/ (the papers' experiments as data): its first run
# under pfifo and airfair, 8 s, on the newest kernel with the hook; the figures are
# computed on the host (testbed/analysis) and checked (airfair_analysis.smoke).
# CI has 90 minutes: the smoke gets what is left of AIRFAIR_CHECK_BUDGET_S (from
# .ci/run's start; 75 minutes, so that a guest started at its end, 2-3 minutes, at
# most its 442 s timeout, still ends inside CI's 90), the scenarios most telling first;
# those it cannot fit are reported as SKIP (at 63 minutes, the budget before, every one
# was on this machine, where the suites above end 71 minutes in).
smoke_order=""
for n in mixed demo chen-yan-vht ht; do	# first; then the others as they come
	[ -f "testbed/scenarios/$n.toml" ] && smoke_order+=" $n"
done
for f in testbed/scenarios/*.toml; do
	n=$(basename "$f" .toml)
	[[ " $smoke_order " == *" $n "* ]] || smoke_order+=" $n"
done
# A smoke guest takes 2-3 minutes: with less left than that, none boots (the first
# used to boot whatever was left, and CI ran to 87 of its 90 minutes after a rerun).
smoke_budget=$(( ${AIRFAIR_CHECK_BUDGET_S:-4500} - ($(date +%s) - check_t0) ))
[ $smoke_budget -ge 180 ] || smoke_budget=0
if [ ${#kvers[@]} -gt 0 ]; then
	suite scenarios bash -c "set -o pipefail; rm -rf build/results/smoke
		echo '# smoke budget: $smoke_budget s'
		testbed/scenarios.sh --smoke --kver '${kvers[-1]}' --out build/results/smoke \
			--budget $smoke_budget $smoke_order >&2
		PYTHONPATH=testbed/analysis python3 -m airfair_analysis.smoke build/results/smoke |
			tee '$res/scenarios.tap'"
fi

scripts/summary.sh "$res"
