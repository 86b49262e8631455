# SPDX-License-Identifier: GPL-2.0
"""One measured run as testbed/scenarios/fairness.sh saves it (AIRFAIR_DEMO_SAVE):
PREFIX-m0.json / -m1.json (the medium's live statistics at the start and the end of
the measured window), -c0.json / -c1.json (`tc -j -s class show`, one JSON document
per line, airfair only), -iperf-staI-K.json (iperf3 -J of station I's K-th flow),
-medium.conf, -stations.txt ("I MAC" per station) and -window.txt (the real-time
stamps of c0 and c1)."""
import glob
import json
import math
import os
import re
from dataclasses import dataclass, field
from typing import List, Optional

from .metrics import efficiency, if_index, jain


@dataclass
class StationResult:
    index: int
    mac: Optional[str]
    airtime_us: float            # busy air, medium ground truth
    airtime_backoff_us: float    # + the AIFS and backoff before its frames
    goodput_mbps: float          # simulated (iperf3 receiver x k), all its flows
    backlogged: Optional[float]  # share of the window it had packets queued in airfair
    charged_us: Optional[float]  # airfair's own accounting
    # its intermittent transfers (sess-staI-K-N.json): (bytes, seconds) each, real time
    sessions: List[tuple] = field(default_factory=list)
    # ping RTTs to the server while measured (ping-staI.txt), real ms
    rtts_ms: List[float] = field(default_factory=list)
    # its flows: (direction "up"/"down", goodput simulated Mbit/s) each
    flows: List[tuple] = field(default_factory=list)
    # it had flows or transfers in the run (an idle station stays associated, no more)
    active: bool = True
    # the pings it sent (ping's summary line; 0 where the output has none)
    pings_sent: int = 0


@dataclass
class RunResult:
    stations: List[StationResult] = field(default_factory=list)
    sim_us: float = 0.0
    busy: float = 0.0            # channel busy fraction
    # the channel's idle while someone waited to send (AIFS, backoff): with `busy`,
    # the time chen-yan's airtime (airtime_backoff_us) partitions
    contended: float = 0.0
    k: float = 1.0
    # how late the medium daemon ran its events over the window, mean us (None: not
    # told): a busy host's guest idles the air its lateness drains (docs/fairness.md)
    late_us: Optional[float] = None

    @property
    def idle(self):
        """The air no radio had a frame for: neither busy nor contended."""
        return max(0.0, 1.0 - self.busy - self.contended)

    @property
    def active(self):
        """The stations with traffic in the run: fairness is among them."""
        return [s for s in self.stations if s.active]

    @property
    def jain(self):
        return jain(s.airtime_us for s in self.active)

    @property
    def jain_backoff(self):
        return jain(s.airtime_backoff_us for s in self.active)

    @property
    def goodput_mbps(self):
        return sum(s.goodput_mbps for s in self.stations)

    def efficiency(self, fifo, backoff=False):
        """Goodput / the airtime-fair optimum (metrics.efficiency) over the active
        stations, with FIFO (pfifo's run of the same scenario) as the reference: its
        busy air, each station's busy air; with backoff, chen-yan's airtime: each
        station's AIFS and backoff counted too, against FIFO's busy + contended time."""
        act = self.active
        air = [s.airtime_backoff_us if backoff else s.airtime_us for s in act]
        ref = fifo.busy + (fifo.contended if backoff else 0.0)
        return efficiency([s.goodput_mbps for s in act], air, self.sim_us, ref)

    def if_index(self):
        """jung-park's instantaneous fairness over every transfer of the run: each one's
        rate against the fair share S = the persistent flows' total goodput / the number
        of stations (k cancels: both in real time here). None without transfers."""
        sess = [x for s in self.stations for x in s.sessions]
        if not sess:
            return None
        share = sum(s.goodput_mbps for s in self.stations) * 1e6 / 8 / self.k / len(self.active)
        return if_index((b, sec, share) for b, sec in sess) if share > 0 else None

    def latency_ms(self, q):
        """Quantile Q (0-1) of every station's ping RTTs under load, in simulated ms
        (real / k: the wired delay and the dilated air alike), inf where it falls on
        pings never answered; None without pings."""
        xs = sorted(x / self.k for s in self.stations for x in s.rtts_ms)
        if not xs:
            return None
        # a ping never answered is later than any answered one
        xs += [math.inf] * self.pings_lost()
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    def pings_lost(self):
        """The pings sent and never answered, over every station; 0 where ping's
        summary line was not saved."""
        return sum(max(0, s.pings_sent - len(s.rtts_ms)) for s in self.stations)

    def pings_sent(self):
        return sum(max(s.pings_sent, len(s.rtts_ms)) for s in self.stations)

    def up_share(self):
        """The uploads' part of the goodput (leith's measure); None unless the run had
        flows both ways."""
        fl = [f for s in self.stations for f in s.flows]
        if not fl or {d for d, _ in fl} != {"up", "down"}:
            return None
        tot = sum(g for _, g in fl)
        return sum(g for d, g in fl if d == "up") / tot if tot else None

    def shares(self):
        total = sum(s.airtime_us for s in self.stations)
        return [s.airtime_us / total if total else 0.0 for s in self.stations]


