# SPDX-License-Identifier: GPL-2.0
"""python3 -m airfair_analysis.charges PREFIX: where airfair's charge for each station
went against the medium's ground truth, by direction, for one saved run (PREFIX as
load_run takes it, e.g. DIR/airfair). Per station: what airfair charged (at dequeue and
what the hook's running counts settled, `settled ms`), the medium's air + the idle
before each access (chen-yan's airtime) down (AP -> station) and up (station -> AP), the
charge over the AP's air to the station and all its accesses waited (`/down+waited`: the
medium's waited_us, which counts the slots another sender's win took from the countdown,
less its rewaited_us, the AIFS of each round lost: one AIFS and the backoff an attempt,
as the charge models them; what airfair charges, where the station's own frames it does
not see, such as replies to pings, are left out), frames delivered each way, the upload
frames airfair counted, and the ground truth per delivered frame; and of the AP's PPDU
attempts to it, the share that got no ACK or BlockAck (what doubles the window) and the
AIFS + backoff each waited (docs/airtime-model.md, A-MPDU), beside what a window
doubling at that share would make it (`doubling us/attempt`: AIFS + the mean backoff of
a chain that doubles its window with each failure, airtime_ref; from the run's medium
config, AC BE), and the idle the charge takes per attempt from the window the hook saw
them wait (`hook us/attempt`: AIFS + the mean backoff at the class trace's mean
`cw_scale`, mac80211 patch 397), and that window beside the medium's (`window
medium/hook`: CWmin + 1 each attempt's backoff was drawn from, over the attempts).
Where others contend they share the idle and the medium's is lower. An upload charged
well above its air shows here as `up us/frame` below `charged/air`'s excess
(docs/mac80211-hook.md, Uplink). A second table sets the download's MPDUs per PPDU
attempt and PPDU attempts per delivered MPDU beside the figures the charge takes them
from (show_inputs). With --from S (steady state) every figure is taken from the class
trace's first sample at least S seconds after its first one to its last, so that rate
control's first seconds are left out: the trace must carry the medium's links
(testbed/scenarios.sh --trace saves them beside airfair's classes); with --tail T too,
to its last sample at least T seconds before its end, leaving out the run's last seconds,
where the floods stop, a lossy station's last chains run long and their statuses are
still to come."""
import json
import sys

from .run import _classes, charged_us, medium_conf
from .scenario import airtime_ref


def _links(path):
    with open(path) as f:
        return json.load(f)["medium"]["links"]


def window(m0, m1, tx, rx, ac=None):
    """The link tx -> rx over the window (m1 - m0), every AC or only `ac`: air + idle, the
    idle alone, frames (MPDUs delivered), attempts (PPDUs), those without an ACK or
    BlockAck, A-MPDU attempts and their MPDUs, bytes, the PPDU attempts the TX statuses told rate control
    and the hook (0 from a medium that does not count them), the windows their backoffs
    were drawn from in CWmin + 1 (cw_units, 0 from an older medium) and the bytes first
    tried at each rate."""
    out = {"air_us": 0.0, "idle_us": 0.0, "waited_us": 0.0, "busy_us": 0.0, "frames": 0,
           "attempts": 0, "ppdu_failures": 0,
           "ampdus": 0, "ampdu_mpdus": 0, "bytes": 0, "told": 0, "told_mpdus": 0, "cw_units": 0,
           "mpdu_byte_us": 0.0, "told_byte_us": 0.0, "model_us": 0.0,
           "idle_due_us": 0.0, "idle_var_us2": 0.0, "ltfs": 0,
           "first_rate_bytes": {}}
    for links, sign in ((m1, 1), (m0, -1)):
        for link in links:
            if link["tx"] != tx or link["rx"] != rx or ac not in (None, link["ac"]):
                continue
            out["air_us"] += sign * (link.get("airtime_us", 0) + link.get("backoff_idle_us", 0))
            out["idle_us"] += sign * link.get("backoff_idle_us", 0)
            out["busy_us"] += sign * link.get("airtime_us", 0)
            out["waited_us"] += sign * (link.get("waited_us", link.get("backoff_idle_us", 0)) -
                                        link.get("rewaited_us", 0))
            for k in ("frames", "attempts", "ppdu_failures", "ampdus", "ampdu_mpdus", "bytes",
                      "told", "told_mpdus", "cw_units", "mpdu_byte_us", "told_byte_us", "model_us",
                      "idle_due_us", "idle_var_us2", "ltfs"):
                out[k] += sign * link.get(k, 0)
            frb = out["first_rate_bytes"]
            for rate, n in link.get("first_rate_bytes", {}).items():
                frb[rate] = frb.get(rate, 0) + sign * n
    return out


