# SPDX-License-Identifier: GPL-2.0
import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

from airfair_analysis.access import breakdown, main


def medium(t_us, busy_us, idle_us, links):
    return {"daemon": {}, "medium": {
        "sim_time_us": t_us,
        "channels": [{"freq": 5180, "busy_us": busy_us, "contended_idle_us": idle_us}],
        "links": [dict(tx=t, rx=r, tx_name=f"phy{t}", rx_name=f"phy{r}", ac=ac,
                       airtime_us=a, backoff_idle_us=i, frames=n, attempts=p,
                       ampdus=g, ampdu_mpdus=m)
                  for t, r, ac, a, i, n, p, g, m in links]}}


class Access(unittest.TestCase):
    """The medium's counters over a run's window, per link and access category."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.p = os.path.join(self.dir, "airfair")
        json.dump(medium(1000, 500, 100, [(0, 1, "be", 100, 10, 5, 5, 0, 0),
                                          (1, 0, "be", 50, 5, 3, 3, 0, 0)]),
                  open(self.p + "-m0.json", "w"))
        # the window: 10 ms; AP -> 1 in BE and BK, 1 -> AP unchanged (left out)
        json.dump(medium(11000, 8500, 1700, [(0, 1, "be", 1100, 110, 15, 10, 2, 8),
                                             (0, 1, "bk", 4000, 300, 40, 6, 5, 39),
                                             (1, 0, "be", 50, 5, 3, 3, 0, 0)]),
                  open(self.p + "-m1.json", "w"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_breakdown(self):
        b = breakdown(self.p)
        self.assertEqual(b["sim_us"], 10000)
        self.assertAlmostEqual(b["busy"], 0.8)
        self.assertAlmostEqual(b["contended_idle"], 0.16)
        self.assertEqual([(d["tx"], d["rx"], d["ac"]) for d in b["links"]],
                         [("phy0", "phy1", "be"), ("phy0", "phy1", "bk")])
        be, bk = b["links"]
        self.assertEqual((be["busy_us"], be["idle_us"], be["frames"], be["attempts"]),
                         (1000, 100, 10, 5))
        self.assertEqual((bk["ampdus"], bk["ampdu_mpdus"]), (5, 39))

    def test_main(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(main([self.p, self.p]), 0)
        text = out.getvalue()
        self.assertIn("channel busy 80.0 %, contended idle 16.0 %", text)
        self.assertIn("7.8", text)              # 39 MPDUs in 5 A-MPDUs
        self.assertEqual(text.count("== airfair"), 2)

    def test_errors(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(main([]), 2)
            self.assertEqual(main([self.p + "-missing"]), 1)
        self.assertIn("usage", err.getvalue())
        open(self.p + "-m1.json", "w").write("{\"medium\": ")
        with contextlib.redirect_stderr(err):
            self.assertEqual(main([self.p]), 1)
