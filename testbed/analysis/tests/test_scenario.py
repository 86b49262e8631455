# SPDX-License-Identifier: GPL-2.0
import glob
import io
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from airfair_analysis.demo import show
from airfair_analysis.metrics import maxmin_fair
from airfair_analysis.report import aggregate, judge_targets, markdown, summarise
from airfair_analysis.scenario import MEDIUM_BIN, REPO, ScenarioError, load, parse, plan_sh, select, smoke

GOOD = """
title = "t"
seeds = [3, 4]
qdiscs = ["pfifo", "airfair"]
medium = ["edca 0 be txop 0"]
variants = { "airfair-b50" = "airfair-default limit 50" }
[[stations]]
snr = 35
[[stations]]
snr = 11
rate_cap = 6
loss = 0.2
[[runs]]
name = "down.d1"
delayed_ack = 1
flows = [{ stations = "all", kind = "tcp-down", cc = "reno" },
         { stations = [2], kind = "udp-up", rate = "5M" }]
[[runs]]
name = "up"
qdiscs = ["airfair", "airfair-b50"]
flows = [{ stations = [1], kind = "tcp-up", rtt_ms = 20 }]
[published]
source = "somewhere"
[published.jain]
"down.d1" = { airfair = 0.99 }
"""


class Scenario(unittest.TestCase):
    def test_parse(self):
        sc = parse(GOOD, "t")
        self.assertEqual(sc.seeds, [3, 4])
        self.assertEqual(sc.link(2), "snr 11 rate-cap 6 loss 0.2")
        self.assertEqual([f.spec() for f in sc.runs[0].flows[2]], ["tcp-down@reno", "udp-up:5M"])
        self.assertEqual(sc.runs[1].delayed_ack, 2)
        self.assertEqual(sc.runs[1].flows[1][0].spec(), "tcp-up~120")   # 20 ms simulated x k 6
        self.assertEqual(sc.runs[1].flows[2], [])
        self.assertEqual(sc.published["jain"]["down.d1"]["airfair"], 0.99)
        self.assertEqual(sc.ping_s, 0.5)
        self.assertEqual(parse(GOOD.replace("seeds = [3, 4]", "ping = 0\nseeds = [3, 4]"),
                               "t").ping_s, 0)

    def test_plan_in_bash(self):
        """The plan, sourced by bash, gives run-scenario.sh the scenario's values."""
        plan = plan_sh(parse(GOOD, "t"), 4)
        res = subprocess.run(["bash", "-c", plan + 'printf "%s#" "$SCEN_SEED" "$SCEN_QDISCS_down_d1" '
                              '"${FAIR_LINK[2]}" "${SCEN_FLOWS_down_d1[2]}" "${SCEN_FLOWS_up[2]}" '
                              '"$SCEN_DACK_down_d1" "${SCEN_RUNS[*]}" "$FAIR_NSTA" "$SCEN_QDISCS_up" "$SCEN_VARIANT_airfair_b50" '
                              '"$FAIR_PING_S"'],
                             capture_output=True, text=True, check=True)
        self.assertEqual(res.stdout.split("#")[:-1],
                         ["4", "pfifo airfair", "snr 11 rate-cap 6 loss 0.2",
                          "tcp-down@reno udp-up:5M", "", "1", "down.d1 up", "2", "airfair airfair-b50",
                          "airfair-default|limit 50", "0.5"])

    def test_errors(self):
        """Each bad scenario is refused with a message that names what is wrong."""
        bad = {
            'qdiscs = ["pfifo", "airfair"]': ('qdiscs = ["pfifo", "sfq"]', "'sfq'"),
            "snr = 35": ("snr = 35\nsnir = 3", "unknown key 'snir'"),
            "rate_cap = 6": ("rate_cap = 7", "not an 802.11a rate"),
            'kind = "tcp-up"': ('kind = "tcp-sideways"', "tcp-sideways"),
            'rate = "5M"': ('rate = "fast"', "not a rate"),
            'cc = "reno"': ('cc = "hybla"', "hybla"),
            "seeds = [3, 4]": ("seeds = [3, 3]", "listed twice"),
            "delayed_ack = 1": ("delayed_ack = 3", "out of range"),
            "stations = [2]": ("stations = [3]", "out of range"),
            '"down.d1" = { airfair': ('"down.d9" = { airfair', "unknown key 'down.d9'"),
            'title = "t"': ('title = "t"\nphy = "11ax"', "not run by the testbed"),
            'title = "t"\nseeds': ('title = "t"\nping = 0.1\nseeds', "0 (no pings) or at least 0.2"),
            'name = "up"': ('name = "down.d1"', "used twice"),
            'qdiscs = ["airfair", "airfair-b50"]': ('qdiscs = ["airfair", "airfair"]', "listed twice"),
            '"airfair-b50" = "airfair-default': ('"airfair-b50" = "sfq', "is not 'QDISC OPTIONS"),
            '"airfair-b50" =': ('"pfifo" =', "must be a new name"),
            'limit 50" }': ('limit 50;reboot" }', "plain words"),
            '"edca 0 be txop 0"': ('"phy 2g 11b"', "may add edca"),
            '"edca 0 be txop 0"]': ('"edca 3 be txop 0"]', "radio 3 is not"),
        }
        for old, (new, msg) in bad.items():
            self.assertIn(old, GOOD)
            with self.assertRaises(ScenarioError, msg=new) as cm:
                parse(GOOD.replace(old, new, 1), "t")
            self.assertIn(msg, str(cm.exception))
        with self.assertRaises(ScenarioError):
            parse("title = ", "t")

    def test_hostapd(self):
        """[hostapd]: the AP's EDCA as hostapd.conf lines; its own queues also as the
        medium's edca lines for radio 0. What it advertises the medium's stations take
        from its WMM element (testbed/medium/wmm.c), so no station is pinned."""
        h = ("\n[hostapd]\ntx_queue_data3_burst = 1.8\ntx_queue_data2_cwmax = 1023\n"
             "tx_queue_data3_aifs = 6\n"
             "wmm_ac_be_aifs = 2\nwmm_ac_be_cwmin = 5\nwmm_ac_vo_txop_limit = 47\n")
        sc = parse(GOOD + h, "t")
        self.assertEqual(sc.medium[:4], [
            "edca 0 bk txop 1792", "edca 0 be cwmax 1023", "edca 0 bk aifsn 6",
            "edca 0 be txop 0"])
        self.assertEqual(sc.medium[-1], "edca 0 be txop 0")     # the scenario's own last
        res = subprocess.run(["bash", "-c", plan_sh(sc, 3) + 'printf "%s#" "${FAIR_HOSTAPD_EXTRA[@]}"'],
                             capture_output=True, text=True, check=True)
        self.assertEqual(res.stdout.split("#")[:-1],
                         ["tx_queue_data3_burst=1.8", "tx_queue_data2_cwmax=1023", "tx_queue_data3_aifs=6",
                          "wmm_ac_be_aifs=2",
                          "wmm_ac_be_cwmin=5", "wmm_ac_vo_txop_limit=47"])
        for bad, msg in (("ht_capab = 1", "may set the AP's EDCA"),
                         ("tx_queue_data4_aifs = 2", "may set the AP's EDCA"),
                         ("tx_queue_data3_burst = 1.85", "0.1 ms steps"),
                         ("tx_queue_data3_cwmin = 16", "2^n-1"),
                         ("wmm_ac_be_aifs = 0", "out of range"),
                         ("wmm_ac_be_cwmin = 2.5", "not a whole number")):
            with self.assertRaises(ScenarioError, msg=bad) as cm:
                parse(GOOD + "\n[hostapd]\n" + bad + "\n", "t")
            self.assertIn(msg, str(cm.exception))
        self.assertEqual(parse(GOOD, "t").medium, ["edca 0 be txop 0"])

    @unittest.skipUnless(os.access(MEDIUM_BIN, os.X_OK), f"{MEDIUM_BIN} not built (make)")
    def test_medium_parser(self):
        """Extra medium lines go through the medium's own parser."""
        with self.assertRaises(ScenarioError) as cm:
            parse(GOOD.replace("txop 0", "aifsn 99"), "t")
        self.assertIn("the medium refuses it: aifsn 99: want [1, 15]", str(cm.exception))

    def test_select(self):
        """--runs/--qdiscs/--smoke cut a scenario down; a name it lacks is refused."""
        sc = parse(GOOD, "t")
        select(sc, ["up"], None)
        self.assertEqual([r.name for r in sc.runs], ["up"])
        sc = parse(GOOD, "t")
        select(sc, None, ["pfifo"])
        self.assertEqual([(r.name, r.qdiscs) for r in sc.runs], [("down.d1", ["pfifo"])])
        sc = parse(GOOD, "t")
        select(sc, None, ["airfair-b50"])
        self.assertEqual([(r.name, r.qdiscs) for r in sc.runs], [("up", ["airfair-b50"])])
        # a variant no run lists joins every run when named, after the listed ones
        sc = parse(GOOD.replace('"airfair-default limit 50" }',
                                '"airfair-default limit 50", "airfair-x" = "airfair ecn" }'), "t")
        select(sc, None, ["airfair-x", "pfifo", "airfair"])
        self.assertEqual([(r.name, r.qdiscs) for r in sc.runs],
                         [("down.d1", ["pfifo", "airfair", "airfair-x"]), ("up", ["airfair", "airfair-x"])])
        for runs, qdiscs in ((["sideways"], None), (None, ["sfq"]), (["up"], ["pfifo"])):
            with self.assertRaises(ScenarioError):
                select(parse(GOOD, "t"), runs, qdiscs)
        sc = parse(GOOD, "t")
        smoke(sc)
        self.assertEqual((len(sc.runs), sc.runs[0].qdiscs, sc.seconds, sc.seeds), (1, ["pfifo", "airfair"], 8, [3]))
        # the smoke judges airfair, never the naive baseline listed before it
        sc = parse(GOOD.replace('qdiscs = ["pfifo", "airfair"]\n', 'qdiscs = ["pfifo", "airfair-naive", "airfair-b50", "airfair"]\n', 1), "t")
        smoke(sc)
        self.assertEqual(sc.runs[0].qdiscs, ["pfifo", "airfair"])
        # ... and the defaults, what `tc qdisc add ... airfair` gives, before the meter
        sc = parse(GOOD.replace('qdiscs = ["pfifo", "airfair"]\n',
                                'qdiscs = ["pfifo", "airfair", "airfair-naive", "airfair-default"]\n', 1), "t")
        smoke(sc)
        self.assertEqual(sc.runs[0].qdiscs, ["pfifo", "airfair-default"])
        sc = parse(GOOD.replace('qdiscs = ["pfifo", "airfair"]\n', 'qdiscs = ["pfifo", "airfair-naive", "airfair-b50"]\n', 1)
                   .replace("{ airfair = 0.99 }", "{ pfifo = 0.99 }"), "t")
        smoke(sc)
        self.assertEqual(sc.runs[0].qdiscs, ["pfifo", "airfair-b50"])

    def test_shipped(self):
        """Every scenario in testbed/scenarios/ loads."""
        files = glob.glob(os.path.join(REPO, "testbed", "scenarios", "*.toml"))
        self.assertTrue(files)
        for f in files:
            self.assertTrue(load(f).runs, f)


