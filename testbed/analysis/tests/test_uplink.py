# SPDX-License-Identifier: GPL-2.0
import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

from airfair_analysis import uplink
from airfair_analysis.scenario import airtime_ref


def medium(links, extra=None):
    """links: (tx, rx, air, idle, frames, bytes, first_rate_bytes); extra: more fields
    for some of them, by (tx, rx)."""
    extra = extra or {}
    return {"medium": {"sim_time_us": 0, "links": [
        dict(tx=t, rx=r, ac="be", airtime_us=a, backoff_idle_us=i, frames=n, bytes=b,
             first_rate_bytes=frb, **extra.get((t, r), {}))
        for t, r, a, i, n, b, frb in links]}}


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def station(mac, loss, kbps, ap_loss=None):
    s = {"addr": mac, "up": {"loss": loss, "rate_kbps": kbps}}
    if ap_loss is not None:
        s["loss"] = ap_loss
    return json.dumps({"station": s})


class Uplink(unittest.TestCase):
    """Two stations' uplinks over a window: one clean, one retrying."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.p = os.path.join(self.dir, "airfair")
        write(self.p + "-stations.txt", "1 aa\n2 bb\n")
        write(self.p + "-medium.conf", "seed 7\nphy 5g 11a\n")
        write(self.p + "-m0.json", json.dumps(medium([(1, 0, 50, 5, 3, 4000, {"54.0": 4000}),
                                                      (2, 0, 0, 0, 0, 0, {})])))
        # window: station 1, 100 frames of 1534 B (1500 B packets) first tried at
        # 54 Mbit/s; station 2, 50 such frames, most bytes first tried at 12, some at 48
        # station 2's uplink: 60 PPDU attempts, 10 of them A-MPDUs of 3 MPDUs: 80 MPDU
        # attempts for 50 delivered; 12 attempts down to it for 9 delivered
        write(self.p + "-m1.json", json.dumps(medium([
            (1, 0, 30050, 2005, 103, 157400, {"54.0": 157400}),
            (2, 0, 100000, 10000, 50, 76700, {"12.0": 60000, "48.0": 16700}),
            (0, 2, 999, 99, 9, 999, {"6.0": 999})],
            {(2, 0): {"attempts": 60, "ampdus": 10, "ampdu_mpdus": 30},
             (0, 2): {"attempts": 12}})))
        write(self.p + "-c1.json", station("aa", 0, 54000) + "\n" +
              station("bb", 32768, 6000, ap_loss=16384) + "\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_breakdown(self):
        s1, s2 = uplink.breakdown(self.p)
        self.assertEqual((s1["frames"], s1["air_us"]), (100, 32000))
        self.assertEqual((s2["frames"], s2["air_us"]), (50, 110000))
        self.assertEqual((s1["main_kbps"], s2["main_kbps"]), (54000, 12000))
        self.assertEqual(s2["hook_kbps"], 6000)
        self.assertAlmostEqual(s2["retry"], 0.5)
        # no retries: the two readings are the same charge
        self.assertAlmostEqual(s1["per_attempt"], s1["one_retry"])
        t = airtime_ref.timing_preset(airtime_ref.PHY_BY_NAME["11a"])
        want = airtime_ref.frame_ns(t, airtime_ref.Rate(airtime_ref.MODE_LEGACY, legacy=120),
                                    1500, 1 / 3)["total"]
        self.assertAlmostEqual(s2["one_retry"], 50 * want / 1e3 / 110000, places=3)
        self.assertGreater(s2["per_attempt"], s2["one_retry"] * 1.2)
        # per MPDU attempt, not per PPDU: 1 - 50 / (60 - 10 + 30)
        self.assertAlmostEqual(s2["up_loss"], 1 - 50 / 80)
        self.assertAlmostEqual(s2["down_loss"], 0.25)
        self.assertAlmostEqual(s2["ap_loss"], 0.25)
        self.assertIsNone(s1["ap_loss"])
        # no attempts recorded (older medium): unknown, not a loss of 1
        self.assertIsNone(s1["up_loss"])

    def test_show_and_errors(self):
        out = io.StringIO()
        uplink.show(uplink.breakdown(self.p), out)
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 3)
        self.assertIn("12000", lines[2])
        self.assertIsNone(uplink.charge_ratio(None, 12000, 0, 0, 0, 1))
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(uplink.main([os.path.join(self.dir, "none")]), 1)
            self.assertEqual(uplink.main([]), 2)
        self.assertIn("none-stations.txt", err.getvalue())


if __name__ == "__main__":
    unittest.main()
