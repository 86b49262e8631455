# SPDX-License-Identifier: GPL-2.0
"""python3 -m airfair_analysis.ceiling [--phy P] [--ref-busy B] [--txop-us T] [--d D]
[--len L] [--loss P] STATION...: the busy-air figures a perfectly airtime-fair schedule
reads, from the airtime model alone (testbed/airtime_ref.py, sch_airfair/phy_params.h).

airfair equalises chen-yan's airtime: each frame's busy air (PPDU, SIFS, MAC ACK) plus
the AIFS and backoff its access spends idle. A station's frames are busy for a share
f = busy / (busy + access) of that airtime, and f is lowest at the highest rates, where
the access is long beside the PPDU. So equal chen-yan airtime gives the stations busy
air in proportion to f (Jain over busy air below 1), and the channel's busy share is
the mean of the f, not what pfifo reaches by giving a slow station's long frames most
of the air. Both are what the busy-air Jain and efficiency (docs/fairness.md,
Definitions) of an ideal schedule read: a ceiling set by DCF's accesses, not by the
schedule.

STATION: RATE/KIND, RATE a legacy rate in Mbit/s, KIND one of
  up    TCP upload: the station's data frames (best effort, no TXOP) and the AP's TCP
        ACK, one per D of them, in the voice class (airfair's ack-prio);
  down  TCP download: the AP's data frames in the background class (defer-data) with
        its TXOP bursts (--txop-us) and the station's TCP ACK, one per D, best effort;
  udp   the AP's datagrams in the background class with its TXOP bursts.
Each access waits a whole expected backoff (one sender at a time); where several
contend, their backoffs overlap and the channel idles less than that.

--ref-busy: the reference's busy share (pfifo's in the same guest); the ideal busy-air
efficiency is then goodput / the optimum that docs/fairness.md defines, with the
ideal schedule's own per-station goodput per busy second.
"""
import argparse
import sys

from .metrics import jain
from .scenario import airtime_ref as ar

KINDS = ("up", "down", "udp")
UDPIP_HDR_LEN = 28      # IPv4 + UDP: a datagram's L3 length less its payload
AP_TXOP_US = 1792       # hostapd's tx_queue_data*_burst = 1.8 ms, 56 x 32 us (demo-txop)


def _parts(t, rate, length, loss, ac):
    """(busy ns, access ns) of one frame: PPDU + SIFS + ACK (and its retries'), and
    AIFS + backoff (and its retries'), as airtime_ref.frame_ns prices them."""
    bd = ar.frame_ns(t, ar.Rate(ar.MODE_LEGACY, legacy=int(round(rate * 10))), length,
                     loss, ac)
    if bd is None:
        raise ValueError(f"no legacy rate {rate:g} Mbit/s")
    first = bd["direct"] + bd["sifs"] + bd["ack"]
    # each retry repeats the PPDU, SIFS and ACK after an AIFS; its backoff is in "backoff"
    busy = first * bd["attempts"]
    access = bd["aifs"] + bd["backoff"] + bd["retries"] - first * (bd["attempts"] - 1)
    return busy, access


def station(phy, rate, kind, d=2, length=1500, loss=0.0, txop_us=AP_TXOP_US):
    """Per data frame of `length` bytes of one station's traffic: busy ns, access ns
    (its TCP ACK's share included) and the payload bits it carries."""
    t = ar.timing_preset(phy)
    st = ar.no_txop(t)
    ap = dict(t, txop_us=[0, 0, 0, txop_us])
    hdr = UDPIP_HDR_LEN if kind == "udp" else ar.P["TCPIP_HDR_LEN"]
    payload = 8 * (length - hdr)
    if kind == "up":
        busy, acc = _parts(st, rate, length, loss, ar.AC_BE)
        ab, aa = _parts(st, rate, ar.P["TCP_ACK_LEN"], loss, ar.AC_VO)
    elif kind == "down":
        busy, acc = _parts(ap, rate, length, loss, ar.AC_BK)
        ab, aa = _parts(st, rate, ar.P["TCP_ACK_LEN"], loss, ar.AC_BE)
    elif kind == "udp":
        busy, acc = _parts(ap, rate, length, loss, ar.AC_BK)
        ab = aa = 0.0
    else:
        raise ValueError(f"kind '{kind}' (known: {', '.join(KINDS)})")
    return {"rate": rate, "kind": kind, "busy_ns": busy + ab / d,
            "access_ns": acc + aa / d, "payload_bits": payload}


