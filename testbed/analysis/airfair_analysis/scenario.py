# SPDX-License-Identifier: GPL-2.0
"""Scenarios as data: testbed/scenarios/NAME.toml (docs/scenarios.md).

A scenario names the stations (their links in the medium), the runs (the traffic
each station carries, the TCP delayed-ACK setting), the qdiscs every run is
measured under, the duration and the seeds. load() checks it and says what is
wrong with which key; plan_sh() turns one seed of it into the shell variables
testbed/run-scenario.sh (inside the VM, where there is no Python) executes.
"""
import os
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass, field
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "testbed"))
import airtime_ref  # noqa: E402  (PHY tables from sch_airfair/phy_params.h)

# The qdiscs testbed/scenarios/fairness.sh (fair_set_qdisc) knows.
QDISCS = ("pfifo", "fq_codel", "cake", "airfair", "airfair-naive", "airfair-estimated",
          "airfair-nowindow", "airfair-static", "airfair-pending", "airfair-default",
          "airfair-window")
# Congestion controls the guest has (vm/mkinitramfs.sh loads their modules).
CCS = ("cubic", "reno", "bbr", "vegas")
FLOW_KINDS = ("tcp-down", "tcp-up", "udp-down", "udp-up")
# The harness's PHYs (5 GHz): 802.11a, 802.11n and 802.11ac, with minstrel or
# minstrel_ht choosing the rates (A-MPDU: `medium = ["ampdu 32"]` and the testbed's
# hwsim patch, which testbed/scenarios.sh loads where it builds).
PHYS = ("11a", "11n-5g", "11ac")
MAX_STATIONS = 40  # gong-wu-williamson sweep up to 40 hosts


class ScenarioError(ValueError):
    pass


@dataclass
class Flow:
    kind: str                 # tcp-down | tcp-up | udp-down | udp-up
    cc: str = ""              # TCP congestion control ("" = the kernel's default)
    rate: str = ""            # UDP offered load, iperf3 -b syntax
    size: str = ""            # transfers of this many bytes (iperf3 -n) ...
    every: float = 0          # ... one every this many real seconds
    delay_ms: int = 0         # more wired delay for this flow, real ms (= rtt_ms x k)

    def spec(self):
        """The flow as fairness.sh's FAIR_FLOWS word: KIND[:RATE][+SIZE/EVERY][~MS][@CC]."""
        s = self.kind
        if self.rate:
            s += ":" + self.rate
        if self.size:
            s += f"+{self.size}/{self.every:g}"
        if self.delay_ms:
            s += f"~{self.delay_ms}"
        if self.cc:
            s += "@" + self.cc
        return s


@dataclass
class Run:
    name: str
    delayed_ack: int                      # 1: every segment ACKed (quickack), 2: Linux's default
    flows: Dict[int, List[Flow]]          # station index -> its flows
    qdiscs: List[str] = field(default_factory=list)   # the scenario's unless the run names its own

    @property
    def directions(self):
        return sorted({f.kind.split("-")[1] for fl in self.flows.values() for f in fl})


@dataclass
class Scenario:
    name: str
    title: str
    paper: str
    phy: str
    dilation: int
    seconds: int
    omit: int
    wired_delay_ms: float
    seeds: List[int]
    qdiscs: List[str]
    stations: List[dict]                  # index 0 = station 1: snr, loss, rate_cap
    runs: List[Run] = field(default_factory=list)
    path: str = ""
    medium: List[str] = field(default_factory=list)   # extra medium config lines
    hostapd: Dict[str, float] = field(default_factory=dict)  # the AP's EDCA, hostapd's keys
    warmup: int = 4                       # seconds of TCP each way before the runs
    ping_s: float = 0.5                   # real s between a station's pings; 0: none
    variants: Dict[str, tuple] = field(default_factory=dict)  # label -> (qdisc, options)
    # the paper's figures to print beside ours: metric -> run -> qdisc -> value
    published: Dict[str, Dict[str, Dict[str, float]]] = field(default_factory=dict)
    published_source: str = ""
    targets: List[dict] = field(default_factory=list)   # [[targets]]: what the issue asks

    def link(self, i):
        """Station i's (1-based) medium `pair` clause."""
        s = self.stations[i - 1]
        out = f"snr {s['snr']:g}"
        if s.get("rate_cap"):
            out += f" rate-cap {s['rate_cap']:g}"
        if s.get("loss"):
            out += f" loss {s['loss']:g}"
        return out