def iperf_json(path):
    """The result object of one iperf3 -J output, or None. iperf3 can print a plain-text
    error line after the object (an end-of-test control message that failed): that line
    is not part of it."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    try:
        d, _ = json.JSONDecoder().raw_decode(text.lstrip())
    except ValueError:
        return None
    return d if isinstance(d, dict) else None


def iperf_error(path):
    """Why one iperf3 -J run failed ("" if it did not): its JSON's error, else its
    stderr (the .err beside it), else that no result was saved."""
    d = iperf_json(path)
    if d is not None and d.get("error"):
        return d["error"]
    try:
        with open(path[:-len(".json")] + ".err") as f:
            err = " ".join(f.read().split())
    except OSError:
        err = ""
    return err or ("" if d is not None else "no iperf3 result saved")


def iperf_received(path):
    """What one iperf3 -J run's receiver counted, for a diagnostic: bytes over seconds
    and how many of its intervals carried data."""
    d = iperf_json(path)
    if d is None:
        return "no iperf3 result"
    r = d.get("end", {}).get("sum_received")
    ivs = [i["sum"] for i in d.get("intervals", []) if "sum" in i]
    busy = sum(1 for i in ivs if i.get("bytes"))
    head = (f"received {r.get('bytes', 0)} B in {r.get('seconds', 0):.1f} s" if r
            else "no receiver sum")
    return f"{head}, {busy} of {len(ivs)} intervals with data"


def iperf_goodput_mbps(path):
    """Receiver-side goodput of one iperf3 -J result (0 for a failed run). A download
    (-R) whose end-of-test exchange failed still has its receiver's own figures: the
    client's intervals."""
    d = iperf_json(path)
    if d is None:
        return 0.0
    end = d.get("end", {})
    if "sum_received" in end:
        return end["sum_received"]["bits_per_second"] / 1e6
    if d.get("error"):
        if not d.get("start", {}).get("test_start", {}).get("reverse"):
            return 0.0
        ivs = [i["sum"] for i in d.get("intervals", []) if not i["sum"].get("omitted")]
        secs = sum(i["seconds"] for i in ivs)
        return 8 * sum(i["bytes"] for i in ivs) / secs / 1e6 if secs > 0 else 0.0
    s = end.get("sum")
    if not s:
        return 0.0
    bps = s.get("bits_per_second", 0.0)
    if s.get("packets"):
        bps *= 1 - s.get("lost_packets", 0) / s["packets"]
    return bps / 1e6


PING_TIME = re.compile(r"time=([0-9.]+) ms")
PING_SENT = re.compile(r"^(\d+) packets transmitted", re.M)


def ping_rtts(path):
    """The RTTs (ms) in a ping's output (iputils' or busybox's)."""
    try:
        with open(path) as f:
            return [float(m.group(1)) for m in PING_TIME.finditer(f.read())]
    except OSError:
        return []


def ping_sent(path):
    """The pings sent, from ping's summary line (iputils' or busybox's); 0 without it."""
    try:
        with open(path) as f:
            m = PING_SENT.search(f.read())
    except OSError:
        return 0
    return int(m.group(1)) if m else 0


def iperf_direction(path):
    """"down" for a reverse (-R) iperf3 run, else "up" (the station sends)."""
    d = iperf_json(path) or {}
    return "down" if d.get("start", {}).get("test_start", {}).get("reverse") else "up"


def sessions(path):
    """(bytes, seconds) a transfer's receiver reports in one iperf3 -n JSON; None if it
    did not finish (iperf3 error, timeout, no data)."""
    d = iperf_json(path)
    if d is None:
        return None
    r = d.get("end", {}).get("sum_received")
    if d.get("error") or not r or not r.get("seconds"):
        return None
    return r["bytes"], r["seconds"]


