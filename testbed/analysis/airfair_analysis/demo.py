# SPDX-License-Identifier: GPL-2.0
"""make demo's tables, from one guest's saved scenario runs (testbed/demo.sh):

    python3 -m airfair_analysis.demo build/results/demo/demo/KVER-sSEED

Per run and qdisc: each station's PHY rates, goodput, ground-truth airtime and share,
airfair's own estimate and the time it was backlogged in airfair; Jain's index over the
airtime, the busy air, the efficiency against the airtime-fair optimum (in busy air and
in chen-yan's airtime); then a summary and, for scripts, lines `efficiency: QDISC RUN X
...` and `efficiency+backoff: QDISC RUN X ...` for airfair and airfair-default.
"""
import glob
import os
import sys

from .report import read_meta
from .run import load_run, medium_conf
from .smoke import plan_values


def _read(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def _eff(x):
    return "n/a" if x is None else f"{x:.3f}"


def _ms(x):
    return "unanswered" if x == float("inf") else f"{x:.1f}"


def show(gdir, out=sys.stdout):
    meta = read_meta(os.path.join(gdir, "meta.txt"))
    runs = plan_values(os.path.join(gdir, "plan.in"))
    sta = meta["stations"]
    n = len(sta)
    p = lambda *a: print(*a, file=out)
    p(f"sch_airfair demo ({meta.get('scenario')}): kernel {meta.get('kernel')}, {n} stations, "
      f"{' then '.join(runs)}, {meta.get('seconds')} s per run (+{meta.get('omit')} s left out)")
    confs = sorted(glob.glob(os.path.join(glob.escape(gdir), "*", "*-medium.conf")))
    phy = medium_conf(confs[0][:-len("-medium.conf")], "phy") if confs else None
    p(f"medium: airfair-medium, {phy or 'PHY unknown'}, dilation k={meta.get('dilation')} "
      "(goodput and airtime below are simulated: iperf3 x k)")
    p("mac80211: " + ("patched (mac80211-patches/): airfair takes rate, loss and pending airtime "
                      "from its TX report hook" if meta.get("hook") == "yes" else
                      "stock: airfair takes rate and loss from airfair-feeder (nl80211)"))
    for s in sta:
        p(f"  sta{s['index']} {s['mac']}: {s['link']}; minstrel: AP->sta {s['rate_down']:g} Mbit/s, "
          f"sta->AP {s['rate_up']:g} Mbit/s")
    summary, eff = [], {}
    for run, qdiscs in runs.items():
        fifo = None
        for q in qdiscs:
            prefix = os.path.join(gdir, run, q)
            p("")
            p(f"== {q}, {run} ==")
            if not os.path.exists(prefix + "-m1.json"):
                why = [ln.split(" ", 3)[-1] for ln in _read(os.path.join(gdir, "skipped.txt")).splitlines()
                       if ln.startswith(f"{run} {q} ")]
                p("skipped: " + (why[0] if why else "no data (see log.txt)"))
                summary.append((q, run, None))
                continue
            r = load_run(prefix)
            if q == "pfifo":
                fifo = r
            shares = r.shares()
            charged = [s.charged_us for s in r.stations]
            ctot = sum(c for c in charged if c) or 0
            p(f"{'station':<7} {'PHY Mbit/s':>13} {'goodput':>9} {'airtime ms':>11} {'share':>6}"
              + (f" {'airfair':>8} {'backlogged':>10}" if ctot else ""))
            p(f"{'':<7} {'AP>sta sta>AP':>13} {'Mbit/s':>9} {'(medium)':>11} {'':>6}"
              + (f" {'estimate':>8} {'in airfair':>10}" if ctot else ""))
            for i, s in enumerate(r.stations):
                m = sta[i] if i < n else {"rate_down": 0, "rate_up": 0}
                line = (f"sta{i + 1:<4} {m['rate_down']:>6g} {m['rate_up']:>6g} {s.goodput_mbps:>9.2f} "
                        f"{s.airtime_us / 1000:>11.1f} {100 * shares[i]:>5.1f}%")
                if ctot:
                    est = f"{100 * charged[i] / ctot:.1f}%" if charged[i] is not None else "?"
                    bkl = f"{100 * s.backlogged:.0f}%" if s.backlogged is not None else "?"
                    line += f" {est:>8} {bkl:>10}"
                p(line)
            p(f"Jain's index (airtime, medium ground truth): {r.jain:.4f}   total goodput "
              f"{r.goodput_mbps:.2f} Mbit/s")
            p(f"  with each frame's AIFS + backoff counted too (chen-yan's airtime): {r.jain_backoff:.4f}")
            note = _read(prefix + "-qdisc.txt")
            if note:
                p(f"  {note}")
            if r.latency_ms(0.5) is not None:
                p(f"latency under load (each station's ping to the server, simulated ms): "
                  f"median {_ms(r.latency_ms(0.5))}, p99 {_ms(r.latency_ms(0.99))}"
                  + (f"; {r.pings_lost()} of {r.pings_sent()} pings unanswered"
                     if r.pings_lost() else ""))
            peaks = _read(prefix + "-peaks.txt", "? ?").split()
            p(f"channel busy {100 * r.busy:.1f} % of {r.sim_us / 1e6:.1f} s simulated; peak backlog: "
              f"{q} {peaks[0]} packets, below it (AP queue in the medium) {peaks[-1]}")
            lost = _read(prefix + "-hwsim-lost.txt", "").split()
            if len(lost) == 2:
                p(f"frames hwsim freed before the medium saw them (the guest fell behind): "
                  f"AP {lost[0]}, stations {lost[1]}")
            e = eb = None
            if fifo is not None:
                e, eb = r.efficiency(fifo), r.efficiency(fifo, backoff=True)
                p(f"efficiency {e:.3f}: goodput / the airtime-fair optimum (each station's 1/{n} of "
                  f"pfifo's {100 * fifo.busy:.1f} % busy air at its goodput per second of air here)")
                p(f"  {eb:.3f} with chen-yan's airtime (each frame's AIFS + backoff counted, against "
                  f"pfifo's {100 * (fifo.busy + fifo.contended):.1f} % busy + contended); "
                  f"channel contended idle {100 * r.contended:.1f} %")
            if q.startswith("airfair"):
                for ln in _read(prefix + "-tc.txt").splitlines()[:6]:
                    p(f"  tc: {ln}")
            eff[(q, run)] = (e, eb)
            summary.append((q, run, (r, e, eb)))
    p("")
    p("== summary: Jain's index over the medium's ground-truth airtime (1.0 = equal; "
      f"1/{n} = one station has it all) ==")
    p("   +backoff: with each frame's AIFS + backoff (chen-yan's airtime); shares and goodput "
      "(simulated Mbit/s) as above;")
    p("   eff: goodput / airtime-fair optimum (pfifo's busy air is the reference), eff+b the same "
      "with chen-yan's airtime; busy: channel %")
    p(f"  {'qdisc':<18} {'run':<6} {'Jain':<7} {'+backoff':<8} "
      + " ".join(f"{f'sta{i + 1}%':>6}" for i in range(n))
      + f" {'Mbit/s':>6} {'eff':>6} {'eff+b':>6} {'busy':>5}")
    for q, run, v in summary:
        if v is None:
            p(f"  {q:<18} {run:<6} skipped")
            continue
        r, e, eb = v
        p(f"  {q:<18} {run:<6} {r.jain:<7.4f} {r.jain_backoff:<8.4f} "
          + " ".join(f"{100 * x:>6.1f}" for x in r.shares())
          + f" {r.goodput_mbps:>6.2f} {_eff(e):>6} {_eff(eb):>6} {100 * r.busy:>5.1f}")
    for i, label in enumerate(("efficiency", "efficiency+backoff")):
        for q in ("airfair", "airfair-default"):
            p(f"{label}: {q}" + "".join(f" {run} {_eff(eff.get((q, run), (None, None))[i])}"
                                        for run in runs))
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or not os.path.exists(os.path.join(argv[0], "meta.txt")):
        print("usage: python3 -m airfair_analysis.demo GUESTDIR (with meta.txt and plan.in)",
              file=sys.stderr)
        return 2
    return show(argv[0])


if __name__ == "__main__":
    sys.exit(main())