def legacy_ofdm_rates():
    """802.11a/g rates in Mbit/s, from the model's OFDM table."""
    p, t = airtime_ref.P, airtime_ref.T
    return sorted(p["OFDM_NSD"] * m["bpscs"] * m["rnum"] / m["rden"] / (p["OFDM_SYM_NS"] / 1000)
                  for m in t["OFDM"])


def _check_keys(where, table, allowed, required=()):
    if not isinstance(table, dict):
        raise ScenarioError(f"{where}: expected a table, got {type(table).__name__}")
    for k in table:
        if k not in allowed:
            raise ScenarioError(f"{where}: unknown key '{k}' (known: {', '.join(allowed)})")
    for k in required:
        if k not in table:
            raise ScenarioError(f"{where}: '{k}' is missing")


def _num(where, v, lo, hi, integer=False):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (integer and not isinstance(v, int)):
        raise ScenarioError(f"{where}: {v!r} is not {'a whole number' if integer else 'a number'}")
    if not lo <= v <= hi:
        raise ScenarioError(f"{where}: {v} is out of range ({lo} to {hi})")
    return v


def _variants(where, v):
    """label = "QDISC OPTIONS...": QDISC (one of QDISCS) with more tc options."""
    if not isinstance(v, dict):
        raise ScenarioError(f"{where}: a table of name = \"QDISC OPTIONS...\"")
    out = {}
    for label, spec in v.items():
        if label in QDISCS or not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", label):
            raise ScenarioError(f"{where}: '{label}' must be a new name (lower case, digits, '-', '.')")
        w = str(spec).split()
        if not w or w[0] not in QDISCS or len(w) < 2:
            raise ScenarioError(f"{where}.{label}: '{spec}' is not 'QDISC OPTIONS...' with QDISC "
                                f"one of {', '.join(QDISCS)}")
        if any(not re.fullmatch(r"[A-Za-z0-9_.:/%-]+", x) for x in w[1:]):
            raise ScenarioError(f"{where}.{label}: '{spec}': tc options are plain words")
        out[label] = (w[0], " ".join(w[1:]))
    return out


def _qdiscs(where, qs, known=QDISCS):
    if not isinstance(qs, list) or not qs:
        raise ScenarioError(f"{where}: a non-empty list")
    for q in qs:
        if q not in known:
            raise ScenarioError(f"{where}: '{q}' is not one of {', '.join(known)}")
    if len(set(qs)) != len(qs):
        raise ScenarioError(f"{where}: a qdisc is listed twice")
    return list(qs)


def _flows(where, spec, nsta, k):
    """[[runs.flows]] entries -> {station: [Flow]}"""
    if not isinstance(spec, list) or not spec:
        raise ScenarioError(f"{where}: 'flows' must be a non-empty array of tables")
    out = {i: [] for i in range(1, nsta + 1)}
    for j, f in enumerate(spec):
        w = f"{where}.flows[{j}]"
        _check_keys(w, f, ("stations", "kind", "cc", "rate", "size", "every", "rtt_ms"),
                    ("stations", "kind"))
        st = f["stations"]
        if st == "all":
            st = list(range(1, nsta + 1))
        if not isinstance(st, list) or not st:
            raise ScenarioError(f"{w}.stations: \"all\" or a list of station numbers")
        for i in st:
            _num(f"{w}.stations", i, 1, nsta, integer=True)
        kind = f["kind"]
        if kind not in FLOW_KINDS:
            raise ScenarioError(f"{w}.kind: '{kind}' is not one of {', '.join(FLOW_KINDS)}")
        cc = f.get("cc", "")
        if cc and (kind.startswith("udp") or cc not in CCS):
            raise ScenarioError(f"{w}.cc: '{cc}' " + ("is for TCP flows" if kind.startswith("udp")
                                else f"is not one of {', '.join(CCS)}"))
        rate = f.get("rate", "")
        if rate and (not kind.startswith("udp") or not re.fullmatch(r"\d+(\.\d+)?[KMG]?", str(rate))):
            raise ScenarioError(f"{w}.rate: '{rate}' " + ("is for UDP flows" if not kind.startswith("udp")
                                else "is not a rate like 20M"))
        size, every = f.get("size", ""), f.get("every", 0)
        if ("size" in f) != ("every" in f):
            raise ScenarioError(f"{w}: 'size' and 'every' go together (a transfer of size bytes every so often)")
        if size:
            if kind.startswith("udp") or not re.fullmatch(r"\d+[KMG]?", str(size)):
                raise ScenarioError(f"{w}.size: '{size}' " + ("is for TCP flows" if kind.startswith("udp")
                                    else "is not a byte count like 10K"))
            _num(f"{w}.every", every, 0.5, 600)
        # rtt_ms: simulated milliseconds the flow's RTT grows by; the medium runs k times
        # slower than real time, so the wired side must wait k times as long
        rtt = _num(f"{w}.rtt_ms", f.get("rtt_ms", 0), 0, 1000)
        if rtt and kind.startswith("udp"):
            raise ScenarioError(f"{w}.rtt_ms: is for TCP flows")
        for i in st:
            out[i].append(Flow(kind, cc, str(rate), str(size), every, round(rtt * k)))
    return out


