# SPDX-License-Identifier: GPL-2.0
"""airfair-analysis DIR: every measured run saved under DIR (a scenario's results,
build/results/scenarios/NAME, or one guest's) as one JSON object per line: airtime and
throughput Jain, Jain with backoff, shares, goodput, busy air, backlogged shares and the
efficiency against the same guest's pfifo run. The other entry points:
python3 -m airfair_analysis.{scenario,report,demo,smoke,charges}."""
import argparse
import json
import os
import sys

from .report import summarise


def main(argv=None):
    ap = argparse.ArgumentParser(prog="airfair-analysis", description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    a = ap.parse_args(argv)
    d = os.path.normpath(a.dir)
    recs = summarise(os.path.dirname(d)) if os.path.exists(os.path.join(d, "meta.txt")) else summarise(d)
    if os.path.exists(os.path.join(d, "meta.txt")):
        recs = [r for r in recs if r["guest"] == os.path.basename(d)]
    if not recs:
        print(f"airfair-analysis: no saved run in {a.dir}", file=sys.stderr)
        return 1
    for r in recs:
        print(json.dumps(r, default=lambda o: None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