def medium(sim_us, busy_us, air, backoff=None, contended_us=0):
    backoff = backoff or [0] * len(air)
    return {"medium": {"sim_time_us": sim_us,
                       "channels": [{"busy_us": busy_us, "contended_idle_us": contended_us}],
                       "links": [dict(tx=0, rx=i, ac="be", airtime_us=a, backoff_idle_us=b,
                                      bytes=0, data_us=0)
                                 for i, (a, b) in enumerate(zip(air, backoff), 1)]}}


class GuestDeath(unittest.TestCase):
    """scenarios.sh boots a guest once more only when it died of the emulator's
    text-patching race: an int3 oops in core kernel text."""

    def artifact(self, console):
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write(console)
            f.flush()
            res = subprocess.run(
                ["bash", "-c", 'eval "$(sed -n "/^tcg_artifact() {/,/^}/p" "$1")"; tcg_artifact "$2"',
                 "-", os.path.join(REPO, "testbed", "scenarios.sh"), f.name],
                capture_output=True, text=True)
        return res.returncode == 0, res.stdout.strip()

    def test_tcg_artifact(self):
        oops = ("[   17.180566] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\n"
                "[   17.181087] CPU: 0 UID: 0 PID: 17 Comm: ksoftirqd/0\n"
                "[   17.181379] RIP: 0010:{}\n[   17.185681] Kernel panic\n")
        ok, why = self.artifact(oops.format("inet_ehashfn+0x33/0x110"))
        self.assertTrue(ok)
        self.assertIn("inet_ehashfn+0x33/0x110", why)
        self.assertFalse(self.artifact(oops.format("airfair_enqueue+0x33/0x110 [sch_airfair]"))[0])
        self.assertFalse(self.artifact(oops.format("x+0x1/0x2").replace("int3", "general protection"))[0])
        self.assertFalse(self.artifact("# vm: the guest died before the command finished\n")[0])


    def run_stubbed(self, rip):
        """scenarios.sh with a vm/run.sh whose first guest dies with an int3 oops at RIP
        and whose second finishes: (exit code, the guest's directory)."""
        t = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, t)
        # the repository by symlinks, but for the script and the two stubs
        for top in os.listdir(REPO):
            if top not in ("testbed", "vm", ".git"):
                os.symlink(os.path.join(REPO, top), os.path.join(t, top))
        os.makedirs(os.path.join(t, "testbed", "hwsim-patches"))
        os.makedirs(os.path.join(t, "vm"))
        for name in os.listdir(os.path.join(REPO, "testbed")):
            if name not in ("scenarios.sh", "hwsim-patches"):
                os.symlink(os.path.join(REPO, "testbed", name), os.path.join(t, "testbed", name))
        shutil.copy(os.path.join(REPO, "testbed", "scenarios.sh"), os.path.join(t, "testbed"))
        stubs = {"testbed/hwsim-patches/build.sh": "exit 1\n",
                 "vm/run.sh": ('n=$(cat "$(dirname "$0")/boots" 2>/dev/null || echo 0)\n'
                               'echo $((n + 1)) > "$(dirname "$0")/boots"\n'
                               f'[ "$n" != 0 ] || {{ printf "[ 1.0] Oops: int3: 0000\\n'
                               f'[ 1.1] RIP: 0010:{rip}\\n"; exit 1; }}\n'
                               'echo "guest ok"\n')}
        for name, body in stubs.items():
            with open(os.path.join(t, name), "w") as f:
                f.write("#!/bin/bash\n" + body)
            os.chmod(os.path.join(t, name), 0o755)
        res = subprocess.run([os.path.join(t, "testbed", "scenarios.sh"), "--stock", "--kver", "K",
                              "--smoke", "--out", os.path.join(t, "out"), "demo"],
                             capture_output=True, text=True)
        return res.returncode, os.path.join(t, "out", "demo", "K-stock-s7")

    def test_retry(self):
        rc, g = self.run_stubbed("inet_ehashfn+0x33/0x110")
        self.assertEqual(rc, 0)
        self.assertIn("int3 oops in core kernel text", open(os.path.join(g, "retried.txt")).read())
        self.assertIn("Oops: int3", open(os.path.join(g, "console-died.txt")).read())
        self.assertEqual(open(os.path.join(g, "console.txt")).read(), "guest ok\n")
        rc, g = self.run_stubbed("airfair_dequeue+0x10/0x90 [sch_airfair]")
        self.assertNotEqual(rc, 0)
        self.assertFalse(os.path.exists(os.path.join(g, "retried.txt")))


