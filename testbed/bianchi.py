#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Analytic saturation throughput of 802.11 DCF/EDCA, for validating the
medium simulator (testbed/medium).

Bianchi, "Performance analysis of the IEEE 802.11 distributed coordination
function", IEEE JSAC 18(3), 2000, with the finite retry limit of Wu et al.
(INFOCOM 2002): a station attempts in a generic slot with probability

    tau = sum_{i=0}^{R} p^i / sum_{i=0}^{R} p^i (CW_i/2 + 1),
    CW_i = min(2^i (CWmin+1) - 1, CWmax),

where p is the probability an attempt fails (collision, or channel loss
p_e: p = 1 - (1 - p_c)(1 - p_e)); p_c = 1 - (1 - tau)^(n-1). Throughput
S = P_s E[payload] / E[slot], E[slot] = (1-P_tr) sigma + P_tr P_s T_s +
P_tr (1-P_s) T_c.

EDCA (several classes with different AIFSN / CW / TXOP) uses the AIFS
"zone" extension (Robinson & Randhawa, IEEE JSAC 22(5), 2004): after a
busy period, only the classes whose AIFS has expired may transmit; a small
Markov chain over "idle slots since the medium went idle" gives the share
of slots in each zone. With one class this reduces to Bianchi.

Timing comes from sch_airfair/phy_params.h through testbed/airtime_ref.py
(the one source of truth): T_s = T_c = AIFS_min + PPDU(len+FCS) + SIFS +
ACK at the control rate (a failed sender waits out the ACK timeout, taken
equal to SIFS + ACK, exactly as the simulator does); sigma = slot.

A-MPDU (--ampdu N, HT rates): a success carries N MPDUs in one PPDU of N
subframes (delimiter + MPDU + FCS, padded to 4 bytes; N capped by the HT
A-MPDU length and aPPDUMaxTime as the engine caps it) answered by a
BlockAck; each MPDU is lost on its own with p_e, so a success delivers
N (1 - p_e) MPDUs in expectation, and the access fails (CW doubles) only on
a collision or when all N are lost: p = 1 - (1 - p_c)(1 - p_e^N).

Usage: bianchi.py --phy 11a --rate 54 --len 1500 --n 1-8 [--loss P]
       bianchi.py --phy 11a --rate 54 --len 1500 --classes vo:1,be:1
       bianchi.py --phy 11n-5g --rate mcs7 --len 1500 --n 1-4 --ampdu 32
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import airtime_ref as ar  # noqa: E402

PHY_NAMES = ar.PHY_BY_NAME
AC_NAMES = {'vo': ar.AC_VO, 'vi': ar.AC_VI, 'be': ar.AC_BE, 'bk': ar.AC_BK}
FCS = 4


def make_rate(phy, rate):
    if str(rate).startswith('mcs'):
        return ar.Rate(ar.MODE_HT, mcs=int(rate[3:]), nss=1)
    leg = int(round(float(rate) * 10))
    flags = ar.F_ERP if leg >= 60 and phy in (PHY_NAMES['11g'], PHY_NAMES['11n-2g']) else 0
    return ar.Rate(ar.MODE_LEGACY, legacy=leg, flags=flags)


def tau_of_p(p, cwmin, cwmax, retries):
    num = den = 0.0
    cw = cwmin
    for i in range(retries + 1):
        num += p ** i
        den += p ** i * (cw / 2.0 + 1.0)
        cw = min(2 * cw + 1, cwmax)
    return num / den


class Class:
    def __init__(self, t, ac, n, aifsn=None, cwmin=None, cwmax=None,
                 txop_us=None):
        self.ac, self.n = ac, n
        cmin, cmax = ar.ac_cw(t, ac)
        self.cwmin = cmin if cwmin is None else cwmin
        self.cwmax = cmax if cwmax is None else cwmax
        self.aifsn = t['aifsn'][ac] if aifsn is None else aifsn
        row = ar.T['PHY'][t['phy']]
        self.txop_us = (row['txop_' + ['vo', 'vi', 'be', 'bk'][ac]]
                        if txop_us is None else txop_us)
        self.tau = 0.1


def ampdu_size(t, rate, length, n, txop_us=0):
    """MPDUs in one A-MPDU of up to n, and its PSDU length: the engine's caps
    (the HT or VHT A-MPDU length, aPPDUMaxTime, the TXOP less its BlockAck)."""
    P = ar.P
    sub = (P['DELIM_LEN'] + length + P['FCS_LEN'] + 3) & ~3
    max_len = P['HT_AMPDU_LEN'] if rate.mode == ar.MODE_HT else P['VHT_AMPDU_LEN']
    limit = P['PPDU_MAX_US'] * 1e3
    if txop_us:
        limit = min(limit, txop_us * 1e3 - t['sifs_us'] * 1e3 - ar.ctrl_ns(t, t['ba_len']))
    k = 1
    while k < n and (k + 1) * sub <= max_len and ar.ppdu_ns(rate, (k + 1) * sub) <= limit:
        k += 1
    return k, k * sub


