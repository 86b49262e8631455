# SPDX-License-Identifier: GPL-2.0
"""Figures from saved scenario runs (testbed/scenarios.sh):

    build/results/scenarios/NAME/GUEST/meta.txt       kernel, seed, hook, stations
    build/results/scenarios/NAME/GUEST/RUN/QDISC-*    one measured run (run.py)

summarise() reads them into one record per (run, qdisc, guest); aggregate() folds the
guests (seeds x kernels) into mean/min/max; markdown() writes the results report with
the paper's published figures beside ours, plots() the PNGs it links.
"""
import glob
import json
import os
import statistics
import sys

from .metrics import cov, jain, maxmin_fair
from .run import load_run
from .scenario import PUBLISHED_METRICS, RUN_METRICS


def read_meta(path):
    meta = {"stations": []}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "station":
                meta["stations"].append({"index": int(w[1]), "mac": w[2], "rate_down": float(w[3]),
                                         "rate_up": float(w[4]), "link": " ".join(w[5:])})
            else:
                meta[w[0]] = " ".join(w[1:])
    return meta


def summarise(resdir):
    """One dict per measured (guest, run, qdisc) under RESDIR (a scenario's results)."""
    out = []
    for guest in sorted(glob.glob(os.path.join(glob.escape(resdir), "*", "meta.txt"))):
        gdir = os.path.dirname(guest)
        meta = read_meta(guest)
        for rdir in sorted(d for d in glob.glob(os.path.join(glob.escape(gdir), "*"))
                           if os.path.isdir(d)):
            runs = {}
            for m1 in glob.glob(os.path.join(glob.escape(rdir), "*-m1.json")):
                prefix = m1[:-len("-m1.json")]
                runs[os.path.basename(prefix)] = load_run(prefix)
            for q, r in sorted(runs.items()):
                fifo = _fifo(runs, q)
                gps = [s.goodput_mbps for s in r.stations]
                act = r.active
                rec = {
                    "guest": os.path.basename(gdir), "kernel": meta.get("kernel", "?"),
                    "seed": int(meta.get("seed", 0)), "hook": meta.get("hook") == "yes",
                    "seconds": int(meta.get("seconds", 0)),
                    "run": os.path.basename(rdir), "qdisc": q,
                    "jain": r.jain, "jain_backoff": r.jain_backoff,
                    "throughput_jain": (jain(s.goodput_mbps for s in act) if any(gps)
                                        else float("nan")),
                    "shares": r.shares(), "goodput": gps, "goodput_mbps": sum(gps),
                    "busy": r.busy, "idle": r.idle, "late_us": r.late_us,
                    "backlogged": [s.backlogged for s in r.stations],
                    "active": [s.active for s in r.stations],
                    "if_index": r.if_index(),
                    "rtt_p50_ms": r.latency_ms(0.5), "rtt_p99_ms": r.latency_ms(0.99),
                    "ping_loss": (r.pings_lost() / r.pings_sent() if r.pings_sent()
                                  else None),
                    "up_share": r.up_share(),
                    "sessions": [len(s.sessions) for s in r.stations],
                    # gong-wu-williamson: the spread of the transfers' completion times
                    "session_cov": (cov([sec for s in r.stations for _, sec in s.sessions])
                                    if sum(len(s.sessions) for s in r.stations) > 1 else None),
                    "efficiency": r.efficiency(fifo) if fifo else None,
                    "efficiency_backoff": r.efficiency(fifo, backoff=True) if fifo else None,
                    "charge_ratio": charge_ratios(r),
                }
                # max-min: a station under its share was not backlogged in airfair
                # (1/0; None where the qdisc keeps no such figure)
                rec["maxmin"] = (float(maxmin_fair(rec)) if any(
                    b is not None for b in rec["backlogged"]) else None)
                out.append(rec)
    return out


def charge_ratios(r):
    """airfair's charge over the medium's airtime (+ backoff, which the charge includes),
    per active station with both: None where the qdisc keeps no books (not airfair)."""
    xs = [s.charged_us / s.airtime_backoff_us for s in r.active
          if s.charged_us and s.airtime_backoff_us > 0]
    return xs or None


def _target_text(t):
    m, q = t["metric"], t["qdisc"]
    if "vs" in t:
        return f"{q} {m} <= {t['factor']:g} x {t['vs']}'s"
    return f"{q} {m} {'>=' if 'min' in t else '<='} {t.get('min', t.get('max')):g}"


