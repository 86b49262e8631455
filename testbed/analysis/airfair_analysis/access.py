# SPDX-License-Identifier: GPL-2.0
"""python3 -m airfair_analysis.access PREFIX [PREFIX...]: how one saved run's air was
spent on accesses, from the medium's ground truth over the run's window (PREFIX as
load_run takes it, e.g. DIR/down/airfair-default). The channel's busy share and its
contended idle (AIFS and backoff while someone waited to send) over the simulated
time; then per link (sender -> receiver) and access category the busy air, the idle
its accesses were counted, the MPDUs delivered, the PPDU attempts and the MPDUs per
A-MPDU. Several prefixes are shown one after the other, so that runs of one guest
(pfifo beside airfair) can be read side by side: a schedule that sends the same
frames in more PPDUs, or splits one station's frames between two access categories
(each aggregated apart), pays an access for each."""
import json
import sys

from .charges import window

AC_ORDER = ("vo", "vi", "be", "bk")


def _load(path):
    with open(path) as f:
        return json.load(f)["medium"]


def breakdown(prefix):
    """The medium's counters over the window PREFIX-m0.json .. PREFIX-m1.json: a dict
    with `sim_us`, `busy`, `contended_idle` (shares of the window's simulated time,
    None without channel counters) and `links`, a list of per (tx, rx, ac) dicts (the
    radios' names, and charges.window()'s figures of that AC), links with no attempt in
    the window left out, in sender, receiver, AC order."""
    m0, m1 = _load(prefix + "-m0.json"), _load(prefix + "-m1.json")
    sim_us = m1["sim_time_us"] - m0["sim_time_us"]
    busy = idle = None
    if m1.get("channels") and m0.get("channels") and sim_us > 0:
        c0, c1 = m0["channels"][0], m1["channels"][0]
        busy = (c1["busy_us"] - c0["busy_us"]) / sim_us
        idle = (c1.get("contended_idle_us", 0) - c0.get("contended_idle_us", 0)) / sim_us
    names = {(link["tx"], link["rx"], link["ac"]):
             (link.get("tx_name", str(link["tx"])), link.get("rx_name", str(link["rx"])))
             for link in m1["links"]}
    out = []
    for tx, rx, ac in sorted(names, key=lambda k: (k[0], k[1] if k[1] >= 0 else 1 << 30,
                                                   AC_ORDER.index(k[2])
                                                   if k[2] in AC_ORDER else 9)):
        w = window(m0["links"], m1["links"], tx, rx, ac)
        if w["attempts"] > 0:
            out.append({"tx": names[tx, rx, ac][0], "rx": names[tx, rx, ac][1], "ac": ac, **w})
    return {"sim_us": sim_us, "busy": busy, "contended_idle": idle, "links": out}


def show(name, b, out=None):
    out = out or sys.stdout
    pct = (lambda v: "n/a" if v is None else f"{100 * v:.1f} %")
    print(f"== {name}: {b['sim_us'] / 1e3:.0f} ms simulated, channel busy "
          f"{pct(b['busy'])}, contended idle {pct(b['contended_idle'])}", file=out)
    print(f"{'link':<14} {'ac':<3} {'busy ms':>8} {'idle ms':>8} {'MPDUs':>6} "
          f"{'PPDUs':>6} {'A-MPDUs':>7} {'MPDUs/A-MPDU':>12}", file=out)
    for d in b["links"]:
        per = f"{d['ampdu_mpdus'] / d['ampdus']:.1f}" if d["ampdus"] > 0 else "-"
        print(f"{d['tx'] + '>' + d['rx']:<14} {d['ac']:<3} {d['busy_us'] / 1e3:8.1f} "
              f"{d['idle_us'] / 1e3:8.1f} {d['frames']:6d} {d['attempts']:6d} "
              f"{d['ampdus']:7d} {per:>12}", file=out)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python3 -m airfair_analysis.access PREFIX...  "
              "(e.g. DIR/down/pfifo DIR/down/airfair-default)", file=sys.stderr)
        return 2
    for i, prefix in enumerate(argv):
        try:
            b = breakdown(prefix)
        except (OSError, ValueError, KeyError, IndexError) as e:
            print(f"airfair_analysis.access: {prefix}: {e}", file=sys.stderr)
            return 1
        if i:
            print()
        show(prefix.rstrip("/").rsplit("/", 1)[-1], b)
    return 0


if __name__ == "__main__":
    sys.exit(main())
