# SPDX-License-Identifier: GPL-2.0
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from airfair_analysis import cov, efficiency, if_index, jain, load_run, optimum
from airfair_analysis.metrics import maxmin_fair
from airfair_analysis.report import charge_ratios
from airfair_analysis.run import iperf_error
from airfair_analysis.smoke import check as smoke_check, judge_jain

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


class Metrics(unittest.TestCase):
    def test_jain(self):
        self.assertAlmostEqual(jain([1, 1, 1]), 1.0)
        self.assertAlmostEqual(jain([1, 0, 0]), 1 / 3)
        self.assertAlmostEqual(jain([12.5, 13.7, 73.8]), 100.0 ** 2 / (3 * (12.5 ** 2 + 13.7 ** 2 + 73.8 ** 2)), 9)
        self.assertRaises(ValueError, jain, [])

    def test_cov(self):
        self.assertAlmostEqual(cov([2, 2, 2]), 0.0)
        self.assertAlmostEqual(cov([1, 3]), 0.5)      # sd 1, mean 2

    def test_if_index(self):
        # jung-park Eq. 2: 10 KB at a 10 KB/s share in 2 s -> 0.5; in 1 s -> 1
        self.assertAlmostEqual(if_index([(10000, 2.0, 10000), (10000, 1.0, 10000)]), 0.75)
        # unfinished sessions do not count
        self.assertAlmostEqual(if_index([(10000, 1.0, 10000), (10000, None, 10000)]), 1.0)
        self.assertRaises(ValueError, if_index, [(1, None, 1)])

    def test_optimum_and_efficiency(self):
        # two stations, 10 and 2 Mbit per second of air; FIFO keeps 90 % busy:
        # optimum = (10 + 2) * 0.9 / 2 = 5.4
        self.assertAlmostEqual(optimum([10, 2], 0.9), 5.4)
        # a run: 1 s simulated, each got 0.45 s of air -> 4.5 and 0.9 Mbit/s goodput
        self.assertAlmostEqual(efficiency([4.5, 0.9], [450000, 450000], 1e6, 0.9), 1.0)
        # the same per-air goodput but half the air used: efficiency 0.5
        self.assertAlmostEqual(efficiency([2.25, 0.45], [225000, 225000], 1e6, 0.9), 0.5)


def medium(sim_us, busy_us, links):
    return {"medium": {"sim_time_us": sim_us, "channels": [{"busy_us": busy_us}],
                       "links": [dict(tx=t, rx=r, ac="be", airtime_us=a, backoff_idle_us=b,
                                      bytes=0, data_us=0) for t, r, a, b in links]}}