def parse(text, name, path=""):
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{path or name}: {e}") from None
    top = ("title", "paper", "phy", "dilation", "seconds", "omit", "wired_delay_ms", "ping",
           "seeds", "qdiscs", "stations", "runs", "published", "medium", "hostapd", "variants",
           "targets")
    _check_keys(name, d, top, ("title", "stations", "runs", "qdiscs"))
    phy = d.get("phy", "11a")
    if phy not in PHYS:
        known = ", ".join(airtime_ref.PHY_NAMES)
        raise ScenarioError(f"{name}.phy: '{phy}' is not run by the testbed yet (it runs "
                            f"{', '.join(PHYS)}; the qdisc's presets are {known})")
    sc = Scenario(
        name=name, path=path, title=str(d["title"]), paper=str(d.get("paper", "")), phy=phy,
        dilation=_num(f"{name}.dilation", d.get("dilation", 6), 1, 100, integer=True),
        seconds=_num(f"{name}.seconds", d.get("seconds", 20), 5, 600, integer=True),
        omit=_num(f"{name}.omit", d.get("omit", 3), 0, 60, integer=True),
        wired_delay_ms=_num(f"{name}.wired_delay_ms", d.get("wired_delay_ms", 10), 0, 1000),
        seeds=d.get("seeds", [7]), qdiscs=d["qdiscs"], stations=[])
    sc.ping_s = _num(f"{name}.ping", d.get("ping", 0.5), 0, 60)
    if 0 < sc.ping_s < 0.2:
        raise ScenarioError(f"{name}.ping: {sc.ping_s:g} s: 0 (no pings) or at least 0.2 "
                            "(ping's shortest interval for a user)")
    sc.variants = _variants(f"{name}.variants", d.get("variants", {}))
    known = QDISCS + tuple(sc.variants)
    if not isinstance(sc.seeds, list) or not sc.seeds:
        raise ScenarioError(f"{name}.seeds: a non-empty list of whole numbers")
    for s in sc.seeds:
        _num(f"{name}.seeds", s, 0, 2**31 - 1, integer=True)
    if len(set(sc.seeds)) != len(sc.seeds):
        raise ScenarioError(f"{name}.seeds: a seed is listed twice")
    _qdiscs(f"{name}.qdiscs", sc.qdiscs, known)
    st = d["stations"]
    if not isinstance(st, list) or not 1 <= len(st) <= MAX_STATIONS:
        raise ScenarioError(f"{name}.stations: 1 to {MAX_STATIONS} [[stations]] tables")
    rates = legacy_ofdm_rates()
    for i, s in enumerate(st, 1):
        w = f"{name}.stations[{i}]"
        _check_keys(w, s, ("snr", "loss", "rate_cap"), ("snr",))
        _num(f"{w}.snr", s["snr"], -10, 80)
        if "loss" in s:
            _num(f"{w}.loss", s["loss"], 0, 0.95)
        if "rate_cap" in s:
            _num(f"{w}.rate_cap", s["rate_cap"], 1, 10000)
        if "rate_cap" in s and phy == "11a" and s["rate_cap"] not in rates:
            raise ScenarioError(f"{w}.rate_cap: {s['rate_cap']} Mbit/s is not an 802.11a rate "
                                f"({', '.join(f'{r:g}' for r in rates)})")
        sc.stations.append(dict(s))
    runs = d["runs"]
    if not isinstance(runs, list) or not runs:
        raise ScenarioError(f"{name}.runs: at least one [[runs]] table")
    for j, r in enumerate(runs):
        w = f"{name}.runs[{j}]"
        _check_keys(w, r, ("name", "delayed_ack", "flows", "qdiscs"), ("name", "flows"))
        rn = r["name"]
        if not isinstance(rn, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_.]*", rn):
            raise ScenarioError(f"{w}.name: '{rn}' (lower-case letters, digits, '_' and '.')")
        if any(x.name == rn for x in sc.runs):
            raise ScenarioError(f"{w}.name: '{rn}' is used twice")
        dack = _num(f"{w}.delayed_ack", r.get("delayed_ack", 2), 1, 2, integer=True)
        qs = _qdiscs(f"{w}.qdiscs", r.get("qdiscs", sc.qdiscs), known)
        sc.runs.append(Run(rn, dack, _flows(w, r["flows"], len(sc.stations), sc.dilation), qs))
        if not any(sc.runs[-1].flows.values()):
            raise ScenarioError(f"{w}.flows: no station has a flow")
    sc.hostapd = _hostapd(f"{name}.hostapd", d.get("hostapd", {}))
    sc.medium = _medium(f"{name}.medium", hostapd_edca(sc.hostapd) +
                        d.get("medium", []), len(sc.stations))
    _published(sc, d.get("published", {}))
    sc.targets = _targets(sc, d.get("targets", []))
    return sc