def mpdu_loss(w):
    """The share of MPDU attempts that failed on a window() of a link: the medium counts
    a link's attempts per PPDU, and an A-MPDU attempt tries each of its MPDUs. None
    without attempts."""
    tries = w["attempts"] - w["ampdus"] + w["ampdu_mpdus"]
    return 1 - w["frames"] / tries if tries > 0 else None


def _trace(prefix):
    """The class trace's samples in time order: (time s, [stations' class JSON],
    medium links or None) per sample; [] without a trace."""
    try:
        f = open(prefix + "-class-trace.txt")
    except OSError:
        return []
    by_t = {}
    with f:
        for line in f:
            stamp, _, rest = line.partition(" ")
            if not rest.startswith("{"):
                continue
            rec = by_t.setdefault(float(stamp), [[], None])
            obj = json.loads(rest)
            if "station" in obj:
                rec[0].append(obj["station"])
            elif "medium" in obj:
                rec[1] = obj["medium"]["links"]
    return [(t, st, links) for t, (st, links) in sorted(by_t.items())]


def steady_window(trace, skip_s, tail_s=0.0):
    """A _trace()'s first sample at least skip_s seconds after its first and its last at
    least tail_s seconds before its last, of those that have the medium's links, as
    (time, classes by MAC, medium links) each: airfair's classes and the medium's links
    read together at both ends (the run's end snapshots are taken apart). ValueError
    without two such samples."""
    samples = [(t, {st["addr"]: st for st in stations if "addr" in st}, links)
               for t, stations, links in trace if links is not None]
    if not samples:
        raise ValueError("the class trace has no medium links (testbed/scenarios.sh "
                         "--trace, from session 47 on)")
    t0 = trace[0][0]
    start = next((s for s in samples if s[0] - t0 >= skip_s), None)
    end = next((s for s in reversed(samples) if trace[-1][0] - s[0] >= tail_s), None)
    if start is None or end is None or end[0] <= start[0]:
        raise ValueError(f"the class trace ends before {skip_s} s"
                         + (f" + {tail_s} s" if tail_s else ""))
    return start, end