class Report(unittest.TestCase):
    """Two synthetic guests of a 2-station scenario: summarise, aggregate, the markdown."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.sc = parse(GOOD, "t")
        # guest, qdisc -> (airtime per station, busy, goodput bit/s per station,
        # AIFS + backoff per station, contended idle)
        runs = {("g1", "pfifo"): ([300, 100], 800, [1e6, 1e6], [50, 50], 100),
                ("g1", "airfair"): ([200, 200], 600, [3e6, 1e6], [100, 100], 200),
                ("g2", "pfifo"): ([400, 100], 800, [1e6, 1e6], None, 0),
                ("g2", "airfair"): ([250, 250], 700, [3e6, 1e6], None, 0)}
        for (g, q), (air, busy, gp, backoff, contended) in runs.items():
            d = os.path.join(self.dir, g, "down.d1")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(self.dir, g, "meta.txt"), "w") as f:
                f.write(f"seed {g[1]}\nkernel k{g[1]}\nhook yes\n")
            p = os.path.join(d, q)
            json.dump(medium(0, 0, [0, 0]), open(p + "-m0.json", "w"))
            json.dump(medium(1000, busy, air, backoff, contended), open(p + "-m1.json", "w"))
            open(p + "-medium.conf", "w").write("dilation 2\nphy 5g 11n-5g\n")
            for i, bps in enumerate(gp, 1):
                json.dump({"end": {"sum_received": {"bits_per_second": bps}}},
                          open(f"{p}-iperf-sta{i}-0.json", "w"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_summary(self):
        recs = summarise(self.dir)
        self.assertEqual(len(recs), 4)
        r = {(x["guest"], x["qdisc"]): x for x in recs}
        self.assertAlmostEqual(r[("g1", "pfifo")]["jain"], 0.8)       # 400^2 / (2 * 100000)
        self.assertAlmostEqual(r[("g1", "airfair")]["jain"], 1.0)
        self.assertAlmostEqual(r[("g1", "airfair")]["goodput_mbps"], 8.0)   # x dilation 2
        self.assertAlmostEqual(r[("g1", "airfair")]["throughput_jain"], 0.8)
        # optimum: each station half of pfifo's 80 % busy air at 6/0.2 and 2/0.2 Mbit/s per
        # second of air: 0.4 * (30 + 10) = 16; efficiency 8 / 16
        self.assertAlmostEqual(r[("g1", "airfair")]["efficiency"], 0.5)
        # chen-yan's airtime: 300 us each (air + AIFS + backoff) against pfifo's 80 % busy
        # + 10 % contended: 0.45 * (6/0.3 + 2/0.3) = 12; efficiency 8 / 12
        self.assertAlmostEqual(r[("g1", "airfair")]["efficiency_backoff"], 8 / 12)
        # no contention reported: the same as the busy-air efficiency
        self.assertAlmostEqual(r[("g2", "airfair")]["efficiency_backoff"],
                               r[("g2", "airfair")]["efficiency"])
        a = aggregate(recs)[("down.d1", "pfifo")]
        self.assertAlmostEqual(a["jain"]["min"], 25 / 34)
        self.assertAlmostEqual(a["jain"]["max"], 0.8)
        self.assertEqual(a["jain"]["n"], 2)
        self.assertEqual(a["kernels"], ["k1", "k2"])

    def test_demo(self):
        """make demo's printout from one guest's data: the summary row, the line for scripts."""
        g = os.path.join(self.dir, "g1")
        with open(os.path.join(g, "plan.in"), "w") as f:
            f.write(plan_sh(self.sc, 1))
        with open(os.path.join(g, "meta.txt"), "a") as f:
            f.write("station 1 02:00:00:00:01:00 54 48 snr 35\nstation 2 02:00:00:00:02:00 6 6 snr 11\n")
        buf = io.StringIO()
        show(g, buf)
        out = buf.getvalue()
        self.assertIn("  sta2 02:00:00:00:02:00: snr 11; minstrel: AP->sta 6 Mbit/s, sta->AP 48", out.replace(
            "sta->AP 6 Mbit/s", "sta->AP 48"))
        rows = [ln.split() for ln in out.splitlines() if ln.startswith("  airfair ")]
        self.assertEqual(rows[0][:7], ["airfair", "down.d1", "1.0000", "1.0000", "50.0", "50.0", "8.00"])
        self.assertEqual(rows[0][7:9], ["0.500", "0.667"])
        self.assertIn("efficiency: airfair down.d1 0.500 up n/a", out)
        self.assertIn("efficiency+backoff: airfair down.d1 0.667 up n/a", out)
        self.assertIn("channel contended idle 20.0 %", out)
        self.assertIn("medium: airfair-medium, 11n-5g, dilation", out)
        self.assertIn("== airfair, up ==\nskipped: no data", out)

    def test_maxmin(self):
        """A station under its share is excused only if it was not backlogged."""
        rec = {"shares": [0.45, 0.45, 0.10], "backlogged": [1.0, 1.0, 0.3]}
        self.assertTrue(maxmin_fair(rec))
        rec["backlogged"][2] = 0.95
        self.assertFalse(maxmin_fair(rec))
        rec["backlogged"][2] = None
        self.assertFalse(maxmin_fair(rec))

    def test_targets(self):
        """[[targets]]: judged on every guest, the worst shown; a ratio against another qdisc."""
        sc = parse(GOOD + """