# What a scenario may add to the medium's config (docs/medium.md); the rest is the
# harness's (phy, dilation, seed, the stations' pairs).
MEDIUM_KEYWORDS = ("edca", "queue-limit", "retries", "ampdu", "beacons")
MEDIUM_BIN = os.path.join(REPO, "build", "testbed", "medium", "airfair-medium")


def _medium(where, lines, nsta):
    if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
        raise ScenarioError(f"{where}: a list of medium config lines (docs/medium.md)")
    for ln in lines:
        w = ln.split()
        if not w or w[0] not in MEDIUM_KEYWORDS:
            raise ScenarioError(f"{where}: '{ln}': a scenario may add {', '.join(MEDIUM_KEYWORDS)} "
                                "lines (the stations' links are [[stations]])")
        if w[0] == "edca" and len(w) > 1 and w[1] != "*" and not (
                w[1].isdigit() and int(w[1]) <= nsta):
            raise ScenarioError(f"{where}: '{ln}': radio {w[1]} is not the AP (0) or a station (1-{nsta})")
    if lines and os.access(MEDIUM_BIN, os.X_OK):
        # the medium's own parser has the last word (a 1 ms simulation of the config)
        import subprocess
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
            f.write("phy 5g 11a\n" + "\n".join(lines) + "\n")
            f.flush()
            r = subprocess.run([MEDIUM_BIN, "--simulate", "-c", f.name, "--stations", "1",
                                "--duration", "0.001"],
                               capture_output=True, text=True)
        if r.returncode != 0:
            msg = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
            raise ScenarioError(f"{where}: the medium refuses it: {msg.split(': ', 2)[-1]}")
    return list(lines)


# The AP's EDCA as hostapd.conf sets it: its own queues (tx_queue_dataN_*, N = 0 VO,
# 1 VI, 2 BE, 3 BK; cwmin/cwmax in slots, burst in ms to 0.1) and the parameters it
# advertises to the stations in its WMM element (wmm_ac_*; cwmin/cwmax exponents,
# txop_limit in 32 us). The hwsim radios do not pass their EDCA to the medium, so the
# AP's own queues reach it from here as `edca` lines; what the AP advertises the medium
# reads off the air, from the WMM element of its beacons and association responses, as
# the stations do (testbed/medium/wmm.c), so that a change at run time reaches it too.
HOSTAPD_ACS = {"0": "vo", "1": "vi", "2": "be", "3": "bk"}
HOSTAPD_KEYS = {  # key pattern -> (lo, hi, whole)
    r"tx_queue_data[0-3]_aifs": (1, 15, True),
    r"tx_queue_data[0-3]_cw(min|max)": (1, 32767, True),
    r"tx_queue_data[0-3]_burst": (0, 99.9, False),
    r"wmm_ac_(vo|vi|be|bk)_aifs": (1, 15, True),
    r"wmm_ac_(vo|vi|be|bk)_cw(min|max)": (0, 15, True),
    r"wmm_ac_(vo|vi|be|bk)_txop_limit": (0, 2047, True),
}


