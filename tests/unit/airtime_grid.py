#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""C integer airtime model vs the double-precision Python reference.

Samples >= 10,000 (rate, length, loss, AC, retry limit, A-MPDU, class,
direction) points, evaluates them with the C model (grid_eval) and with
testbed/airtime_ref.py, prints the max relative errors and writes TAP.

usage: airtime_grid.py GRID_EVAL_BINARY TAP_FILE [N]
"""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'testbed'))
import airtime_ref as ref  # noqa: E402

LIMIT = 0.005   # 0.5 %


def all_rates():
    """(phy, Rate) pairs covering every mode, bandwidth, GI and flag."""
    out = []
    for leg in (10, 20, 55, 110):
        for fl in ((0, ref.F_SHORT_PREAMBLE) if leg > 10 else (0,)):
            out.append((0, ref.Rate(ref.MODE_LEGACY, legacy=leg, flags=fl)))
    for leg in (60, 90, 120, 180, 240, 360, 480, 540):
        out.append((1, ref.Rate(ref.MODE_LEGACY, legacy=leg)))
        out.append((2, ref.Rate(ref.MODE_LEGACY, legacy=leg, flags=ref.F_ERP)))
    for mcs in range(32):
        for bw in (0, 1):
            for gi in (0, 1):
                out.append((4, ref.Rate(ref.MODE_HT, mcs, 0, bw, gi)))
                out.append((3, ref.Rate(ref.MODE_HT, mcs, 0, bw, gi,
                                        ref.F_ERP)))
    for mcs in range(10):
        for nss in range(1, 9):
            for bw in range(4):
                for gi in (0, 1):
                    r = ref.Rate(ref.MODE_VHT, mcs, nss, bw, gi)
                    if ref.resolve(r):
                        out.append((5, r))
    for mcs in range(12):
        for nss in range(1, 9):
            for bw in range(4):
                for gi in (0, 2, 3):
                    out.append((7, ref.Rate(ref.MODE_HE, mcs, nss, bw, gi)))
                    if bw < 2:
                        out.append((6, ref.Rate(ref.MODE_HE, mcs, nss, bw, gi,
                                                ref.F_ERP)))
    return out


def main():
    binary, tap = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 12000
    rnd = random.Random(20241002)
    rates = all_rates()
    lens = [0, 1, 40, 52, 64, 100, 300, 576, 1000, 1460, 1500, 3000, 7935,
            9000, 20000, 65535]
    losses = [0, 1, 655, 3277, 6554, 13107, 32768, 45875, 58982, 64880]
    points = []
    while len(points) < n:
        phy, r = rnd.choice(rates)
        # MPDUs per PPDU: whole, and the means the hook measures (1/16)
        ampdu = 1 if r.mode == ref.MODE_LEGACY else \
            rnd.choice((1, 1, 4, 32, 21 / 16, 1.5, 103 / 16))
        length = rnd.choice(lens) if rnd.random() < 0.5 else \
            rnd.randrange(0, 65536)
        if ampdu > 1:
            length = min(length, 11000)
        cls_dir = rnd.choice((('data', 'down'), ('tcp', 'down'),
                              ('tcp', 'up')))
        points.append(dict(phy=phy, R=rnd.randrange(16), r=r, len=length,
                           loss=rnd.choice(losses), ac=rnd.randrange(4),
                           ampdu=ampdu, d=rnd.choice((1, 2, 3, 8)),
                           mss=rnd.choice((536, 1220, 1448, 1460)),
                           cls=cls_dir[0], dir=cls_dir[1],
                           # the AP's TXOP in the point's AC: none, the
                           # standard's, leith-2005's few frames, the most
                           txop=rnd.choice((0, 0, 1504, 1792, 3008, 6016,
                                            65535))))
    inp = ''.join('%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n' % (
        p['phy'], p['R'], p['r'].mode, p['r'].mcs, p['r'].nss, p['r'].bw,
        p['r'].gi, p['r'].flags, p['r'].legacy, p['len'], p['loss'], p['ac'],
        round(p['ampdu'] * 16), p['d'], p['mss'], p['txop'])
        for p in points)
    res = subprocess.run([binary], input=inp, capture_output=True, text=True,
                         check=True).stdout.split('\n')
    worst_exact = (0.0, None)
    worst_flow = (0.0, None)
    errors = 0
    for p, line in zip(points, res):
        if line == 'ERR':
            errors += 1
            continue
        v = [int(s) for s in line.split()]
        t = ref.timing_preset(p['phy'])
        t['retries'] = p['R']
        t['txop_us'][p['ac']] = p['txop']
        loss = p['loss'] / 65536
        py = ref.frame_ns(t, p['r'], p['len'], loss, p['ac'], p['ampdu'])
        e = abs(v[0] - py['total']) / py['total']
        if e > worst_exact[0]:
            worst_exact = (e, p)
        costs = ref.sta_costs(t, p['r'], loss, p['ac'], p['d'], p['ampdu'],
                              p['mss'])
        pyflow = ref.flow_cost(costs, p['cls'], p['dir'], p['len'], p['d'])
        if p['cls'] == 'tcp' and p['dir'] == 'up':
            cflow = v[5] + (v[6] * p['len'] >> 8) + p['d'] * v[7]
        elif p['cls'] == 'tcp':
            cflow = v[3] + (v[4] * p['len'] >> 8)
        else:
            cflow = v[1] + (v[2] * p['len'] >> 8)
        e = abs(cflow - pyflow) / pyflow
        if e > worst_flow[0]:
            worst_flow = (e, p)
    print('# grid: %d points (%d rates), C rejected %d' %
          (len(points), len(rates), errors))
    print('# max rel error exact frame_ns C vs Python: %.6f%%' %
          (worst_exact[0] * 100))
    print('# max rel error flow cost (affine, class/direction) C vs Python: '
          '%.6f%%' % (worst_flow[0] * 100))
    published = [  # (Rate, Mbit/s) the Python reference must reproduce
        (ref.Rate(ref.MODE_HT, 7, 0, 0, 0), 65.0),
        (ref.Rate(ref.MODE_HT, 15, 0, 1, 1), 300.0),
        (ref.Rate(ref.MODE_VHT, 0, 1, 2, 1), 32.5),
        (ref.Rate(ref.MODE_VHT, 9, 1, 2, 1), 433.3),
        (ref.Rate(ref.MODE_HE, 11, 1, 2, 0), 600.5),
    ] + [(ref.Rate(ref.MODE_LEGACY, legacy=round(v * 10)), v)
         for v in (6, 9, 12, 18, 24, 36, 48, 54, 1, 2, 5.5, 11)]
    # validation: C and Python agree on every candidate combination
    cands = []
    for mode in range(5):
        for mcs in range(0, 34):
            for nss in range(0, 10):
                for bw in range(5):
                    for gi in range(4):
                        for fl in range(5):
                            if mode == 0 and (mcs or nss > 1):
                                continue
                            cands.append((mode, mcs, nss, bw, gi, fl, 0))
    for leg in range(0, 600, 5):
        for fl in range(4):
            cands.append((0, 0, 0, 0, 0, fl, leg))
    vres = subprocess.run([binary], input=''.join(
        'V %d %d %d %d %d %d %d\n' % c for c in cands), capture_output=True,
        text=True, check=True).stdout.split('\n')
    vmis = []
    nvalid = 0
    for c, line in zip(cands, vres):
        err, kbps = (int(v) for v in line.split())
        r = ref.Rate(*c)
        ok = ref.resolve(r) is not None
        nvalid += ok
        if ok != (err == 0) or (ok and abs(kbps - ref.rate_bps(r) / 1e3) > 1):
            vmis.append(c)
    print('# validation: %d candidate rates, %d valid, %d C/Python '
          'disagreements' % (len(cands), nvalid, len(vmis)))
    bad = [r for r, want in published
           if abs(ref.rate_bps(r) / 1e6 - want) >= 0.05]
    tests = [
        ('Python reference reproduces %d published rates' % len(published),
         not bad),
        ('C and Python agree on validity and rate of %d candidate rates'
         % len(cands), not vmis),
        ('grid has >= 10000 points', len(points) >= 10000),
        ('C accepts every valid grid point', errors == 0),
        ('exact frame_ns max rel error %.6f%% <= 0.5%%' %
         (worst_exact[0] * 100), worst_exact[0] <= LIMIT),
        ('affine flow cost max rel error %.6f%% <= 0.5%%' %
         (worst_flow[0] * 100), worst_flow[0] <= LIMIT),
    ]
    lines = ['TAP version 13', '1..%d' % len(tests)]
    for i, (name, ok) in enumerate(tests, 1):
        lines.append('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if worst_exact[1] is not None:
        lines.append('# worst exact point: %r' % {
            k: v for k, v in worst_exact[1].items()})
    out = '\n'.join(lines) + '\n'
    sys.stdout.write(out)
    os.makedirs(os.path.dirname(os.path.abspath(tap)), exist_ok=True)
    with open(tap, 'w') as fh:
        fh.write(out)
    return 0 if all(ok for _, ok in tests) else 1


if __name__ == '__main__':
    sys.exit(main())
