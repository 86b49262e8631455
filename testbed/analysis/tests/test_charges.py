# SPDX-License-Identifier: GPL-2.0
import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

from airfair_analysis.charges import (breakdown, doubling_idle_us, main, medium_phy, show,
                                      window_idle_us,
                                      show_inputs)


def medium(links):
    return {"medium": {"sim_time_us": 0, "links": [
        dict(tx=t, rx=r, ac=ac, airtime_us=a, backoff_idle_us=i, frames=n, attempts=n,
             ppdu_failures=n // 3)
        for t, r, ac, a, i, n in links]}}


def station(mac, air_us, upload):
    return json.dumps({"station": {"addr": mac, "airtime_us": air_us, "upload_frames": upload}})


class Charges(unittest.TestCase):
    """One two-station run: charge against the medium's air + idle, by direction."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.p = os.path.join(self.dir, "airfair")
        open(self.p + "-stations.txt", "w").write("1 aa\n2 bb\n")
        json.dump(medium([(0, 1, "be", 100, 10, 5), (1, 0, "be", 50, 5, 3)]),
                  open(self.p + "-m0.json", "w"))
        # window: station 1 down 900+90 us over 10 frames; station 2 up 1800+200 us over
        # 4 frames and its ACKs down in VO 90+10 us over 2 frames; a broadcast left out
        json.dump(medium([(0, 1, "be", 1000, 100, 15), (1, 0, "be", 50, 5, 3),
                          (2, 0, "be", 1800, 200, 4), (0, 2, "vo", 90, 10, 2),
                          (0, -1, "vo", 500, 0, 9)]),
                  open(self.p + "-m1.json", "w"))
        open(self.p + "-c0.json", "w").write(station("aa", 1000, 0) + "\n")
        open(self.p + "-c1.json", "w").write(station("aa", 1990, 0) + "\n" +
                                             station("bb", 3150, 5) + "\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_breakdown(self):
        s1, s2 = breakdown(self.p)
        self.assertEqual((s1["down"]["frames"], s1["down"]["air_us"]), (10, 990))
        self.assertEqual(s1["up"]["frames"], 0)
        self.assertAlmostEqual(s1["charge_ratio"], 1.0)
        self.assertEqual((s2["up"]["frames"], s2["up"]["air_us"]), (4, 2000))
        self.assertEqual(s2["down"]["air_us"], 100)
        self.assertEqual(s2["upload_frames"], 5)
        self.assertAlmostEqual(s2["charge_ratio"], 1.5)     # 3150 / 2100
        # station 1 down: 10 attempts, 5 - 1 of them failed, 90 us idle
        self.assertEqual((s1["down"]["attempts"], s1["down"]["ppdu_failures"]), (10, 4))
        self.assertAlmostEqual(s1["down"]["idle_us"], 90)
        # an older medium without waited_us: the idle stands for it
        self.assertAlmostEqual(s1["waited_ratio"], 1.0)

    def test_waited(self):
        # station 1's accesses waited 150 us where the medium gave them 90 of idle (a
        # sender that won meanwhile got the rest; 30 more were the AIFS of the rounds
        # it lost): the charge over its own air + wait;
        # the settled part counts in the charge
        m1 = json.load(open(self.p + "-m1.json"))
        m1["medium"]["links"][0]["waited_us"] = 190
        m1["medium"]["links"][0]["rewaited_us"] = 30    # AIFS again: not the model's
        json.dump(m1, open(self.p + "-m1.json", "w"))
        m0 = json.load(open(self.p + "-m0.json"))
        m0["medium"]["links"][0]["waited_us"] = 10
        json.dump(m0, open(self.p + "-m0.json", "w"))
        open(self.p + "-c1.json", "w").write(
            json.dumps({"station": {"addr": "aa", "airtime_us": 2000, "settled_us": 50}}) + "\n")
        s1 = breakdown(self.p)[0]
        self.assertEqual((s1["charged_us"], s1["settled_us"]), (1050, 50))
        self.assertAlmostEqual(s1["waited_ratio"], 1050 / (900 + 150))
        self.assertIsNone(s1["told_air_us"])
        # what the counts told, split: over the link's busy air and its wait
        open(self.p + "-c1.json", "w").write(json.dumps(
            {"station": {"addr": "aa", "airtime_us": 2000, "settled_us": 50,
                         "told_air_us": 450, "told_wait_us": 180,
                         "told": {"ppdus": 9, "windows": 12, "single": 9, "data": 7}}}) + "\n")
        s1 = breakdown(self.p)[0]
        self.assertEqual((s1["told_air_us"], s1["told_wait_us"]), (450, 180))
        self.assertEqual(s1["told"]["ppdus"], 9)
        out = io.StringIO()
        show_inputs([s1], out)
        row = out.getvalue().splitlines()[1].split()
        busy = s1["down"]["busy_us"]
        # 9 told of the link's 10 attempts, all single; the medium counts no windows
        self.assertEqual(row[-9:], [f"{450 / busy:.3f}", f"{180 / 150:.3f}",
                                    "0.900/-/0.900/-", "-", "-", "-", "-", "-",
                                    f"{(450 + 180) / 990:.3f}"])
        # a medium that weighs the MPDU attempts' data: as told over as sent
        m1 = json.load(open(self.p + "-m1.json"))
        m1["medium"]["links"][0].update(mpdu_byte_us=40.0, told_byte_us=41.0)
        json.dump(m1, open(self.p + "-m1.json", "w"))
        out = io.StringIO()
        show_inputs(breakdown(self.p), out)
        self.assertEqual(out.getvalue().splitlines()[1].split()[-6], "1.025")
        # a medium that prices the attempts as the settlement would at their own rates,
        # counts their LTFs and the idle their windows were due: 9 of 10 LTFs told; the
        # drawn idle 90 over the due 100 (sd 20), the charge over the air with it instead
        m1["medium"]["links"][0].update(model_us=1000.0, ltfs=12, idle_due_us=110.0,
                                        idle_var_us2=410.0)
        json.dump(m1, open(self.p + "-m1.json", "w"))
        m0["medium"]["links"][0].update(model_us=100.0, ltfs=2, idle_due_us=10.0,
                                        idle_var_us2=10.0)
        json.dump(m0, open(self.p + "-m0.json", "w"))
        open(self.p + "-c1.json", "w").write(json.dumps(
            {"station": {"addr": "aa", "airtime_us": 2000, "settled_us": 50,
                         "told_air_us": 450, "told_wait_us": 180,
                         "told": {"ppdus": 9, "windows": 12, "single": 9, "data": 7,
                                  "ltfs": 9}}}) + "\n")
        out = io.StringIO()
        show_inputs(breakdown(self.p), out)
        row = out.getvalue().splitlines()[1].split()
        self.assertEqual(row[-7], "0.900/-/0.900/0.900")
        self.assertEqual(row[-5:-1], [f"{900 / busy:.3f}", f"{450 / 900:.3f}", "0.900±0.200",
                                      f"{1050 / (busy + 100):.3f}"])

    def test_doubling(self):
        # 802.11a BE: AIFS 16 + 3 x 9 us; CW 15, 31, ... 1023 over 7 attempts (retries 6)
        # of 9 us slots, attempt i reached with q^i; per attempt: the mean over them
        self.assertIsNone(medium_phy(self.p))     # no medium config
        open(self.p + "-medium.conf", "w").write("seed 7\nphy 5g 11a\n")
        a = medium_phy(self.p)
        self.assertIsNotNone(a)

        def by_hand(q):
            cws = [15, 31, 63, 127, 255, 511, 1023]
            w = [q ** i for i in range(7)]
            return 43 + 9 * sum(wi * cw / 2 for wi, cw in zip(w, cws)) / sum(w)
        self.assertAlmostEqual(doubling_idle_us(a, 0.0), 110.5)
        self.assertAlmostEqual(doubling_idle_us(a, 0.5), by_hand(0.5))
        self.assertGreater(doubling_idle_us(a, 0.5), 290)
        out = io.StringIO()
        show(breakdown(self.p), out, phy=a)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[1].split()[-3], f"{by_hand(0.4):.0f}")     # 4 of 10 failed
        self.assertEqual(lines[2].split()[-3], "110")     # 0 of 2 failed: 110.5 (BE's)
        self.assertEqual(lines[1].split()[-2:], ["-", "-"])   # no cw_scale, no cw_units

    def test_inputs(self):
        # the hook's figures: the end snapshot, or the class trace's mean where there is one
        def st(mac, ampdu_x16, loss):
            return {"station": {"addr": mac, "source": "hook", "airtime_us": 1990,
                                "upload_frames": 0, "ampdu_x16": ampdu_x16, "loss": loss}}
        open(self.p + "-c1.json", "w").write(json.dumps(st("aa", 32, 0)) + "\n")
        s1 = breakdown(self.p)[0]
        self.assertEqual((s1["hook_ampdu"], s1["hook_loss"]), (2.0, 0.0))
        with open(self.p + "-class-trace.txt", "w") as f:
            f.write('1.0 [{"kind": "airfair"}]\n')
            f.write("1.0 " + json.dumps(st("aa", 16, 0)) + "\n")
            f.write("2.0 " + json.dumps(st("aa", 48, 32768)) + "\n")
        s1 = breakdown(self.p)[0]
        self.assertEqual((s1["hook_ampdu"], s1["hook_loss"]), (2.0, 0.25))
        open(self.p + "-medium.conf", "w").write("seed 7\nphy 5g 11a\n")
        out = io.StringIO()
        show_inputs(breakdown(self.p), out, phy=medium_phy(self.p))
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 3)    # station 2: its two VO frames down
        # station 1: 10 single-MPDU attempts for 10 MPDUs; model (1 - 0.25^7) / 0.75 / 2;
        # busy 900 us and idle 90 us over 10 MPDUs
        self.assertEqual(lines[1].split(), ["sta1", "1.00", "-", "2.00", "1.00", "-",
                                            f"{(1 - 0.25 ** 7) / 0.75 / 2:.2f}", "90", "9",
                                            "-", "-", "-", "-", "-", "-", "-",
                                            "-", "-"])   # nothing told
        self.assertEqual(lines[2].split()[3], "-")     # no hook figures for station 2
        # with the hook's acknowledged MPDUs per PPDU attempt (ABI 4): charged 1 / its mean
        with open(self.p + "-class-trace.txt", "a") as f:
            for t, ack in ((3.0, 8), (4.0, 16)):
                x = st("aa", 32, 0)
                x["station"]["acked_x16"] = ack
                f.write(f"{t} " + json.dumps(x) + "\n")
        s1 = breakdown(self.p)[0]
        self.assertEqual(s1["hook_acked"], 0.75)
        out = io.StringIO()
        show_inputs([s1], out, phy=medium_phy(self.p))
        self.assertEqual(out.getvalue().splitlines()[1].split()[6], f"{1 / 0.75:.2f}")
        # a medium that counts the attempts its statuses told: 17 - 5 over 10 MPDUs, and
        # their MPDUs by the reports' lengths: 30 - 6 over those 12 attempts
        for name, told, mpdus in (("-m0.json", 5, 6), ("-m1.json", 17, 30)):
            m = json.load(open(self.p + name))
            m["medium"]["links"][0]["told"] = told
            m["medium"]["links"][0]["told_mpdus"] = mpdus
            json.dump(m, open(self.p + name, "w"))
        out = io.StringIO()
        show_inputs(breakdown(self.p), out, phy=medium_phy(self.p))
        row = out.getvalue().splitlines()[1].split()
        self.assertEqual((row[2], row[5]), ("2.00", "1.20"))

    def test_hook_window(self):
        # 802.11a BE: AIFS 43 us, CWmin 15, CWmax 1023, 9 us slots
        open(self.p + "-medium.conf", "w").write("seed 7\nphy 5g 11a\n")
        a = medium_phy(self.p)
        self.assertAlmostEqual(window_idle_us(a, 1.0), 110.5)          # CWmin's
        self.assertAlmostEqual(window_idle_us(a, 1.4375), 43 + 9 * 22 / 2)
        self.assertAlmostEqual(window_idle_us(a, 128), 43 + 9 * 1023 / 2)   # CWmax
        # the class trace's mean of the hook's cw_scale: (16 + 30) / 2 / 16
        with open(self.p + "-class-trace.txt", "w") as f:
            for t, cw in ((1.0, 16), (2.0, 30)):
                f.write(f"{t} " + json.dumps({"station": {
                    "addr": "aa", "source": "hook", "airtime_us": 1990, "upload_frames": 0,
                    "ampdu_x16": 16, "loss": 0, "cw_scale_x16": cw}}) + "\n")
        s1 = breakdown(self.p)[0]
        self.assertAlmostEqual(s1["hook_cw"], 1.4375)
        out = io.StringIO()
        show([s1], out, phy=a)
        self.assertEqual(out.getvalue().splitlines()[1].split()[-2:], ["142", "-"])
        # the medium's windows: 13 - 3 CWmin + 1 over its 10 attempts, beside the hook's
        for name, units in (("-m0.json", 3), ("-m1.json", 13)):
            m = json.load(open(self.p + name))
            m["medium"]["links"][0]["cw_units"] = units
            json.dump(m, open(self.p + name, "w"))
        out = io.StringIO()
        show(breakdown(self.p), out, phy=a)
        self.assertEqual(out.getvalue().splitlines()[1].split()[-1], "1.00/1.44")

    def test_steady(self):
        # --from S: from the class trace's first sample S s after its first that has the
        # medium's links, to its last that has them (not c1, m1: read apart)
        def st(mac, air):
            return json.dumps({"station": {"addr": mac, "airtime_us": air,
                                           "upload_frames": 0}})
        up = (1, 0, "be", 50, 5, 3)      # as m1 has it: no upload in the window
        trace = [(10.0, 1200, [(0, 1, "be", 300, 30, 8), up]), (12.0, 1500, None),
                 (13.0, 1700, [(0, 1, "be", 700, 70, 12), up]),
                 (14.0, 1900, [(0, 1, "be", 900, 90, 14), up])]
        with open(self.p + "-class-trace.txt", "w") as f:
            for t, air, links in trace:
                f.write(f"{t} " + '[{"kind": "airfair"}]\n')
                f.write(f"{t} " + st("aa", air) + "\n")
                if links:
                    f.write(f"{t} " + json.dumps({"medium": medium(links)["medium"]}) + "\n")
        s1 = breakdown(self.p, 1.5)[0]      # 12.0 has no links: from 13.0 to 14.0
        self.assertEqual(s1["charged_us"], 1900 - 1700)
        self.assertEqual((s1["down"]["frames"], s1["down"]["air_us"]), (2, 220))
        self.assertAlmostEqual(s1["charge_ratio"], 200 / 220)
        self.assertEqual(breakdown(self.p, 0)[0]["charged_us"], 1900 - 1200)
        # --tail T: to the last sample with links at least T s before the trace's end
        self.assertEqual(breakdown(self.p, 0, 1.0)[0]["charged_us"], 1700 - 1200)
        with self.assertRaisesRegex(ValueError, "ends before 1.5 s"):
            breakdown(self.p, 1.5, 1.0)     # 13.0 is both the first and the last
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(main(["--from", "3", self.p]), 0)
        self.assertIn("0.91", out.getvalue())
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(main(["--tail", "1", "--from", "0", self.p]), 0)
        self.assertIn(f"{500 / 440:.2f}", out.getvalue())
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(main(["--from", "4", self.p]), 1)      # no sample after it
            self.assertEqual(main(["--from", "-1", self.p]), 2)
            self.assertEqual(main(["--from", "x", self.p]), 2)
        self.assertIn("ends before 4.0 s", err.getvalue())
        self.assertIn("--from x: not a number of seconds", err.getvalue())
        with open(self.p + "-class-trace.txt", "w") as f:      # an older testbed's trace
            f.write("10.0 " + st("aa", 1200) + "\n")
        with self.assertRaisesRegex(ValueError, "no medium links"):
            breakdown(self.p, 0)

    def test_hook_weights(self):
        # with the medium's links at every sample, each sample of the hook's figures
        # weighs the AP's attempts to the station since the one before (the first none)
        def st(cw):
            return json.dumps({"station": {"addr": "aa", "source": "hook", "airtime_us": 0,
                                           "upload_frames": 0, "ampdu_x16": 16, "loss": 0,
                                           "cw_scale_x16": cw}})
        with open(self.p + "-class-trace.txt", "w") as f:
            for t, cw, att in ((1.0, 160, 5), (2.0, 64, 8), (3.0, 16, 14)):
                f.write(f"{t} " + st(cw) + "\n")
                f.write(f"{t} " + json.dumps({"medium": medium(
                    [(0, 1, "be", 100, 10, att), (1, 0, "be", 50, 5, 3)])["medium"]}) + "\n")
        s1 = breakdown(self.p)[0]
        self.assertAlmostEqual(s1["hook_cw"], (3 * 4 + 6 * 1) / 9)
        with open(self.p + "-class-trace.txt", "a") as f:     # a sample without links:
            f.write("4.0 " + st(16) + "\n")                  # every sample alike
        self.assertAlmostEqual(breakdown(self.p)[0]["hook_cw"], (10 + 4 + 1 + 1) / 4)

    def test_show_and_errors(self):
        out = io.StringIO()
        show(breakdown(self.p), out)
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 3)
        self.assertIn("1.50", lines[2])
        self.assertIn("500", lines[2])      # station 2's up us/frame
        # 4 of 10 failed, 90 / 10 us; no medium config: no doubling figure
        self.assertEqual(lines[1].split()[-5:], ["40", "9", "-", "-", "-"])
        self.assertEqual(lines[2].split()[-5:], ["0", "5", "-", "-", "-"])     # VO: 0 of 2, 10 / 2 us
        os.remove(self.p + "-c1.json")
        self.assertIsNone(breakdown(self.p)[0]["charged_us"])
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(main([os.path.join(self.dir, "none")]), 1)
            self.assertEqual(main([]), 2)
        self.assertIn("none-stations.txt", err.getvalue())
