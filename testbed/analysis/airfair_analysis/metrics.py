# SPDX-License-Identifier: GPL-2.0
"""The fairness and efficiency definitions of docs/fairness.md, one function each."""
from math import sqrt


def jain(values):
    """Jain's index (sum x)^2 / (n sum x^2): 1 all equal, 1/n one has everything."""
    xs = [float(v) for v in values]
    if not xs:
        raise ValueError("no values")
    sq = sum(x * x for x in xs)
    if sq == 0:
        return float("nan")
    return sum(xs) ** 2 / (len(xs) * sq)


def cov(values):
    """Coefficient of variation (population standard deviation / mean), as
    gong-wu-williamson report transfer completion times."""
    xs = [float(v) for v in values]
    if not xs:
        raise ValueError("no values")
    mean = sum(xs) / len(xs)
    if mean == 0:
        return float("nan")
    return sqrt(sum((x - mean) ** 2 for x in xs) / len(xs)) / mean


def if_index(sessions):
    """jung-park's instantaneous fairness index IF: the mean over finished transfer
    sessions of r = l / (m * S), with l the bytes, m the measured finish time (s) and S
    the fair-share rate (bytes/s) the session's node should get at once (Eq. 1-2).
    sessions: iterable of (length_bytes, finish_s, share_bytes_per_s); sessions that
    did not finish (finish_s None or <= 0) are left out, as the paper leaves out
    infinite ones."""
    rs = [l / (m * s) for l, m, s in sessions if m and m > 0 and s > 0]
    if not rs:
        raise ValueError("no finished session")
    return sum(rs) / len(rs)


def optimum(goodput_per_air, fifo_busy):
    """The airtime-fair optimum (Mbit/s): each of the N stations gets 1/N of the busy
    fraction fifo_busy (0-1) of the air, at its own goodput per second of air
    (Mbit per second of air, from the run being judged)."""
    g = list(goodput_per_air)
    if not g:
        raise ValueError("no stations")
    return sum(x * fifo_busy / len(g) for x in g)


def efficiency(goodputs, airtimes_us, sim_us, fifo_busy):
    """Total goodput / the airtime-fair optimum. goodputs in Mbit/s (simulated),
    airtimes_us each station's ground-truth airtime and sim_us the simulated time of
    the same window; fifo_busy the busy fraction (0-1) pfifo reached in the scenario."""
    gpa = [g * sim_us / a if a > 0 else 0.0 for g, a in zip(goodputs, airtimes_us)]
    opt = optimum(gpa, fifo_busy)
    return sum(goodputs) / opt if opt > 0 else float("nan")


def maxmin_fair(rec, under=0.9, idle=0.8):
    """Every station whose airtime share is under `under` x its fair share was
    backlogged in airfair less than `idle` of the time (needs airfair's per-station
    backlogged figure; False without it). The fair share is among the stations with
    traffic (rec["active"], all of them if absent)."""
    active = rec.get("active") or [True] * len(rec["shares"])
    n = sum(active) or len(rec["shares"])
    for share, bkl, act in zip(rec["shares"], rec["backlogged"], active):
        if act and share < under / n and (bkl is None or bkl >= idle):
            return False
    return True