def hook_means(samples, since=None, radios=None):
    """Per station MAC, the hook's A-MPDU length (MPDUs per PPDU), loss, MPDUs
    acknowledged per PPDU attempt and the window its attempts waited (`cw_scale`; None
    where it reports none) averaged over a _trace()'s samples of it (testbed/scenarios.sh
    --trace), from the sample at time since on; {} without a trace.
    One snapshot at the end of a run says little: both move by tens of per cent from one
    report to the next on a dilated medium. Where every sample carries the medium's links
    and radios maps the MACs to their radios, each sample weighs the AP's PPDU attempts
    to the station since the sample before: the hook's figures are over its last PPDUs,
    and a window that read a long chain keeps it until later PPDUs push it out, longest
    where attempts are fewest, so a mean over time overweighs it."""
    weighted = radios is not None and all(links is not None for _, _, links in samples)
    sums = {}
    prev = None
    for t, stations, links in samples:
        att = {}
        for link in links if weighted else ():
            if link["tx"] == 0:
                att[link["rx"]] = att.get(link["rx"], 0) + link.get("attempts", 0)
        if since is not None and t < since:
            prev = att
            continue
        for st in stations:
            if st.get("source") != "hook" or not st.get("ampdu_x16"):
                continue
            w = 1
            if weighted:
                i = radios.get(st.get("addr"))
                w = att.get(i, 0) - prev.get(i, 0) if prev is not None else 0
            a = sums.setdefault(st["addr"], [0, 0.0, 0.0, 0, 0.0, 0, 0.0])
            a[0] += w
            a[1] += w * st["ampdu_x16"] / 16
            a[2] += w * st.get("loss", 0) / 65536
            if st.get("acked_x16"):
                a[3] += w
                a[4] += w * st["acked_x16"] / 16
            if st.get("cw_scale_x16"):
                a[5] += w
                a[6] += w * st["cw_scale_x16"] / 16
        prev = att
    return {mac: (a / n, q / n, k / m if m else None, w / c if c else None)
            for mac, (n, a, q, m, k, c, w) in sums.items() if n}


def breakdown(prefix, skip_s=None, tail_s=0.0):
    """A dict per station of the run under PREFIX (see the module's text); the medium's
    figures are the window's (m1 - m0), airfair's c1 - c0 (None without class stats);
    with skip_s, over steady_window() (and tail_s) instead of m0 - m1 and c0 - c1."""
    with open(prefix + "-stations.txt") as f:
        stations = [(int(i), mac) for i, mac in (line.split() for line in f if line.strip())]
    m0, m1 = _links(prefix + "-m0.json"), _links(prefix + "-m1.json")
    try:
        c0, c1 = _classes(prefix + "-c0.json"), _classes(prefix + "-c1.json")
    except OSError:
        c0 = c1 = None
    trace = _trace(prefix)
    since = None
    if skip_s is not None:
        (since, c0, m0), (_, c1, m1) = steady_window(trace, skip_s, tail_s)
    means = hook_means(trace, since, {mac: i for i, mac in stations})
    out = []
    for i, mac in sorted(stations):
        rec = {"station": i, "mac": mac}
        for d, (tx, rx) in (("down", (0, i)), ("up", (i, 0))):
            rec[d] = window(m0, m1, tx, rx)
        air = rec["down"]["air_us"] + rec["up"]["air_us"]
        rec["charged_us"] = rec["upload_frames"] = rec["charge_ratio"] = None
        rec["waited_ratio"] = None
        rec["hook_ampdu"] = rec["hook_loss"] = rec["hook_acked"] = rec["hook_cw"] = None
        rec["told_air_us"] = rec["told_wait_us"] = rec["told"] = None
        if c1 is not None and mac in c1:
            after, before = c1[mac], c0.get(mac, {})
            if mac in means:
                (rec["hook_ampdu"], rec["hook_loss"], rec["hook_acked"],
                 rec["hook_cw"]) = means[mac]
            elif after.get("ampdu_x16"):
                rec["hook_ampdu"] = after["ampdu_x16"] / 16
                rec["hook_loss"] = after.get("loss", 0) / 65536
                rec["hook_acked"] = after["acked_x16"] / 16 if after.get("acked_x16") else None
                rec["hook_cw"] = (after["cw_scale_x16"] / 16 if after.get("cw_scale_x16")
                                  else None)
            rec["charged_us"] = charged_us(after) - charged_us(before)
            rec["settled_us"] = after.get("settled_us", 0) - before.get("settled_us", 0)
            rec["upload_frames"] = after.get("upload_frames", 0) - before.get("upload_frames", 0)
            if "told_air_us" in after:
                for k in ("told_air_us", "told_wait_us"):
                    rec[k] = after.get(k, 0) - before.get(k, 0)
            if "told" in after:
                rec["told"] = {k: v - before.get("told", {}).get(k, 0)
                               for k, v in after["told"].items()}
            rec["charge_ratio"] = rec["charged_us"] / air if air > 0 else None
            # the AP's own frames to it, each attempt with all it counted down
            waited = rec["down"]["busy_us"] + rec["down"]["waited_us"]
            rec["waited_ratio"] = rec["charged_us"] / waited if waited > 0 else None
        out.append(rec)
    return out


