#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-MPDU airtime of one saturated station: the medium's ground truth (a --simulate
JSON) against the qdisc's model (airtime-calc). Prints busy(medium) busy(model)
total(medium) total(model) and the larger relative error in %.
Usage: model_vs_medium.py JSON AIRTIME_CALC RATE N  (RATE: mcsN or vhtN/BW)"""
import json
import subprocess
import sys

path, calc, rate, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
link = [x for x in json.load(open(path))["links"] if x["tx"] == 1][0]
busy = (link["data_us"] + link["overhead_us"]) * 1000 / link["frames"]
total = busy + link["backoff_idle_us"] * 1000 / link["frames"]
if rate.startswith("vht"):
    mcs, bw = rate[3:].split("/")
    args = ["--mode", "vht", "--mcs", mcs, "--bw", bw]
else:
    args = ["--mode", "ht", "--mcs", rate[3:], "--bw", "20"]
# the medium's 1500 B MPDU is a 1450 B L3 packet to the model (header, LLC, CCMP, FCS)
m = json.loads(subprocess.check_output([calc, "--phy", "11ac", "--gi", "long", "--nss", "1",
                                        "--len", "1450", "--ampdu", str(n), "--json"] + args))
mbusy = m["direct_ns"] + m["sifs_ns"] + m["ack_ns"]
err = max(abs(mbusy - busy) / busy, abs(m["total_ns"] - total) / total) * 100
print(f"{busy:.0f} {mbusy} {total:.0f} {m['total_ns']} {err:.3f}")