def _hostapd(where, d):
    if not isinstance(d, dict):
        raise ScenarioError(f"{where}: a table of hostapd.conf EDCA keys = values")
    out = {}
    for key, v in d.items():
        rng = next((r for pat, r in HOSTAPD_KEYS.items() if re.fullmatch(pat, key)), None)
        if rng is None:
            raise ScenarioError(f"{where}: '{key}': a scenario may set the AP's EDCA "
                                "(tx_queue_data[0-3]_{aifs,cwmin,cwmax,burst}, "
                                "wmm_ac_{vo,vi,be,bk}_{aifs,cwmin,cwmax,txop_limit})")
        _num(f"{where}.{key}", v, rng[0], rng[1], integer=rng[2])
        if "_cw" in key and key.startswith("tx_queue") and v & (v + 1):
            raise ScenarioError(f"{where}.{key}: {v} is not of the form 2^n-1")
        if key.endswith("_burst") and abs(v * 10 - round(v * 10)) > 1e-9:
            raise ScenarioError(f"{where}.{key}: {v} ms: hostapd takes 0.1 ms steps")
        out[key] = v
    return out


def hostapd_txop_us(burst_ms):
    """The TXOP limit hostapd's tx_queue_dataN_burst gives the driver: the burst in
    0.1 ms, sent to nl80211 in 32 us units as (burst * 100 + 16) / 32."""
    return (round(burst_ms * 10) * 100 + 16) // 32 * 32


# hostapd's tx_queue_dataN_ suffix -> the medium's edca word and its value (slots, and
# the burst in ms as the TXOP hostapd gives the driver)
TX_QUEUE_TO_MEDIUM = {"aifs": ("aifsn", int), "cwmin": ("cwmin", int), "cwmax": ("cwmax", int),
                      "burst": ("txop", hostapd_txop_us)}


def hostapd_edca(h):
    """The medium's `edca` lines for the AP's own queues (tx_queue_*, radio 0). The
    wmm_ac_* keys go to hostapd only: the medium's stations take them from its WMM
    element, and an `edca` line for a station would pin it against that."""
    lines = []
    for key, v in h.items():
        m = re.fullmatch(r"tx_queue_data([0-3])_(\w+)", key)
        if not m:
            continue
        word, conv = TX_QUEUE_TO_MEDIUM[m.group(2)]
        lines.append(f"edca 0 {HOSTAPD_ACS[m.group(1)]} {word} {conv(v)}")
    return lines


def hostapd_lines(h):
    """The same keys as hostapd.conf lines (testbed/scenarios/fairness.sh adds them)."""
    return [f"{k}={v:g}" for k, v in h.items()]


# What a [published] table may hold: metric -> what it is (docs/results.md prints it).
PUBLISHED_METRICS = {"jain": "airtime Jain", "throughput_jain": "throughput Jain",
                     "goodput_mbps": "total goodput (Mbit/s)"}


def _published(sc, p):
    w = f"{sc.name}.published"
    _check_keys(w, p, ("source",) + tuple(PUBLISHED_METRICS))
    sc.published_source = str(p.get("source", ""))
    runs = {r.name for r in sc.runs}
    for metric in PUBLISHED_METRICS:
        if metric not in p:
            continue
        table = p[metric]
        _check_keys(f"{w}.{metric}", table, sorted(runs))
        sc.published[metric] = {}
        for run, row in table.items():
            _check_keys(f"{w}.{metric}.{run}", row, next(r.qdiscs for r in sc.runs if r.name == run))
            sc.published[metric][run] = {q: _num(f"{w}.{metric}.{run}.{q}", v, 0, 1e6)
                                         for q, v in row.items()}
    if p and not sc.published_source:
        raise ScenarioError(f"{w}.source: say where the published figures come from")