def _fifo(runs, q):
    """The drop-tail reference for qdisc label Q: pfifo, else the pfifo variant with Q's
    suffix (kliazovich: airfair-b50 -> pfifo-b50), else any pfifo variant."""
    if "pfifo" in runs:
        return runs["pfifo"]
    same = "pfifo-" + q.rsplit("-", 1)[-1]
    if same in runs:
        return runs[same]
    return next((r for k, r in sorted(runs.items()) if k.startswith("pfifo")), None)


def judge_targets(sc, records):
    """The scenario's [[targets]] against every guest: one row per (target, run) with the
    worst guest's figure; met only if every guest meets it (None: no data)."""
    rows = []
    for t in sc.targets:
        m, q = t["metric"], t["qdisc"]
        text = _target_text(t)
        for rn in t["runs"]:
            vals = []
            for r in records:
                if r["run"] != rn or r["qdisc"] != q or r.get(m) is None or r[m] != r[m]:
                    continue
                if "vs" in t:
                    ref = next((x.get(m) for x in records if x["guest"] == r["guest"]
                                and x["run"] == rn and x["qdisc"] == t["vs"]), None)
                    if ref:
                        vals.append(r[m] / ref)
                else:
                    vals.append(r[m])
            if not vals:
                rows.append((text, rn, 0, None, None))
                continue
            worst = min(vals) if "min" in t else max(vals)
            if "min" in t:
                met = worst >= t["min"]
            else:
                met = worst <= t.get("max", t.get("factor"))
            rows.append((text, rn, len(vals), worst, met))
    return rows


def _stat(xs):
    xs = [x for x in xs if x is not None and x == x]
    if not xs:
        return None
    return {"mean": statistics.fmean(xs), "min": min(xs), "max": max(xs), "n": len(xs)}


def aggregate(records):
    """(run, qdisc) -> statistics over the guests (seeds x kernels) of each metric."""
    groups = {}
    for r in records:
        groups.setdefault((r["run"], r["qdisc"]), []).append(r)
    out = {}
    for key, rs in groups.items():
        n = max(len(r["shares"]) for r in rs)
        out[key] = {m: _stat([r[m] for r in rs]) for m in RUN_METRICS}
        ratios = [x for r in rs for x in (r.get("charge_ratio") or [])]
        out[key]["charge_ratio"] = (min(ratios), max(ratios)) if ratios else None
        out[key]["shares"] = [statistics.fmean(r["shares"][i] for r in rs if len(r["shares"]) > i)
                              for i in range(n)]
        out[key]["guests"] = sorted({r["guest"] for r in rs})
        out[key]["kernels"] = sorted({r["kernel"] for r in rs})
        out[key]["seconds"] = sorted({r["seconds"] for r in rs})
        out[key]["hook"] = sorted({r["hook"] for r in rs})
    return out


def _fmt(st, digits=4):
    if st is None:
        return "n/a"
    if st["n"] == 1 or st["min"] == st["max"]:
        return f"{st['mean']:.{digits}f}"
    return f"{st['mean']:.{digits}f} ({st['min']:.{digits}f}-{st['max']:.{digits}f})"