[[targets]]
metric = "jain"
qdisc = "airfair"
min = 0.99
[[targets]]
metric = "throughput_jain"
qdisc = "airfair"
runs = ["down.d1"]
vs = "pfifo"
factor = 0.75
[[targets]]
metric = "jain"
qdisc = "pfifo"
max = 0.7
note = "drop tail favours the fast station"
""", "t")
        rows = judge_targets(sc, summarise(self.dir))
        # airfair's airtime is equal in both guests; in run "up" there is no data
        self.assertEqual(rows[0][:2] + rows[0][2:], ("airfair jain >= 0.99", "down.d1", 2, 1.0, True))
        self.assertEqual(rows[1], ("airfair jain >= 0.99", "up", 0, None, None))
        # throughput Jain 0.8 (3 and 1 Mbit/s) against pfifo's 1.0: 0.8 > 0.75
        self.assertEqual(rows[2][2:], (2, 0.8, False))
        # pfifo's Jain 0.8 and 25/34: the worst (highest) is 0.8 > 0.7
        self.assertEqual(rows[3][2:], (2, 0.8, False))
        md = markdown(sc, aggregate(summarise(self.dir)), records=summarise(self.dir))
        self.assertIn("| airfair throughput_jain <= 0.75 x pfifo's | down.d1 | 2 | 0.8000 | **no** |", md)
        self.assertIn("*pfifo jain <= 0.7*: drop tail favours the fast station", md)
        for bad, msg in (('metric = "speed"\nqdisc = "airfair"\nmin = 1', "metric: 'speed'"),
                         ('metric = "jain"\nqdisc = "airfair"', "one of min, max"),
                         ('metric = "jain"\nqdisc = "airfair"\nmin = 1\nnote = 3', "note: a string"),
                         ('metric = "jain"\nqdisc = "airfair-b50"\nruns = ["down.d1"]\nmin = 1',
                          "does not run 'airfair-b50'"),
                         ('metric = "jain"\nqdisc = "airfair"\nruns = ["down.d1"]\nvs = "pfifo"\nmin = 1', "one of min")):
            with self.assertRaisesRegex(ScenarioError, msg):
                parse(GOOD + "[[targets]]\n" + bad + "\n", "t")

    def test_markdown(self):
        md = markdown(self.sc, aggregate(summarise(self.dir)))
        row = [ln for ln in md.splitlines() if ln.startswith("| down.d1 | airfair |")]
        self.assertEqual(len(row), 1)
        self.assertIn("| 1.0000 | 0.9900 |", row[0])      # ours beside the paper's
        # Jain in chen-yan's airtime beside it: pfifo's 350/150 us with the backoff in g1
        # (250000 / 290000), 400/100 in g2, which reports none (25/34)
        self.assertIn("| airtime Jain | paper | Jain +backoff |", md)
        row = [ln for ln in md.splitlines() if ln.startswith("| down.d1 | pfifo |")][0]
        self.assertIn(f"| {(25 / 29 + 25 / 34) / 2:.4f} ({25 / 34:.4f}-{25 / 29:.4f}) |", row)
        self.assertIn("Paper: somewhere.", md)


if __name__ == "__main__":
    unittest.main()
