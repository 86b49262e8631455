# SPDX-License-Identifier: GPL-2.0
import contextlib
import io
import os
import shutil
import tempfile
import unittest

from airfair_analysis.ackpath import breakdown, main, show


def probe(t, src, dst, dlen, cwnd=10, srtt_us=50000):
    return (f"     ksoftirqd/0-14      [000] ..s1.  {t:10.6f}: tcp_probe: family=AF_INET "
            f"src={src} dest={dst} mark=0x0 data_len={dlen} snd_nxt=0x1 snd_una=0x1 "
            f"snd_cwnd={cwnd} ssthresh=7 snd_wnd=65152 srtt={srtt_us} rcv_wnd=65152 "
            "sock_cookie=1\n")


class AckPath(unittest.TestCase):
    """A download on port 5220: ACKs every 0.1 s but one gap of 0.8 s during which
    three segments reach the station; a control connection (port 5201) with too few
    segments to count; a marker line the parser must skip."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.p = os.path.join(self.dir, "airfair-default")
        srv, sta = "10.43.0.2:5220", "10.42.0.12:47700"
        lines = ["            bash-114     [001] .....    33.566118: tracing_mark_write: "
                 "af_mark 1796064064.759657\n"]
        acks = [10.0 + 0.1 * i for i in range(10)] + [11.7 + 0.1 * i for i in range(10)]
        for i, t in enumerate(acks):
            lines.append(probe(t, srv, sta, 0, cwnd=8 if i < 10 else 4, srtt_us=200000))
        for i in range(20):
            lines.append(probe(10.05 + 0.1 * i, sta, srv, 1448))
        lines.append(probe(10.0, "10.43.0.2:5201", "10.42.0.12:47686", 0))
        lines.append(probe(10.1, "10.42.0.12:47686", "10.43.0.2:5201", 37))
        with open(self.p + "-tcp-probe.txt", "w") as f:
            f.writelines(lines)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_stalls(self):
        (r,) = breakdown(self.p)
        self.assertEqual((r["port"], r["acks"], r["segments"]), (5220, 20, 20))
        (st,) = r["stalls"]
        self.assertAlmostEqual(st[0], 10.9)
        self.assertAlmostEqual(st[1], 0.8)
        # segments at 10.95, 11.05 ... 11.65 arrived while no ACK came back
        self.assertEqual(st[2], 8)
        self.assertAlmostEqual(r["srtt_ms"], 200.0)
        self.assertEqual(r["cwnd"], 6)
        out = io.StringIO()
        show([r], out)
        row = out.getvalue().splitlines()[1].split()
        self.assertEqual(row[0], "5220")
        self.assertEqual(row[5:7], ["1", "0.8"])

    def test_errors(self):
        os.remove(self.p + "-tcp-probe.txt")
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(main([self.p]), 1)
            self.assertEqual(main([]), 2)
        self.assertIn("tcp-probe.txt", err.getvalue())
        with open(self.p + "-tcp-probe.txt", "w") as f:
            f.write(probe(1.0, "10.43.0.2:5220", "10.42.0.12:1", 0))
        with contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(main([self.p]), 1)
        self.assertIn("no TCP flow", err.getvalue())