def markdown(sc, agg, plots=(), records=()):
    """The scenario's section of docs/results.md."""
    lines = [f"## {sc.title}", "", f"`testbed/scenarios/{sc.name}.toml`" +
             (f", after {sc.paper}" if sc.paper else "") + ".", ""]
    if not agg:
        lines += ["No saved runs: `make scenarios SCENARIOS=" + sc.name + "`.", ""]
        return "\n".join(lines)
    kernels = sorted({k for a in agg.values() for k in a["kernels"]})
    guests = sorted({g for a in agg.values() for g in a["guests"]})
    secs = sorted({x for a in agg.values() for x in a["seconds"]})
    hook = sorted({x for a in agg.values() for x in a["hook"]})
    src = {(True,): "the mac80211 hook", (False,): "airfair-feeder (stock mac80211)"}.get(
        tuple(hook), "the hook in some guests, airfair-feeder in others")
    links = [sc.link(i) for i in range(1, len(sc.stations) + 1)]
    links = f"each {links[0]}" if len(set(links)) == 1 and len(links) > 1 else "; ".join(links)
    lines += [f"{len(sc.stations)} stations ({links}), "
              f"{'/'.join(str(x) for x in secs)} s measured per run, dilation k = {sc.dilation}, "
              f"airfair's rates from {src}; "
              f"{len(guests)} guests (seeds x kernels {', '.join(kernels)}). "
              "Each cell: mean (min-max) over them; airtime from the medium's ground truth, "
              "busy air, and with +backoff chen-yan's airtime (each frame's AIFS and "
              "backoff counted with it, the airtime issue 13's targets read); "
              "efficiency = goodput / the airtime-fair optimum at pfifo's busy air "
              "(+backoff: in chen-yan's airtime, against pfifo's busy + contended time); "
              "charged/air = airfair's own charge over the medium's airtime + backoff, "
              "lowest-highest station; max-min fair = guests in which every station under "
              "0.9 x its share was backlogged in airfair less than 80 % of the time.", ""]
    pub = sc.published
    head = ["run", "qdisc", "airtime Jain"]
    if "jain" in pub:
        head.append("paper")
    head += ["Jain +backoff", "throughput Jain", "goodput Mbit/s"]
    if "goodput_mbps" in pub:
        head.append("paper")
    has_if = any(a["if_index"] for a in agg.values())
    if has_if:
        head += ["IF", "transfer COV"]
    has_up = any(a["up_share"] for a in agg.values())
    if has_up:
        head.append("upload share")
    has_rtt = any(a["rtt_p50_ms"] for a in agg.values())
    if has_rtt:
        head += ["RTT p50 ms", "RTT p99 ms"]
    head += ["efficiency", "+backoff", "busy"]
    has_charge = any(a.get("charge_ratio") for a in agg.values())
    if has_charge:
        head.append("charged/air")
    has_maxmin = any(a.get("maxmin") for a in agg.values())
    if has_maxmin:
        head.append("max-min fair")
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for run in sc.runs:
        for q in run.qdiscs:
            a = agg.get((run.name, q))
            if a is None:
                continue
            row = [run.name, q, _fmt(a["jain"])]
            if "jain" in pub:
                v = pub["jain"].get(run.name, {}).get(q)
                row.append("" if v is None else f"{v:.4f}")
            row += [_fmt(a["jain_backoff"]), _fmt(a["throughput_jain"]),
                    _fmt(a["goodput_mbps"], 2)]
            if "goodput_mbps" in pub:
                v = pub["goodput_mbps"].get(run.name, {}).get(q)
                row.append("" if v is None else f"{v:.2f}")
            if has_if:
                row += [_fmt(a["if_index"], 3), _fmt(a["session_cov"], 3)]
            if has_up:
                row.append(_fmt(a["up_share"], 3))
            if has_rtt:
                row += [_fmt(a["rtt_p50_ms"], 1), _fmt(a["rtt_p99_ms"], 1)]
            row += [_fmt(a["efficiency"], 3), _fmt(a["efficiency_backoff"], 3),
                    _fmt(a["busy"], 3)]
            if has_charge:
                c = a.get("charge_ratio")
                row.append(f"{c[0]:.3f}-{c[1]:.3f}" if c else "")
            if has_maxmin:
                mm = a.get("maxmin")
                row.append("" if mm is None else
                           f"{round(mm['mean'] * mm['n'])}/{mm['n']}")
            lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    judged = judge_targets(sc, records) if sc.targets else []
    if judged:
        lines += ["Targets (every guest must meet them; the worst guest's figure, a ratio for "
                  "a target against another qdisc):", "",
                  "| target | run | guests | worst | met |", "|---|---|---|---|---|"]
        for text, rn, n, worst, met in judged:
            lines.append(f"| {text} | {rn} | {n} | " +
                         ("n/a | no data |" if worst is None else
                          f"{worst:.4f} | {'yes' if met else '**no**'} |"))
        lines.append("")
        for t in sc.targets:
            if t.get("note"):
                lines += [f"*{_target_text(t)}*: {t['note']}", ""]
    if pub:
        lines += [f"Paper: {sc.published_source}.", ""]
    for p in plots:
        lines += [f"![{sc.name}]({p})", ""]
    return "\n".join(lines)