def medium_phy(prefix):
    """The PHY (airtime_ref's index) of the run's medium config, None without one."""
    return airtime_ref.PHY_BY_NAME.get(medium_conf(prefix, "phy"))


def _aifs_us(t, ac):
    return t["sifs_us"] + t["aifsn"][ac] * t["slot_us"]


def doubling_idle_us(phy, q, ac=airtime_ref.AC_BE):
    """AIFS + the mean backoff per attempt, us, of a chain whose window doubles with each
    of its attempts that fails, a share q of them (airtime_ref's expected backoff over
    the expected attempts, at the PHY's preset and retry limit)."""
    t = airtime_ref.timing_preset(phy)
    q = min(max(q, 0.0), 0.99)
    return _aifs_us(t, ac) + airtime_ref.backoff_ns(t, q, ac) / 1e3 / airtime_ref.attempts(q, t["retries"])


def window_idle_us(phy, cw_scale, ac=airtime_ref.AC_BE):
    """AIFS + the mean backoff, us, of attempts whose window averaged cw_scale times
    CWmin + 1 (the hook's mean of 2^retry), at most CWmax, at the PHY's preset."""
    t = airtime_ref.timing_preset(phy)
    cwmin, cwmax = airtime_ref.ac_cw(t, ac)
    cw = min((cwmin + 1) * cw_scale - 1, cwmax)
    return _aifs_us(t, ac) + t["slot_us"] * cw / 2


def _per_frame(d):
    return f"{d['air_us'] / d['frames']:.0f}" if d["frames"] else "-"


def _per_attempt(d):
    """(share of PPDU attempts without an ACK or BlockAck in %, AIFS + backoff idle per
    attempt in us) of a window(), as text; "-" without attempts."""
    if not d["attempts"]:
        return "-", "-"
    return (f"{100 * d['ppdu_failures'] / d['attempts']:.0f}",
            f"{d['idle_us'] / d['attempts']:.0f}")


def show(recs, out=None, phy=None):
    out = out or sys.stdout
    print("station  charged ms  settled ms  air+idle ms  charged/air  /down+waited  down frames  "
          "us/frame  "
          "up frames  us/frame  upload counted  down PPDUs failed %  idle us/attempt  "
          "doubling us/attempt  hook us/attempt  window medium/hook", file=out)
    for r in recs:
        air = r["down"]["air_us"] + r["up"]["air_us"]
        ch = "-" if r["charged_us"] is None else f"{r['charged_us'] / 1e3:.1f}"
        st = "-" if r.get("settled_us") is None else f"{r['settled_us'] / 1e3:.1f}"
        ratio = "-" if r["charge_ratio"] is None else f"{r['charge_ratio']:.2f}"
        upc = "-" if r["upload_frames"] is None else str(r["upload_frames"])
        failed, idle = _per_attempt(r["down"])
        dbl = "-"
        if phy is not None and r["down"]["attempts"]:
            dbl = f"{doubling_idle_us(phy, r['down']['ppdu_failures'] / r['down']['attempts']):.0f}"
        hook = "-"
        if phy is not None and r.get("hook_cw"):
            hook = f"{window_idle_us(phy, r['hook_cw']):.0f}"
        win = "-"
        if r["down"]["attempts"] and r["down"]["cw_units"]:
            win = f"{r['down']['cw_units'] / r['down']['attempts']:.2f}/"
            win += f"{r['hook_cw']:.2f}" if r.get("hook_cw") else "-"
        wr = "-" if r.get("waited_ratio") is None else f"{r['waited_ratio']:.2f}"
        print(f"sta{r['station']:<5} {ch:>10}  {st:>10}  {air / 1e3:>11.1f}  {ratio:>11}  {wr:>14}  "
              f"{r['down']['frames']:>11}  {_per_frame(r['down']):>8}  "
              f"{r['up']['frames']:>9}  {_per_frame(r['up']):>8}  {upc:>14}  "
              f"{failed:>19}  {idle:>15}  {dbl:>19}  {hook:>15}  {win:>18}", file=out)


