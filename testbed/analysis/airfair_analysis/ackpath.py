# SPDX-License-Identifier: GPL-2.0
"""python3 -m airfair_analysis.ackpath PREFIX: where each TCP flow of one saved run
waited, from its tcp:tcp_probe trace (testbed/scenarios.sh --trace saves
PREFIX-tcp-probe.txt; PREFIX as load_run takes it, e.g. DIR/airfair-default).

The kernel logs a sender's state (cwnd, smoothed RTT) at every ACK it receives and a
receiver's at every data segment, in every namespace of the guest on one clock. Per
flow (its server port): the ACKs the sender got, the segments the receiver got, and
the stalls of the ACK stream: gaps of more than GAP seconds between two ACKs. A stall
during which segments kept arriving at the receiver is the ACK path's (the
receiver's ACKs held below its TCP, at its radio or in the air), not the data's: the
sender waits for ACKs, its window full, while the queue feeding it runs dry. The
cwnd and RTT columns are the sender's medians over the trace."""
import re
import statistics
import sys

from .charges import prefix_main

GAP_S = 0.3

_PROBE = re.compile(r"\s(\d+\.\d+): tcp_probe: .*?src=(\S+) dest=(\S+) .*?data_len=(\d+) "
                    r".*?snd_cwnd=(\d+) .*?srtt=(\d+)")


def _port(addr):
    return int(addr.rsplit(":", 1)[1])


def events(path):
    """{server port: {"acks": [(t, cwnd, srtt_us)], "data": [t]}} from a tcp_probe
    trace: a sender's line (data_len 0) is an ACK it got, a line with data is a
    segment its peer got. The server side is the lower port of the pair."""
    flows = {}
    with open(path) as f:
        for line in f:
            m = _PROBE.search(line)
            if not m:
                continue
            t, src, dst, dlen = float(m[1]), _port(m[2]), _port(m[3]), int(m[4])
            port = min(src, dst)
            fl = flows.setdefault(port, {"acks": [], "data": []})
            if dlen:
                fl["data"].append(t)
            else:
                fl["acks"].append((t, int(m[5]), int(m[6])))
    return flows


def breakdown(prefix, gap_s=GAP_S):
    """A row per flow that carried data: port, acks, segments, the stalls (list of
    (start, seconds, segments that arrived meanwhile)), the trace's span (s), and the
    sender's median cwnd and srtt (ms). Only flows whose data went one way count:
    the iperf control connections carry a few bytes each way."""
    flows = events(prefix + "-tcp-probe.txt")
    rows = []
    for port, fl in sorted(flows.items()):
        acks, data = fl["acks"], sorted(fl["data"])
        if len(acks) < 2 or len(data) < 10:
            continue
        times = [a[0] for a in acks]
        stalls = []
        for a, b in zip(times, times[1:]):
            if b - a > gap_s:
                stalls.append((a, b - a, sum(1 for t in data if a < t < b)))
        rows.append({"port": port, "acks": len(acks), "segments": len(data),
                     "stalls": stalls, "span_s": times[-1] - times[0],
                     "cwnd": statistics.median(a[1] for a in acks),
                     "srtt_ms": statistics.median(a[2] for a in acks) / 1000})
    if not rows:
        raise ValueError("no TCP flow with data in the tcp_probe trace")
    return rows


def show(rows, out=sys.stdout):
    print(f"  port   acks  segments  cwnd  srtt ms  ACK stalls > {GAP_S} s  stalled s  "
          "of span  segments in stalls", file=out)
    for r in rows:
        st = sum(s[1] for s in r["stalls"])
        seg = sum(s[2] for s in r["stalls"])
        frac = st / r["span_s"] if r["span_s"] > 0 else 0.0
        print(f"{r['port']:6d} {r['acks']:6d} {r['segments']:9d} {r['cwnd']:5.0f} "
              f"{r['srtt_ms']:8.1f} {len(r['stalls']):19d} {st:10.1f} {100 * frac:6.1f} % "
              f"{seg:18d}", file=out)


def main(argv=None):
    return prefix_main("ackpath", breakdown, show, argv)


if __name__ == "__main__":
    sys.exit(main())