def _medium(path, n):
    with open(path) as f:
        j = json.load(f)
    m = j["medium"]
    air = [0.0] * (n + 1)
    cy = [0.0] * (n + 1)
    for link in m["links"]:
        for i in {link["tx"], link["rx"]}:
            if 1 <= i <= n:
                air[i] += link.get("airtime_us", 0)
                cy[i] += link.get("airtime_us", 0) + link.get("backoff_idle_us", 0)
    busy = sum(c.get("busy_us", 0) for c in m.get("channels", []))
    contended = sum(c.get("contended_idle_us", 0) for c in m.get("channels", []))
    d = j.get("daemon", {})
    late = (d["late_us_sum"], d["late_n"]) if "late_n" in d else None
    return air, cy, busy, contended, m["sim_time_us"], late


def charged_us(cls):
    """The air a station's class statistics say it was charged: at dequeue
    (airtime_us) and what the hook's running counts settled on top of it
    (settled_us, signed; absent before it existed)."""
    return cls.get("airtime_us", 0) + cls.get("settled_us", 0)


def _classes(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            st = json.loads(line).get("station")
            if st and "addr" in st:
                out[st["addr"]] = st
    return out


def medium_conf(prefix, key):
    """The last word of the run's medium config line KEY (`dilation 6`, `phy 5g 11a`),
    None if the line or the file is not there."""
    try:
        with open(prefix + "-medium.conf") as f:
            for line in f:
                w = line.split()
                if len(w) >= 2 and w[0] == key:
                    return w[-1]
    except OSError:
        pass
    return None


def load_run(prefix, k=None):
    """The run saved under PREFIX (e.g. DIR/airfair-down)."""
    stations = {}
    if os.path.exists(prefix + "-stations.txt"):
        with open(prefix + "-stations.txt") as f:
            for line in f:
                i, mac = line.split()
                stations[int(i)] = mac
    flows = glob.glob(glob.escape(prefix) + "-iperf-sta*-*.json")
    idx = {int(re.search(r"-iperf-sta(\d+)-\d+\.json$", p).group(1)) for p in flows}
    n = max(list(idx) + list(stations) + [0])
    if k is None:
        k = float(medium_conf(prefix, "dilation") or 1.0)
    a0, y0, b0, w0, t0, l0 = _medium(prefix + "-m0.json", n)
    a1, y1, b1, w1, t1, l1 = _medium(prefix + "-m1.json", n)
    sim = t1 - t0
    c0 = c1 = None
    window_us = None
    if os.path.exists(prefix + "-c0.json") and os.path.exists(prefix + "-c1.json"):
        c0, c1 = _classes(prefix + "-c0.json"), _classes(prefix + "-c1.json")
    if os.path.exists(prefix + "-window.txt"):
        with open(prefix + "-window.txt") as f:
            s, e = (float(x) for x in f.read().split())
            window_us = (e - s) * 1e6
    run = RunResult(sim_us=sim, busy=(b1 - b0) / sim if sim > 0 else 0.0,
                    contended=(w1 - w0) / sim if sim > 0 else 0.0, k=k,
                    late_us=((l1[0] - l0[0]) / (l1[1] - l0[1])
                             if l0 and l1 and l1[1] > l0[1] else None))
    for i in range(1, n + 1):
        fl = [(iperf_direction(p), iperf_goodput_mbps(p) * k) for p in
              sorted(glob.glob(glob.escape(prefix) + f"-iperf-sta{i}-*.json"))]
        gp = sum(g for _, g in fl)
        mac = stations.get(i)
        bkl = charged = None
        if c0 is not None and mac in c1:
            before, after = c0.get(mac, {}), c1[mac]
            charged = charged_us(after) - charged_us(before)
            if window_us and "backlogged_us" in after:
                bkl = (after["backlogged_us"] - before.get("backlogged_us", 0)) / window_us
        sess = [sessions(p) for p in sorted(
            glob.glob(glob.escape(prefix) + f"-sess-sta{i}-*.json"),
            key=lambda p: [int(x) for x in re.findall(r"\d+", p[len(prefix):])])]
        active = bool(fl or sess)
        run.stations.append(StationResult(i, mac, a1[i] - a0[i], y1[i] - y0[i], gp,
                                          bkl, charged, [x for x in sess if x],
                                          ping_rtts(f"{prefix}-ping-sta{i}.txt"), fl,
                                          active, ping_sent(f"{prefix}-ping-sta{i}.txt")))
    # a run that saved no flow at all: every station counts
    if not run.active:
        for s in run.stations:
            s.active = True
    return run