def show_inputs(recs, out=None, phy=None):
    """The download's figures the charge is built from, the medium's beside the model's:
    MPDUs per PPDU attempt (medium / the hook's A-MPDU length, the class trace's mean,
    else its value at the end of the run), PPDU attempts per delivered MPDU (medium /
    told: the attempts the TX statuses reported, as mac80211 counts them; charged: one
    over the MPDUs the hook counts acknowledged per PPDU attempt, else the
    expected attempts at the hook's loss over its A-MPDU length; the AIFS + backoff,
    SIFS and ACK or BlockAck of each attempt are charged that many times per MPDU), and
    the medium's busy air and AIFS + backoff per delivered MPDU, and what the hook's running
    counts told (class stats told_air_us, told_wait_us, over the reports that settled) over
    the medium's air and AIFS + backoff waited to the station, and the counts themselves
    over the medium's: PPDU attempts, their windows (CWmin + 1 units), the attempts of
    one MPDU and their preambles' long training fields
    (`told ppdus/windows/single/ltfs`), and the data of the MPDU attempts as the
    statuses weigh it by their rates over the medium's (`told data`: the medium's
    told_byte_us over its mpdu_byte_us), and the settlement's formula priced at each
    attempt's own rate (the medium's model_us) over the busy air and the told air over
    it (`model/busy`, `told air/model`); the idle the medium's draws gave over the idle
    the attempts' windows were due (AIFS + CW / 2 slots each), with the draws' standard
    deviation (`idle/due`), and the charge over the air with the due idle in place of the
    drawn one (`charged/due`: what the hook can know, the windows, not the draws), and
    what the settled reports told, air and wait, over the air + idle both ways
    (`told/air`: the charge without what was charged ahead, at dequeue, for frames still
    in flight at either end of the window; up to the AP's queue, 24 ms of air, of which a
    station's share may differ by several ms between the ends). Needs the retry limit of
    the run's PHY for the loss's attempts ("-" without a medium config or the hook's
    figures)."""
    out = out or sys.stdout
    retries = None if phy is None else airtime_ref.timing_preset(phy)["retries"]
    print("station  MPDUs/attempt medium  told  hook  attempts/MPDU medium  told  charged  "
          "busy us/MPDU  idle us/MPDU  told air/busy  told wait/waited  "
          "told ppdus/windows/single/ltfs  told data  model/busy  told air/model  "
          "idle/due (sd)  charged/due  told/air", file=out)
    for r in recs:
        d = r["down"]
        if not d["frames"] or not d["attempts"]:
            continue
        mpdus = (d["attempts"] - d["ampdus"] + d["ampdu_mpdus"]) / d["attempts"]
        hook = "-" if r["hook_ampdu"] is None else f"{r['hook_ampdu']:.2f}"
        # what the statuses' A-MPDU lengths tell, the medium's count of them
        tmp = f"{d['told_mpdus'] / d['told']:.2f}" if d["told"] and d["told_mpdus"] else "-"
        charged = "-"
        if r.get("hook_acked"):
            charged = f"{1 / r['hook_acked']:.2f}"
        elif retries is not None and r["hook_ampdu"] is not None and r["hook_loss"] is not None:
            charged = f"{airtime_ref.attempts(r['hook_loss'], retries) / r['hook_ampdu']:.2f}"
        told = f"{d['told'] / d['frames']:.2f}" if d["told"] else "-"
        t_air = t_wait = "-"
        if r.get("told_air_us") is not None:
            if d["busy_us"] > 0:
                t_air = f"{r['told_air_us'] / d['busy_us']:.3f}"
            if d["waited_us"] > 0:
                t_wait = f"{r['told_wait_us'] / d['waited_us']:.3f}"
        counts = "-"
        if r.get("told"):
            single = d["attempts"] - d["ampdus"]
            counts = "/".join("-" if not m else f"{r['told'].get(k, 0) / m:.3f}"
                              for k, m in (("ppdus", d["attempts"]),
                                           ("windows", d["cw_units"]),
                                           ("single", single),
                                           ("ltfs", d.get("ltfs", 0))))
        tdata = (f"{d['told_byte_us'] / d['mpdu_byte_us']:.3f}"
                 if d.get("mpdu_byte_us") and d.get("told_byte_us") else "-")
        m_busy = m_told = "-"
        if d.get("model_us") and d["busy_us"] > 0:
            m_busy = f"{d['model_us'] / d['busy_us']:.3f}"
            if r.get("told_air_us") is not None:
                m_told = f"{r['told_air_us'] / d['model_us']:.3f}"
        due = c_due = t_all = "-"
        air_all = d["air_us"] + r["up"]["air_us"]
        if r.get("told_air_us") is not None and air_all > 0:
            t_all = f"{(r['told_air_us'] + r['told_wait_us']) / air_all:.3f}"
        if d.get("idle_due_us"):
            due = (f"{d['idle_us'] / d['idle_due_us']:.3f}"
                   f"±{d['idle_var_us2'] ** 0.5 / d['idle_due_us']:.3f}")
            if r.get("charged_us") is not None:
                due_air = air_all - d["idle_us"] + d["idle_due_us"]
                c_due = f"{r['charged_us'] / due_air:.3f}"
        print(f"sta{r['station']:<5} {mpdus:>20.2f}  {tmp:>4}  {hook:>4}  "
              f"{d['attempts'] / d['frames']:>20.2f}  {told:>4}  {charged:>7}  "
              f"{(d['air_us'] - d['idle_us']) / d['frames']:>12.0f}  "
              f"{d['idle_us'] / d['frames']:>12.0f}  {t_air:>13}  {t_wait:>16}  "
              f"{counts:>30}  {tdata:>9}  "
              f"{m_busy:>10}  {m_told:>14}  {due:>13}  {c_due:>11}  {t_all:>8}", file=out)