# The per-guest figures of a run (report.summarise): what the report aggregates over the
# guests and a [[targets]] entry may judge.
RUN_METRICS = ("jain", "jain_backoff", "throughput_jain", "goodput_mbps", "efficiency",
               "efficiency_backoff", "busy",
               "if_index", "session_cov", "rtt_p50_ms", "rtt_p99_ms", "ping_loss", "up_share",
               "maxmin")


def _targets(sc, ts):
    """[[targets]]: metric, qdisc, runs (default all of the qdisc's), and either min / max
    (a bound every guest must meet) or vs + factor (at most factor x the vs qdisc's figure
    in the same guest and run); note: why the last measurement missed it, if it did."""
    w = f"{sc.name}.targets"
    if not isinstance(ts, list):
        raise ScenarioError(f"{w}: a list of [[targets]] tables")
    out = []
    for j, t in enumerate(ts):
        wt = f"{w}[{j}]"
        _check_keys(wt, t, ("metric", "qdisc", "runs", "min", "max", "vs", "factor", "note"),
                    ("metric", "qdisc"))
        if not isinstance(t.get("note", ""), str):
            raise ScenarioError(f"{wt}.note: a string (what the last measurement showed, and why)")
        if t["metric"] not in RUN_METRICS:
            raise ScenarioError(f"{wt}.metric: '{t['metric']}' (known: {', '.join(RUN_METRICS)})")
        runs = t.get("runs", [r.name for r in sc.runs if t["qdisc"] in r.qdiscs])
        if not isinstance(runs, list) or not runs:
            raise ScenarioError(f"{wt}.runs: a non-empty list of run names")
        for rn in runs:
            r = next((x for x in sc.runs if x.name == rn), None)
            if r is None:
                raise ScenarioError(f"{wt}.runs: no run '{rn}'")
            for q in (t["qdisc"], t.get("vs")):
                if q is not None and q not in r.qdiscs:
                    raise ScenarioError(f"{wt}: run '{rn}' does not run '{q}'")
        kinds = [k for k in ("min", "max", "vs") if k in t]
        if len(kinds) != 1 or ("vs" in t) != ("factor" in t):
            raise ScenarioError(f"{wt}: one of min, max, or vs with factor")
        for k in ("min", "max", "factor"):
            if k in t:
                _num(f"{wt}.{k}", t[k], -1e9, 1e9)
        out.append(dict(t, runs=runs))
    return out


def load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
        raise ScenarioError(f"{path}: a scenario's file name is its name: lower-case, digits, - and _")
    try:
        with open(path, "rb") as f:
            text = f.read().decode()
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError(f"{path}: {e}") from None
    return parse(text, name, path)


def plan_sh(sc, seed):
    """One seed of SC as bash assignments for testbed/run-scenario.sh."""
    q = shlex.quote
    lines = [f"# {sc.name} seed {seed}: generated from {os.path.relpath(sc.path, REPO) if sc.path else sc.name}",
             f"SCEN_NAME={q(sc.name)}", f"SCEN_SEED={seed}", f"SCEN_SECONDS={sc.seconds}",
             f"SCEN_WARMUP={sc.warmup}",
             f"AIRFAIR_MEDIUM_K={sc.dilation}", f"AIRFAIR_DEMO_SEED={seed}",
             f"AIRFAIR_DEMO_OMIT={sc.omit}",
             f"AIRFAIR_DEMO_DELAY_MS={sc.wired_delay_ms:g}",
             f"FAIR_PING_S={sc.ping_s:g}",
             f"FAIR_PHY={sc.phy}",
             f"FAIR_NSTA={len(sc.stations)}",
             "FAIR_SNR=(\"\" " + " ".join(f"{s['snr']:g}" for s in sc.stations) + ")",
             "FAIR_LINK=(\"\" " + " ".join(q(sc.link(i)) for i in range(1, len(sc.stations) + 1)) + ")",
             "SCEN_RUNS=(" + " ".join(r.name for r in sc.runs) + ")",
             "FAIR_MEDIUM_EXTRA=(" + " ".join(q(x) for x in sc.medium) + ")",
             "FAIR_HOSTAPD_EXTRA=(" + " ".join(q(x) for x in hostapd_lines(sc.hostapd)) + ")",
             # the guest's time limit: every run under every qdisc, set-up and drains
             f"SCEN_BUDGET_S={300 + sum(len(r.qdiscs) for r in sc.runs) * (sc.seconds + sc.omit + 60)}"]
    for r in sc.runs:
        v = r.name.replace(".", "_")
        lines.append(f"SCEN_DACK_{v}={r.delayed_ack}")
        lines.append(f"SCEN_QDISCS_{v}={q(' '.join(r.qdiscs))}")
        lines.append(f"SCEN_FLOWS_{v}=(\"\" " + " ".join(
            q(" ".join(f.spec() for f in r.flows[i])) for i in range(1, len(sc.stations) + 1)) + ")")
    for label, (base, opts) in sc.variants.items():
        lines.append(f"SCEN_VARIANT_{re.sub(r'[-.]', '_', label)}={q(base + '|' + opts)}")
    return "\n".join(lines) + "\n"