def solve(t, rate, length, classes, loss=0.0, iters=20000, ampdu=1):
    """Returns dict with per-class throughput (bit/s), tau, p, and total."""
    slot = t['slot_us'] * 1e3
    sifs = t['sifs_us'] * 1e3
    nagg = 1
    if ampdu > 1:
        nagg, psdu = ampdu_size(t, rate, length, ampdu)
    if nagg > 1:
        ppdu = ar.ppdu_ns(rate, psdu)
        ack = ar.ctrl_ns(t, t['ba_len'])
        fail = loss ** nagg        # the BlockAck reports none: the access failed
    else:
        ppdu = ar.ppdu_ns(rate, length + FCS)
        ack = ar.ctrl_ns(t, t['ack_len'])
        fail = loss
    exch = ppdu + sifs + ack
    amin = min(c.aifsn for c in classes)
    aifs_min = sifs + amin * slot
    tc = aifs_min + exch
    for c in classes:
        # frames per access: TXOP bursts of SIFS-separated exchanges
        c.burst = 1
        if c.txop_us:
            while exch + c.burst * (sifs + exch) <= c.txop_us * 1e3:
                c.burst += 1
        c.ts = aifs_min + c.burst * exch + (c.burst - 1) * sifs
        c.zone = c.aifsn - amin      # idle slots before it may count down
    dmax = max(c.zone for c in classes)
    for _ in range(iters):
        # idle-slot chain: state k = k idle slots since busy (capped at dmax)
        def idle_prob(k):
            q = 1.0
            for c in classes:
                if k >= c.zone:
                    q *= (1 - c.tau) ** c.n
            return q
        # stationary distribution of the chain 0 -> 1 -> ... -> dmax (self-loop)
        w = [1.0]
        for k in range(dmax):
            w.append(w[-1] * idle_prob(k))
        w[-1] /= max(1e-300, 1 - idle_prob(dmax)) if dmax else 1.0
        if dmax == 0:
            w = [1.0]
        tot = sum(w)
        pi = [x / tot for x in w]
        new = []
        for c in classes:
            # collision probability seen by a transmitting station of class c
            num = den = 0.0
            for k, pk in enumerate(pi):
                if k < c.zone:
                    continue
                q = 1.0
                for d in classes:
                    if k >= d.zone:
                        q *= (1 - d.tau) ** (d.n - (1 if d is c else 0))
                num += pk * (1 - q)
                den += pk
            pc = num / den if den else 0.0
            c.pc = pc
            p = 1 - (1 - pc) * (1 - fail)
            # tau per generic slot: counts only in slots past its zone
            tau_zone = tau_of_p(p, c.cwmin, c.cwmax, t['retries'])
            new.append(tau_zone)
        delta = 0.0
        for c, tv in zip(classes, new):
            delta = max(delta, abs(tv - c.tau))
            c.tau = 0.5 * c.tau + 0.5 * tv
        if delta < 1e-12:
            break
    # per-slot probabilities
    e_slot = 0.0
    succ = {id(c): 0.0 for c in classes}
    for k, pk in enumerate(pi):
        act = [c for c in classes if k >= c.zone]
        q_idle = 1.0
        for c in act:
            q_idle *= (1 - c.tau) ** c.n
        p_succ_total = 0.0
        t_succ = 0.0
        for c in act:
            ps = c.n * c.tau * (1 - c.tau) ** (c.n - 1)
            for d in act:
                if d is not c:
                    ps *= (1 - d.tau) ** d.n
            succ[id(c)] += pk * ps
            p_succ_total += ps
            t_succ += ps * c.ts
        p_coll = 1 - q_idle - p_succ_total
        e_slot += pk * (q_idle * slot + t_succ + p_coll * tc)
    out = {'classes': [], 'total_bps': 0.0}
    for c in classes:
        # a success delivers burst exchanges of nagg MPDUs, each surviving loss
        bps = succ[id(c)] * c.burst * nagg * (1 - loss) * length * 8 / (e_slot * 1e-9)
        out['classes'].append({'ac': c.ac, 'n': c.n, 'tau': c.tau,
                               'p_coll': c.pc, 'burst': c.burst, 'ampdu': nagg,
                               'throughput_bps': bps})
        out['total_bps'] += bps
    return out


def bianchi(phy, rate, length, n, loss=0.0, ac=ar.AC_BE, ampdu=1):
    t = ar.timing_preset(phy)
    return solve(t, make_rate(phy, rate), length, [Class(t, ac, n)], loss, ampdu=ampdu)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--phy', default='11a')
    ap.add_argument('--rate', default='54')
    ap.add_argument('--len', type=int, default=1500)
    ap.add_argument('--n', default='1-8')
    ap.add_argument('--loss', type=float, default=0.0)
    ap.add_argument('--classes', help='ac:n,ac:n (EDCA), e.g. vo:1,be:1')
    ap.add_argument('--ampdu', type=int, default=1, help='MPDUs per A-MPDU (HT rates)')
    a = ap.parse_args()
    phy = PHY_NAMES[a.phy]
    t = ar.timing_preset(phy)
    r = make_rate(phy, a.rate)
    if a.classes:
        cl = []
        for item in a.classes.split(','):
            acn, n = item.split(':')
            cl.append(Class(t, AC_NAMES[acn], int(n)))
        res = solve(t, r, a.len, cl, a.loss)
        for c in res['classes']:
            print('ac %s n %d tau %.5f p_coll %.4f burst %d throughput_mbps %.4f share %.4f'
                  % (['vo', 'vi', 'be', 'bk'][c['ac']], c['n'], c['tau'],
                     c['p_coll'], c['burst'], c['throughput_bps'] / 1e6,
                     c['throughput_bps'] / res['total_bps']))
        print('total throughput_mbps %.4f' % (res['total_bps'] / 1e6))
        return
    lo, _, hi = a.n.partition('-')
    for n in range(int(lo), int(hi or lo) + 1):
        res = bianchi(phy, a.rate, a.len, n, a.loss, ampdu=a.ampdu)
        c = res['classes'][0]
        print('n %d tau %.5f p_coll %.4f throughput_mbps %.4f ampdu %d'
              % (n, c['tau'], c['p_coll'], res['total_bps'] / 1e6, c['ampdu']))


if __name__ == '__main__':
    main()
