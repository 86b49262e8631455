# SPDX-License-Identifier: GPL-2.0
"""python3 -m airfair_analysis.meter PREFIX: the airtime meter over one saved run with
a class trace (testbed/scenarios.sh --trace; PREFIX as load_run takes it, e.g.
DIR/airfair-default). Between consecutive samples of the qdisc (about one a second):
the air airfair charged per second of real time, the grant in force at the sample
(`utilisation_q16`), the meter's and pending-limit's stalls, and the pending limit.
A grant well above the charged rate means the meter did not bind (docs/qdisc.md,
"The airtime meter"); a grant at or under it with stalls means it did."""
import json
import statistics
import sys

from .charges import prefix_main


def samples(prefix):
    """The trace's qdisc samples in time order: a dict per sample with t (s, real
    time), airtime_us, grant (share of real time) and the stall counters."""
    out = []
    with open(prefix + "-class-trace.txt") as f:
        for line in f:
            stamp, _, rest = line.partition(" ")
            if not rest.startswith("["):
                continue    # a class line
            q = json.loads(rest)[0]
            out.append({"t": float(stamp), "airtime_us": q["airtime_us"],
                        "grant": q.get("utilisation_q16", 0) / 65536,
                        "meter_stalls": q.get("meter_stalls", 0),
                        "pending_stalls": q.get("pending_stalls", 0),
                        "pending_limit_us": q.get("pending_limit_us")})
    if len(out) < 2:
        raise ValueError("fewer than two qdisc samples in the class trace")
    return out


def intervals(prefix):
    """Per pair of consecutive samples: t from the first sample, the charged rate (share
    of real time), the grant at its end and the stalls in between."""
    s = samples(prefix)
    out = []
    for a, b in zip(s, s[1:]):
        dt = b["t"] - a["t"]
        if dt <= 0:
            continue
        out.append({"t": b["t"] - s[0]["t"],
                    "charged": (b["airtime_us"] - a["airtime_us"]) / 1e6 / dt,
                    "grant": b["grant"],
                    "meter_stalls": b["meter_stalls"] - a["meter_stalls"],
                    "pending_stalls": b["pending_stalls"] - a["pending_stalls"],
                    "pending_limit_us": b["pending_limit_us"]})
    return out


def show(rows, out=sys.stdout):
    print("     t s  charged %  grant %  grant/charged  meter stalls  pending stalls  "
          "pending limit us", file=out)
    for r in rows:
        ratio = f"{r['grant'] / r['charged']:.2f}" if r["charged"] > 0 else "-"
        lim = "-" if r["pending_limit_us"] is None else str(r["pending_limit_us"])
        print(f"{r['t']:8.1f}  {100 * r['charged']:9.2f}  {100 * r['grant']:7.2f}  "
              f"{ratio:>13}  {r['meter_stalls']:>12}  {r['pending_stalls']:>14}  {lim:>16}",
              file=out)
    ratios = [r["grant"] / r["charged"] for r in rows if r["charged"] > 0]
    bound = sum(1 for r in rows if r["meter_stalls"] > 0)
    if ratios:
        print(f"median grant/charged {statistics.median(ratios):.2f}; the meter held "
              f"packets in {bound} of {len(rows)} intervals", file=out)


def main(argv=None):
    return prefix_main("meter", intervals, show, argv)


if __name__ == "__main__":
    sys.exit(main())