def prefix_main(module, breakdown_fn, show_fn, argv=None, options=""):
    """The command line of a per-run breakdown: one PREFIX (after the OPTIONS the
    caller took), its table or an error."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(f"usage: python3 -m airfair_analysis.{module} {options}PREFIX  "
              "(e.g. DIR/airfair)", file=sys.stderr)
        return 2
    try:
        show_fn(breakdown_fn(argv[0]))
    except (OSError, ValueError, KeyError) as e:
        print(f"airfair_analysis.{module}: {argv[0]}: {e}", file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    skip_s, tail_s = None, 0.0
    while len(argv) >= 3 and argv[0] in ("--from", "--tail"):
        try:
            v = float(argv[1])
        except ValueError:
            v = -1.0
        if not v >= 0:
            print(f"airfair_analysis.charges: {argv[0]} {argv[1]}: not a number of seconds",
                  file=sys.stderr)
            return 2
        if argv[0] == "--from":
            skip_s = v
        else:
            tail_s = v
        argv = argv[2:]
    if tail_s and skip_s is None:
        skip_s = 0.0
    phy = medium_phy(argv[0]) if len(argv) == 1 else None

    def both(recs):
        show(recs, phy=phy)
        print()
        show_inputs(recs, phy=phy)
    return prefix_main("charges", lambda p: breakdown(p, skip_s, tail_s), both, argv,
                       options="[--from S] [--tail T] ")


if __name__ == "__main__":
    sys.exit(main())
