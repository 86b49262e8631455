# SPDX-License-Identifier: GPL-2.0
import contextlib
import io
import unittest

from airfair_analysis.ceiling import ideal, main, station
from airfair_analysis.scenario import airtime_ref as ar

A11 = ar.PHY_BY_NAME["11a"]


class Ceiling(unittest.TestCase):
    """The busy-air figures of an ideal airtime-fair schedule, from the 11a timings."""

    def test_upload_frame(self):
        # 54 Mbit/s, PSDU 1554 B: 16 + 8 * 1554 + 6 bits in 58 symbols of 216 = 232 us
        # + 20 us preamble; SIFS 16; MAC ACK at 6 Mbit/s 44 us -> 312 us busy; AIFS[BE]
        # 16 + 3 * 9, backoff 15/2 slots -> 110.5 us. The AP's TCP ACK (PSDU 106 B, 5
        # symbols: 40 us) in the voice class, AIFS 16 + 2 * 9, backoff 3/2 slots, one per
        # two data frames: + 100 / 2 busy, + 47.5 / 2 access
        s = station(A11, 54, "up")
        self.assertAlmostEqual(s["busy_ns"], 362000)
        self.assertAlmostEqual(s["access_ns"], 134250)
        self.assertEqual(s["payload_bits"], 8 * 1460)

    def test_ideal_upload(self):
        sts = [station(A11, r, "up") for r in (54, 24, 6)]
        r = ideal(sts, ref_busy=0.9)
        f = [s["busy_ns"] / (s["busy_ns"] + s["access_ns"]) for s in sts]
        self.assertEqual(r["f"], f)
        # equal airtime with the accesses: the fastest station gets the least busy air
        self.assertLess(r["busy_shares"][0], 1 / 3)
        self.assertGreater(r["busy_shares"][2], 1 / 3)
        self.assertAlmostEqual(sum(r["busy_shares"]), 1)
        self.assertAlmostEqual(r["jain"], sum(f) ** 2 / (3 * sum(x * x for x in f)))
        self.assertLess(r["jain"], 0.99)
        self.assertAlmostEqual(r["busy"], sum(f) / 3)
        good = sum(1460 * 8 / (s["busy_ns"] + s["access_ns"]) for s in sts)
        opt = 0.9 * sum(1460 * 8 / s["busy_ns"] for s in sts)
        self.assertAlmostEqual(r["efficiency"], good / opt)
        self.assertLess(r["efficiency"], 0.9)

    def test_equal_stations(self):
        # one rate: equal busy air, and the efficiency is the busy share over the reference
        sts = [station(A11, 24, "down")] * 2
        r = ideal(sts, ref_busy=0.9)
        self.assertAlmostEqual(r["jain"], 1)
        self.assertAlmostEqual(r["efficiency"], r["busy"] / 0.9)
        self.assertNotIn("efficiency", ideal(sts))
        # the AP's bursts share one access among the frames of a TXOP
        self.assertLess(station(A11, 54, "udp")["access_ns"],
                        station(A11, 54, "udp", txop_us=0)["access_ns"])

    def test_errors(self):
        for argv, msg in ((["54/sideways"], "kind 'sideways'"), (["54"], "RATE/KIND"),
                          (["--phy", "11z", "54/up"], "phy '11z'"),
                          (["--ref-busy", "1.5", "54/up"], "--ref-busy"),
                          (["7/up"], "no legacy rate 7")):
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(main(argv), 2, argv)
            self.assertIn(msg, err.getvalue())
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(main(["--ref-busy", "0.9", "54/up", "6/up"]), 0)
        self.assertIn("busy-air efficiency", out.getvalue())