class SavedRun(unittest.TestCase):
    """A synthetic saved run: the Python analysis and fairness.sh's shell/jq one agree."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        p = os.path.join(self.dir, "airfair-down")
        self.prefix = p
        json.dump(medium(1000000, 100000, [(0, 1, 1000, 10), (0, 2, 500, 5), (1, 0, 100, 1)]),
                  open(p + "-m0.json", "w"))
        json.dump(medium(7000000, 5600000, [(0, 1, 1801000, 20010), (0, 2, 1500500, 9005),
                                            (1, 0, 100100, 1001), (2, 0, 200000, 400),
                                            (0, 3, 1700000, 30000)]),
                  open(p + "-m1.json", "w"))
        for i, bps in ((1, 3e6), (2, 1e6), (3, 0.5e6)):
            json.dump({"end": {"sum_received": {"bits_per_second": bps}}},
                      open(f"{p}-iperf-sta{i}-0.json", "w"))
        json.dump({"end": {"sum": {"bits_per_second": 1e6, "packets": 100, "lost_packets": 50}}},
                  open(p + "-iperf-sta3-1.json", "w"))
        open(p + "-medium.conf", "w").write("seed 7\ndilation 6\n")
        open(p + "-stations.txt", "w").write("1 02:00:00:00:01:00\n2 02:00:00:00:02:00\n3 02:00:00:00:03:00\n")
        open(p + "-window.txt", "w").write("100.0 110.0\n")
        cls = lambda vals: "\n".join(json.dumps({"station": {"addr": f"02:00:00:00:0{i}:00",
                                                             "airtime_us": a, "backlogged_us": b}})
                                      for i, (a, b) in enumerate(vals, 1)) + "\n"
        open(p + "-c0.json", "w").write(cls([(0, 0), (0, 0), (0, 0)]))
        open(p + "-c1.json", "w").write(cls([(5, 9000000), (5, 5000000), (5, 0)]))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_load(self):
        r = load_run(self.prefix)
        self.assertEqual(r.k, 6.0)
        self.assertEqual(r.sim_us, 6000000)
        self.assertAlmostEqual(r.busy, 5500000 / 6000000)
        self.assertEqual([s.airtime_us for s in r.stations], [1900000, 1700000, 1700000])
        self.assertEqual([round(s.goodput_mbps, 6) for s in r.stations], [18.0, 6.0, 6.0])
        self.assertEqual([s.backlogged for s in r.stations], [0.9, 0.5, 0.0])
        self.assertIsNone(r.late_us)                 # a medium that told no lateness

    def test_idle_and_lateness(self):
        """The air nobody had a frame for, and the daemon's lateness over the window
        (its sums' difference), not its mean over its whole life."""
        for name, busy, contended, late_sum, late_n in (("-m0.json", 100000, 50000, 9e6, 1000),
                                                        ("-m1.json", 5600000, 350000, 11e6, 5000)):
            m = json.load(open(self.prefix + name))
            m["medium"]["channels"][0]["contended_idle_us"] = contended
            m["daemon"] = {"late_us_mean": late_sum / late_n, "late_us_sum": late_sum,
                           "late_n": late_n}
            json.dump(m, open(self.prefix + name, "w"))
        r = load_run(self.prefix)
        self.assertAlmostEqual(r.idle, 1 - 5500000 / 6e6 - 300000 / 6e6)
        self.assertAlmostEqual(r.late_us, 2e6 / 4000)

    def test_charge_ratio(self):
        """airfair's books against the air + backoff the medium saw for each station."""
        # sta1: 1900000 air + 20000 + 1000 backoff; sta2: 1700000 + 9000 + 400; sta3 none
        open(self.prefix + "-c1.json", "w").write("\n".join(json.dumps({"station": {
            "addr": f"02:00:00:00:0{i}:00", "airtime_us": a}})
            for i, a in ((1, 1921000 * 1.02), (2, 1709400 * 0.97), (3, 0))) + "\n")
        got = charge_ratios(load_run(self.prefix))
        self.assertEqual([round(x, 6) for x in got], [1.02, 0.97])   # sta3 charged nothing: left out
        for c in ("-c0.json", "-c1.json"):
            os.remove(self.prefix + c)
        self.assertIsNone(charge_ratios(load_run(self.prefix)))

    def test_sessions(self):
        """Intermittent transfers: finished ones counted, IF against the fair share."""
        r = load_run(self.prefix)
        self.assertIsNone(r.if_index())
        for n, body in enumerate(({"end": {"sum_received": {"bytes": 10000, "seconds": 0.1}}},
                                  {"end": {"sum_received": {"bytes": 10000, "seconds": 0.05}}},
                                  {"error": "unable to connect"})):
            json.dump(body, open(f"{self.prefix}-sess-sta3-1-{n}.json", "w"))
        r = load_run(self.prefix)
        self.assertEqual(r.stations[2].sessions, [(10000, 0.1), (10000, 0.05)])
        # persistent goodput 30 Mbit/s simulated = 5 real = 625000 B/s; S = 1/3 of it
        s = 625000 / 3
        self.assertAlmostEqual(r.if_index(), (10000 / 0.1 / s + 10000 / 0.05 / s) / 2)

    def test_latency_and_directions(self):
        """Ping RTTs (either ping's output) in simulated ms; the uploads' goodput share."""
        r = load_run(self.prefix)
        self.assertIsNone(r.latency_ms(0.5))
        self.assertIsNone(r.up_share())              # every flow an upload: no mix
        open(self.prefix + "-ping-sta1.txt", "w").write(
            "PING 10.0.0.1 (10.0.0.1): 56 data bytes\n"
            "64 bytes from 10.0.0.1: seq=0 ttl=63 time=60.000 ms\n"
            "64 bytes from 10.0.0.1: seq=1 ttl=63 time=12.000 ms\n")
        open(self.prefix + "-ping-sta2.txt", "w").write(
            "64 bytes from 10.0.0.1: icmp_seq=1 ttl=63 time=30.0 ms\n"
            "--- rtt min/avg/max/mdev = 1.0/2.0/3.0/0.5 ms\n")
        json.dump({"start": {"test_start": {"reverse": 1}},
                   "end": {"sum_received": {"bits_per_second": 3e6}}},
                  open(f"{self.prefix}-iperf-sta1-0.json", "w"))
        r = load_run(self.prefix)
        self.assertEqual(r.stations[1].rtts_ms, [30.0])
        self.assertAlmostEqual(r.latency_ms(0.5), 30.0 / 6)       # k = 6
        self.assertAlmostEqual(r.latency_ms(0.99), 60.0 / 6)
        self.assertAlmostEqual(r.up_share(), 12 / 30)             # sta2 6 + sta3 6 of 30
        # two pings of sta1 never answered (iputils' summary): later than any answered
        with open(self.prefix + "-ping-sta1.txt", "a") as f:
            f.write("--- 10.0.0.1 ping statistics ---\n"
                    "4 packets transmitted, 2 received, 50% packet loss, time 3004ms\n")
        r = load_run(self.prefix)
        self.assertEqual((r.pings_lost(), r.pings_sent()), (2, 5))
        self.assertAlmostEqual(r.latency_ms(0.5), 60.0 / 6)
        self.assertEqual(r.latency_ms(0.99), float("inf"))

    def test_iperf_failures(self):
        """An iperf3 -J output with a plain error line after its object still counts; a
        download whose end-of-test exchange failed is measured from its own intervals
        (omitted ones left out); a failed upload counts nothing and says why."""
        p = f"{self.prefix}-iperf-sta1-0.json"
        with open(p, "w") as f:
            json.dump({"end": {"sum_received": {"bits_per_second": 2e6}}}, f)
            f.write("\niperf3: error - unable to send control message: Broken pipe\n")
        iv = lambda b, s, o=False: {"sum": {"bytes": b, "seconds": s, "omitted": o}}
        json.dump({"start": {"test_start": {"reverse": 1}},
                   "intervals": [iv(999999, 1.0, True), iv(125000, 1.0), iv(250000, 1.0)],
                   "end": {}, "error": "unable to receive results"},
                  open(f"{self.prefix}-iperf-sta2-0.json", "w"))
        json.dump({"start": {"test_start": {"reverse": 0}}, "intervals": [iv(125000, 1.0)],
                   "end": {}, "error": "unable to receive results"},
                  open(f"{self.prefix}-iperf-sta3-0.json", "w"))
        os.remove(f"{self.prefix}-iperf-sta3-1.json")
        r = load_run(self.prefix)
        self.assertEqual([round(s.goodput_mbps, 6) for s in r.stations], [12.0, 9.0, 0.0])
        self.assertEqual(r.stations[1].flows, [("down", 9.0)])
        self.assertEqual(iperf_error(f"{self.prefix}-iperf-sta3-0.json"), "unable to receive results")
        self.assertEqual(iperf_error(p), "")
        open(f"{self.prefix}-iperf-sta1-1.json", "w").write("")
        open(f"{self.prefix}-iperf-sta1-1.err", "w").write("iperf3: error - unable to connect\n")
        self.assertEqual(iperf_error(f"{self.prefix}-iperf-sta1-1.json"),
                         "iperf3: error - unable to connect")
        self.assertEqual(iperf_error(f"{self.prefix}-iperf-sta1-9.json"), "no iperf3 result saved")
        # selftests/lib.sh's iperf_goodput (jq) reads them alike, real Mbit/s
        res = subprocess.run(
            ["bash", "-c", f'. "{REPO}/selftests/lib.sh"; for f in "$@"; do iperf_goodput "$f"; done',
             "-", p, f"{self.prefix}-iperf-sta2-0.json", f"{self.prefix}-iperf-sta3-0.json",
             f"{self.prefix}-iperf-sta1-1.json"], capture_output=True, text=True, check=True)
        self.assertEqual(res.stdout.split(), ["2", "1.5", "0", "0"])

    def test_idle_station(self):
        """A station without flows in the run is left out of the fairness figures."""
        full = load_run(self.prefix)
        os.rename(self.prefix + "-m1.json", self.prefix + "-m1.json.full")
        m1 = json.load(open(self.prefix + "-m1.json.full"))
        # sta4: associated, 10 us of air (management frames), no flow saved
        m1["medium"]["links"].append(dict(tx=4, rx=0, ac="be", airtime_us=10, backoff_idle_us=0,
                                          bytes=0, data_us=0))
        json.dump(m1, open(self.prefix + "-m1.json", "w"))
        with open(self.prefix + "-stations.txt", "a") as f:
            f.write("4 02:00:00:00:04:00\n")
        r = load_run(self.prefix)
        self.assertEqual([s.active for s in r.stations], [True, True, True, False])
        self.assertAlmostEqual(r.jain, full.jain)                 # not 3/4 of it
        self.assertAlmostEqual(jain([s.airtime_us for s in r.stations]), 0.75 * full.jain, 2)
        rec = {"shares": r.shares(), "backlogged": [0.0, 0.0, 0.0, 0.0],
               "active": [s.active for s in r.stations]}
        self.assertTrue(maxmin_fair(rec))
        # a backlogged station at 0.24 of the air: under 0.9 x a third (the fair share
        # among three), not under 0.9 x a quarter (were the idle one counted)
        rec = {"shares": [0.38, 0.38, 0.24, 0.0], "backlogged": [1.0, 1.0, 1.0, 0.0],
               "active": [True, True, True, False]}
        self.assertFalse(maxmin_fair(rec))
        rec["active"] = [True] * 4
        self.assertTrue(maxmin_fair(rec))

    def test_smoke_judge(self):
        """The smoke passes airfair at or above MIN_JAIN and pfifo (or FAIR_JAIN where
        pfifo read higher); missing one of the two only if max-min fair (the short
        station not backlogged); never both."""
        fair = {"jain": 0.99, "shares": [0.33, 0.33, 0.34], "backlogged": [1.0, 1.0, 1.0]}
        self.assertTrue(judge_jain(fair, {"jain": 0.95})[0])
        self.assertTrue(judge_jain(fair, None)[0])
        short = {"jain": 0.97, "shares": [0.27, 0.41, 0.32], "backlogged": [0.9, 0.1, 0.1]}
        self.assertFalse(judge_jain(short, {"jain": 0.98})[0])
        short["backlogged"] = [0.06, 0.11, 0.07]
        ok, why = judge_jain(short, {"jain": 0.98})
        self.assertTrue(ok)
        self.assertIn("below pfifo but max-min fair", why)
        # both fair: which reads higher in 8 s is chance (CI: pfifo 0.9956, airfair 0.9867)
        near = {"jain": 0.9867, "shares": [0.27, 0.34, 0.39], "backlogged": [1.0, 1.0, 1.0]}
        self.assertTrue(judge_jain(near, {"jain": 0.9956})[0])
        near["jain"] = 0.9790
        self.assertFalse(judge_jain(near, {"jain": 0.9956})[0])
        low = {"jain": 0.80, "shares": [0.15, 0.42, 0.43], "backlogged": [0.1, 1.0, 1.0]}
        self.assertTrue(judge_jain(low, {"jain": 0.70})[0])
        self.assertFalse(judge_jain(low, {"jain": 0.90})[0])

    def test_smoke_skipped(self):
        """A guest scenarios.sh --budget did not boot is a SKIP with its reason, and
        is not counted as a run with nothing measured."""
        root = tempfile.mkdtemp()
        try:
            g = os.path.join(root, "demo", "k-s7")
            os.makedirs(g)
            open(os.path.join(g, "skipped.txt"), "w").write("the time budget of 60 s would be spent\n")
            res = smoke_check(root)
            self.assertEqual(len(res), 1)
            ok, what, _ = res[0]
            self.assertTrue(ok)
            self.assertEqual(what, "demo/k-s7: not run # SKIP the time budget of 60 s would be spent")
        finally:
            shutil.rmtree(root)

    def test_shell_agrees(self):
        """fairness.sh's fair_medium_read (jq) gives the same per-station airtime."""
        r = load_run(self.prefix)
        out = []
        for m in ("m0", "m1"):
            res = subprocess.run(
                ["bash", "-c", f'FAIR_NSTA=3; . "{REPO}/testbed/scenarios/fairness.sh"; '
                               f'fair_medium_read "{self.prefix}-{m}.json"'],
                capture_output=True, text=True, check=True)
            out.append([float(x) for x in res.stdout.split()])
        shell = [b - a for a, b in zip(out[0][:3], out[1][:3])]
        self.assertEqual(shell, [s.airtime_us for s in r.stations])
        shell_cy = [b - a for a, b in zip(out[0][5:8], out[1][5:8])]
        self.assertEqual(shell_cy, [s.airtime_backoff_us for s in r.stations])


if __name__ == "__main__":
    unittest.main()