def ideal(stations, ref_busy=None):
    """The schedule that gives every station the same chen-yan airtime, with no air
    left unused: per station its busy share f and its share of the busy air; the
    channel's busy share, Jain over busy air, and (with ref_busy) the busy-air
    efficiency against the optimum at that reference."""
    f = [s["busy_ns"] / (s["busy_ns"] + s["access_ns"]) for s in stations]
    n = len(stations)
    out = {"f": f, "busy_shares": [x / sum(f) for x in f], "busy": sum(f) / n,
           "jain": jain(f)}
    if ref_busy:
        # goodput of the ideal: 1/N of the time each, at payload per chen-yan second;
        # the optimum: 1/N of ref_busy each, at payload per busy second
        good = sum(s["payload_bits"] / (s["busy_ns"] + s["access_ns"]) for s in stations) / n
        opt = ref_busy * sum(s["payload_bits"] / s["busy_ns"] for s in stations) / n
        out["efficiency"] = good / opt
    return out


def parse_station(spec):
    try:
        rate, kind = spec.split("/")
        return float(rate), kind
    except ValueError:
        raise ValueError(f"station '{spec}': RATE/KIND, e.g. 54/up") from None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="airfair_analysis.ceiling",
                                 description="busy-air figures of an ideal airtime-fair schedule")
    ap.add_argument("--phy", default="11a")
    ap.add_argument("--ref-busy", type=float)
    ap.add_argument("--txop-us", type=int, default=AP_TXOP_US)
    ap.add_argument("--d", type=int, default=2)
    ap.add_argument("--len", type=int, default=1500)
    ap.add_argument("--loss", type=float, default=0.0)
    ap.add_argument("stations", nargs="+")
    a = ap.parse_args(argv)
    try:
        phy = ar.PHY_BY_NAME.get(a.phy)
        if phy is None:
            raise ValueError(f"phy '{a.phy}' (known: {', '.join(ar.PHY_NAMES)})")
        if not 1 <= a.d <= 64 or not 0 <= a.loss < 1 or not 100 <= a.len <= 2304:
            raise ValueError("--d 1..64, --loss 0..1, --len 100..2304")
        if a.ref_busy is not None and not 0 < a.ref_busy <= 1:
            raise ValueError("--ref-busy: a share of the time, 0..1")
        sts = []
        for spec in a.stations:
            rate, kind = parse_station(spec)
            sts.append(station(phy, rate, kind, a.d, a.len, a.loss, a.txop_us))
    except ValueError as e:
        print(f"airfair_analysis.ceiling: {e}", file=sys.stderr)
        return 2
    r = ideal(sts, a.ref_busy)
    print(f"{'station':>10} {'busy us':>8} {'access us':>9} {'busy/air':>8} {'busy share':>10}")
    for s, f, sh in zip(sts, r["f"], r["busy_shares"]):
        print(f"{s['rate']:>6g}/{s['kind']:<3} {s['busy_ns'] / 1e3:>8.1f} "
              f"{s['access_ns'] / 1e3:>9.1f} {f:>8.3f} {100 * sh:>9.1f}%")
    print(f"ideal: busy {100 * r['busy']:.1f} %, Jain over busy air {r['jain']:.4f}"
          + (f", busy-air efficiency {r['efficiency']:.3f} at a reference {100 * a.ref_busy:.1f} % busy"
             if a.ref_busy else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