def plots(sc, agg, outdir):
    """Airtime shares per run and qdisc as stacked bars; returns the PNG paths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(outdir, exist_ok=True)
    paths = []
    for run in sc.runs:
        qs = [q for q in run.qdiscs if (run.name, q) in agg]
        if not qs:
            continue
        fig, ax = plt.subplots(figsize=(1.4 * len(qs) + 2, 3.2))
        n = len(sc.stations)
        bottom = [0.0] * len(qs)
        for i in range(n):
            vals = [agg[(run.name, q)]["shares"][i] if i < len(agg[(run.name, q)]["shares"]) else 0
                    for q in qs]
            ax.bar(qs, vals, bottom=bottom, label=f"sta{i + 1}")
            bottom = [b + v for b, v in zip(bottom, vals)]
        for x, q in enumerate(qs):
            j = agg[(run.name, q)]["jain"]
            if j:
                ax.text(x, 1.01, f"J={j['mean']:.3f}", ha="center", va="bottom", fontsize=8)
        ax.axhline(1 / n, color="k", lw=0.5, ls=":")
        ax.set_ylim(0, 1.12)
        ax.set_ylabel("airtime share (medium)")
        ax.set_title(f"{sc.name} {run.name}", fontsize=10)
        ax.legend(fontsize=7, ncol=n, loc="lower center", bbox_to_anchor=(0.5, -0.3))
        fig.tight_layout()
        p = os.path.join(outdir, f"{sc.name}-{run.name}.png")
        fig.savefig(p, dpi=90)
        plt.close(fig)
        paths.append(p)
    return paths


def write_json(path, records):
    with open(path + ".tmp", "w") as f:
        json.dump(records, f, indent=1, default=lambda o: None)
        f.write("\n")
    os.replace(path + ".tmp", path)


HEADER = """# Results: the papers' experiments on the testbed

Generated by `make report` (testbed/analysis/airfair_analysis/report.py) from the raw data
under {results}/; do not edit by hand. Scenarios are data: testbed/scenarios/*.toml
(docs/scenarios.md). Every figure is simulated time through airfair-medium (goodput =
iperf3 x dilation k); airtime is the medium's ground truth, never the qdisc's own
accounting. Each section says how many seconds were measured and in how many guests
(seed x kernel): one guest shows the direction of each result, not the papers'
statistics. Each scenario's targets (the acceptance figures of the issues) are judged on
every guest, the worst shown; under a missed one, the scenario file's note says what the
last measurement found.
"""


def main(argv=None):
    import argparse
    from .scenario import REPO, ScenarioError, load
    ap = argparse.ArgumentParser(prog="airfair_analysis.report",
                                 description="docs/results.md and plots from saved scenario runs")
    ap.add_argument("--results", default=os.path.join(REPO, "build", "results", "scenarios"))
    ap.add_argument("--out", default=os.path.join(REPO, "docs", "results.md"))
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("names", nargs="*", help="scenarios (default: every testbed/scenarios/*.toml)")
    a = ap.parse_args(argv)
    names = a.names or sorted(os.path.basename(p)[:-5] for p in
                              glob.glob(os.path.join(REPO, "testbed", "scenarios", "*.toml")))
    sections = [HEADER.format(results=os.path.relpath(a.results, REPO))]
    plotdir = os.path.join(os.path.dirname(a.out), "results")
    for n in names:
        try:
            sc = load(os.path.join(REPO, "testbed", "scenarios", n + ".toml"))
        except ScenarioError as e:
            print(f"report: {e}", file=sys.stderr)
            return 1
        resdir = os.path.join(a.results, n)
        recs = summarise(resdir) if os.path.isdir(resdir) else []
        if recs:
            write_json(os.path.join(resdir, "summary.json"), recs)
        agg = aggregate(recs)
        pngs = [] if a.no_plots or not agg else plots(sc, agg, plotdir)
        rel = [os.path.relpath(p, os.path.dirname(a.out)) for p in pngs]
        sections.append(markdown(sc, agg, rel, recs))
        print(f"report: {n}: {len(recs)} measured runs, {len(pngs)} plots", file=sys.stderr)
    with open(a.out + ".tmp", "w") as f:
        f.write("\n".join(sections).rstrip("\n") + "\n")
    os.replace(a.out + ".tmp", a.out)
    print(f"report: wrote {os.path.relpath(a.out)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
