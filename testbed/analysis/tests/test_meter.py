# SPDX-License-Identifier: GPL-2.0
import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

from airfair_analysis.meter import intervals, main, show


def qdisc(air_us, grant_q16, mstalls, pstalls):
    return json.dumps([{"kind": "airfair", "airtime_us": air_us, "utilisation_q16": grant_q16,
                        "meter_stalls": mstalls, "pending_stalls": pstalls,
                        "pending_limit_us": 3000}])


class Meter(unittest.TestCase):
    """Three qdisc samples a second apart with class lines between them."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.p = os.path.join(self.dir, "airfair-default")
        cls = json.dumps({"station": {"addr": "aa", "airtime_us": 5}})
        with open(self.p + "-class-trace.txt", "w") as f:
            f.write(f"100.0 {qdisc(0, 65536, 0, 0)}\n100.0 {cls}\n")
            # 40 ms charged in 1 s under a grant of 8 %; then 50 ms in 0.5 s at 10 %
            f.write(f"101.0 {qdisc(40000, 5243, 12, 0)}\n101.0 {cls}\n")
            f.write(f"101.5 {qdisc(90000, 6554, 12, 7)}\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_intervals(self):
        a, b = intervals(self.p)
        self.assertAlmostEqual(a["t"], 1.0)
        self.assertAlmostEqual(a["charged"], 0.04)
        self.assertAlmostEqual(a["grant"], 0.08, places=4)
        self.assertEqual((a["meter_stalls"], a["pending_stalls"]), (12, 0))
        self.assertAlmostEqual(b["charged"], 0.10)
        self.assertEqual((b["meter_stalls"], b["pending_stalls"]), (0, 7))

    def test_show_and_errors(self):
        out = io.StringIO()
        show(intervals(self.p), out)
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 4)
        self.assertIn("2.00", lines[1])     # grant 8 % over 4 % charged
        self.assertIn("median grant/charged 1.50", lines[3])
        self.assertIn("1 of 2 intervals", lines[3])
        with open(self.p + "-class-trace.txt", "w") as f:
            f.write(f"100.0 {qdisc(0, 65536, 0, 0)}\n")
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(main([self.p]), 1)
            self.assertEqual(main([]), 2)
        self.assertIn("fewer than two", err.getvalue())
