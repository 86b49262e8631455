# SPDX-License-Identifier: GPL-2.0
"""airfair-analysis RUNDIR: every run saved there (AIRFAIR_DEMO_SAVE=RUNDIR make demo)
as one JSON object per line: Jain (busy air and with backoff), shares, goodput,
backlogged shares, and the efficiency against the same direction's pfifo run."""
import argparse
import glob
import json
import os
import sys

from .metrics import efficiency
from .run import load_run


def main(argv=None):
    ap = argparse.ArgumentParser(prog="airfair-analysis", description=__doc__.splitlines()[0])
    ap.add_argument("rundir")
    args = ap.parse_args(argv)
    prefixes = sorted(p[:-len("-m1.json")] for p in
                      glob.glob(os.path.join(glob.escape(args.rundir), "*-m1.json")))
    if not prefixes:
        print(f"airfair-analysis: no saved run in {args.rundir}", file=sys.stderr)
        return 1
    runs = {os.path.basename(p): load_run(p) for p in prefixes}
    for name, r in runs.items():
        qdisc, _, direction = name.rpartition("-")
        fifo = runs.get(f"pfifo-{direction}")
        out = {
            "qdisc": qdisc, "dir": direction,
            "jain": round(r.jain, 4), "jain_backoff": round(r.jain_backoff, 4),
            "shares": [round(s, 4) for s in r.shares()],
            "goodput_mbps": round(r.goodput_mbps, 3), "busy": round(r.busy, 4),
            "backlogged": [None if s.backlogged is None else round(s.backlogged, 3)
                           for s in r.stations],
            "efficiency": None if fifo is None else round(efficiency(
                [s.goodput_mbps for s in r.stations], [s.airtime_us for s in r.stations],
                r.sim_us, fifo.busy), 3),
        }
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
