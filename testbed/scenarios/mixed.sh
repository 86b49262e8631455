# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Mixed traffic on five stations at 54, 36, 24, 12 and 6 Mbit/s, one of them lossy: TCP
# downloads and uploads at once and a UDP flood, so that no single direction or transport
# decides the shares. Station i is radio i; the cap pins minstrel's rate (attempts above
# fail), SNR 35 is otherwise clean. Source after selftests/lib.sh; runs with `fair_run Q
# mixed SECS` (testbed/demo.sh: AIRFAIR_DEMO_SCENARIO=mixed). docs/fairness.md.
FAIR_NSTA=5
FAIR_SNR=("" 35 35 19 35 11)
FAIR_LINK=("" "snr 35" "snr 35 rate-cap 36" "snr 19" "snr 35 rate-cap 12 loss 0.2" "snr 11 rate-cap 6")
FAIR_FLOWS=("" "tcp-down" "tcp-up udp-down:40M" "tcp-down" "tcp-up" "tcp-down tcp-up")
# shellcheck source=fairness.sh
. "$(dirname "${BASH_SOURCE[0]}")/fairness.sh"