def smoke(sc):
    """Cut SC down to what make check can afford: its first run, pfifo and airfair (or
    its first two qdiscs), 8 s measured, its first seed."""
    sc.runs = sc.runs[:1]
    r = sc.runs[0]
    base = lambda q: sc.variants.get(q, (q,))[0]
    # airfair as the product runs it: its defaults (`tc qdisc add dev wlan0 root airfair`
    # and the PHY preset), else the metered airfair, whose `utilisation` is the testbed's
    # own number (docs/scenarios.md), else any airfair variant but the naive baseline
    fair = sorted((q for q in r.qdiscs if base(q).startswith("airfair") and base(q) != "airfair-naive"),
                  key=lambda q: (q != "airfair-default", q != "airfair",
                                 base(q) != "airfair-default", base(q) != "airfair"))
    r.qdiscs = ([q for q in r.qdiscs if base(q) == "pfifo"][:1] + fair[:1]) or r.qdiscs[:2]
    sc.seconds = 8
    sc.warmup = 2
    sc.seeds = sc.seeds[:1]


def select(sc, runs=None, qdiscs=None):
    """Keep only the named runs and qdiscs (make demo's AIRFAIR_DEMO_DIRECTIONS/_QDISCS).
    A variant the scenario defines but no run lists (one kept for A/B runs, not run by
    default) joins every run when named."""
    if runs:
        for n in runs:
            if n not in [r.name for r in sc.runs]:
                raise ScenarioError(f"{sc.name}: no run '{n}' ({', '.join(r.name for r in sc.runs)})")
        sc.runs = [r for r in sc.runs if r.name in runs]
    if qdiscs:
        _qdiscs("--qdiscs", qdiscs, QDISCS + tuple(sc.variants))
        unlisted = [q for q in qdiscs
                    if q in sc.variants and not any(q in r.qdiscs for r in sc.runs)]
        for r in sc.runs:
            r.qdiscs = [q for q in r.qdiscs if q in qdiscs] + unlisted
        sc.runs = [r for r in sc.runs if r.qdiscs]
        if not sc.runs:
            raise ScenarioError(f"{sc.name}: none of {' '.join(qdiscs)} is in a run")


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="airfair_analysis.scenario",
                                 description="check a scenario, or print one seed's plan")
    ap.add_argument("command", choices=("check", "plan", "seeds"))
    ap.add_argument("file")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--seconds", type=int, help="measured seconds per run instead of the file's")
    ap.add_argument("--smoke", action="store_true",
                    help="the first run only, under pfifo and airfair, 8 s (make check)")
    ap.add_argument("--runs", help="only these runs (space-separated)")
    ap.add_argument("--qdiscs", help="only these qdiscs (space-separated)")
    a = ap.parse_args(argv)
    try:
        sc = load(a.file)
        select(sc, (a.runs or "").split(), (a.qdiscs or "").split())
        if a.smoke:
            smoke(sc)
        if a.seconds is not None:
            sc.seconds = _num("--seconds", a.seconds, 5, 600, integer=True)
    except ScenarioError as e:
        print(f"scenario: {e}", file=sys.stderr)
        return 1
    if a.command == "check":
        print(f"{sc.name}: {len(sc.stations)} stations, {sum(len(r.qdiscs) for r in sc.runs)} "
              f"runs x qdiscs, {len(sc.seeds)} seeds, {sc.seconds + sc.omit} s each")
    elif a.command == "seeds":
        print(" ".join(str(s) for s in sc.seeds))
    else:
        print(plan_sh(sc, sc.seeds[0] if a.seed is None else a.seed), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
