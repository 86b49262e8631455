#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Double-precision reference of the sch_airfair airtime model.

Reads the PHY/MAC data from sch_airfair/phy_params.h (the one source of
truth; never a copy) and computes in floating point what
sch_airfair/airtime.c computes in integers. Independent implementation:
the grid test (tests/unit/airtime_grid.py) compares the two.

Units: ns (floats) for durations, loss as a probability 0..1.
"""
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
PHY_PARAMS = os.path.join(HERE, '..', 'sch_airfair', 'phy_params.h')
UAPI = os.path.join(HERE, '..', 'include', 'uapi', 'linux', 'pkt_sched_airfair.h')

MODE_LEGACY, MODE_HT, MODE_VHT, MODE_HE = range(4)
AC_VO, AC_VI, AC_BE, AC_BK = range(4)
F_SHORT_PREAMBLE, F_ERP = 1, 2
GI_LONG, GI_SHORT = 0, 1


def parse_params(path=PHY_PARAMS):
    """Return (scalars, tables): scalars AIRFAIR_P_* -> int,
    tables NAME -> list of dicts keyed by the @cols names."""
    text = open(path).read()
    scalars = {m.group(1): int(m.group(2)) for m in re.finditer(
        r'^#define\s+AIRFAIR_P_(\w+)\s+(\d+)\b', text, re.M)}
    cols = {}
    for m in re.finditer(r'@cols\s+(\w+):\s*([\w ]+?)\s*(?:\*/)?$', text,
                         re.M):
        cols.setdefault(m.group(1), []).extend(m.group(2).split())
    # table name in the #define vs @cols name
    names = {'PHY': 'PHY', 'AC': 'AC', 'DSSS': 'DSSS', 'OFDM': 'OFDM',
             'MCS': 'MCS', 'NSD': 'NSD', 'NLTF': 'NLTF',
             'VHT_EXCLUDED': 'VHTX', 'HE_GI': 'HEGI'}
    tables = {}
    for m in re.finditer(r'^#define\s+AIRFAIR_(\w+)_TABLE\(X\)\s*\{\s*\\\n'
                         r'((?:[ \t]*X\([^)]*\),?[ \t]*\\\n)+)\}', text,
                         re.M):
        name = m.group(1)
        colnames = cols[names[name]]
        rows = []
        for row in re.finditer(r'X\(([^)]*)\)', m.group(2)):
            vals = [v.strip() for v in row.group(1).split(',')]
            if len(vals) != len(colnames):
                raise ValueError('%s: %d values for %d columns' %
                                 (name, len(vals), len(colnames)))
            rows.append({c: (v if v.startswith('AIRFAIR_') else int(v))
                         for c, v in zip(colnames, vals)})
        tables[name] = rows
    for need in names:
        if need not in tables:
            raise ValueError('table %s missing in %s' % (need, path))
    return scalars, tables


P, T = parse_params()


def parse_phys(uapi=UAPI, params=PHY_PARAMS):
    """enum airfair_phy's names in order (the uapi header) and the preset
    names AIRFAIR_PHY_NAMES gives them, plus the accepted alias."""
    enum = re.search(r'enum airfair_phy \{(.*?)\};', open(uapi).read(), re.S)
    phys = re.findall(r'^\s*(AIRFAIR_PHY_\w+)\s*,', enum.group(1), re.M)
    text = open(params).read()
    names = re.findall(r'"([^"]*)"', re.search(
        r'#define AIRFAIR_PHY_NAMES \{(.*?)\}', text, re.S).group(1))
    alias = re.search(r'#define AIRFAIR_PHY_ALIAS_11AX "([^"]*)"', text).group(1)
    if len(names) != len(phys):
        raise ValueError('%d preset names for %d PHYs' % (len(names), len(phys)))
    by_name = {n: i for i, n in enumerate(names)}
    by_name[alias] = phys.index('AIRFAIR_PHY_11AX_5G')
    return phys, names, by_name


PHYS, PHY_NAMES, PHY_BY_NAME = parse_phys()


class Rate:
    def __init__(self, mode, mcs=0, nss=0, bw=0, gi=0, flags=0, legacy=0):
        self.mode, self.mcs, self.nss, self.bw = mode, mcs, nss, bw
        self.gi, self.flags, self.legacy = gi, flags, legacy

    def __repr__(self):
        return ('Rate(mode=%d, mcs=%d, nss=%d, bw=%d, gi=%d, flags=%d, '
                'legacy=%d)' % (self.mode, self.mcs, self.nss, self.bw,
                                self.gi, self.flags, self.legacy))


def timing_preset(phy):
    row = T['PHY'][phy]
    assert row['phy'] == PHYS[phy]
    return {
        'sifs_us': row['sifs_us'], 'slot_us': row['slot_us'],
        'cwmin': row['cwmin'], 'cwmax': row['cwmax'],
        'aifsn': [row['aifsn_vo'], row['aifsn_vi'], row['aifsn_be'],
                  row['aifsn_bk']],
        'retries': row['retries'], 'basic_rate': row['basic'],
        'sigext_us': row['sigext_us'], 'ack_len': P['ACK_LEN'],
        'ba_len': P['BA_LEN'],
        'overhead_len': P['MAC_HDR_LEN'] + P['LLC_LEN'] + P['SEC_LEN'] +
        P['FCS_LEN'], 'phy': phy,
        # the TXOP the charge shares an access over: none unless told
        'txop_us': [0, 0, 0, 0],
    }


def phy_txop_us(phy):
    """The standard's TXOP limits (VO, VI, BE, BK), us: the medium's."""
    row = T['PHY'][phy]
    return [row['txop_vo'], row['txop_vi'], row['txop_be'], row['txop_bk']]


def resolve(r):
    """Rate -> dict with kind, bits per symbol (float), ndbps, sym_ns, pre_ns,
    ...; None if the combination is invalid."""
    if r.flags & ~(F_SHORT_PREAMBLE | F_ERP) or not 0 <= r.bw <= 3:
        return None
    x = {'sgi': False, 'nes': 0, 'sigext_ns': 0.0}
    if r.mode == MODE_LEGACY:
        if r.bw or r.gi or r.mcs or r.nss > 1:
            return None
        kbps = r.legacy * 100
        for d in T['DSSS']:
            if P['DSSS_CHIP_RATE_KHZ'] * d['bits'] / d['chips'] == kbps:
                if r.flags & F_ERP:
                    return None
                if r.flags & F_SHORT_PREAMBLE and not d['short']:
                    return None
                pre = P['DSSS_SHORT_PREAMBLE_US' if r.flags & F_SHORT_PREAMBLE
                        else 'DSSS_LONG_PREAMBLE_US']
                x.update(kind='dsss', rate_bps=kbps * 1e3, pre_ns=pre * 1e3)
                return x
        for m in T['OFDM']:
            bits = P['OFDM_NSD'] * m['bpscs'] * m['rnum'] / m['rden']
            if abs(bits / (P['OFDM_SYM_NS'] * 1e-9) - kbps * 1e3) < 1:
                if r.flags & F_SHORT_PREAMBLE:
                    return None
                x.update(kind='ofdm', bits=bits, ndbps=int(bits), nes=1,
                         ncbps=P['OFDM_NSD'] * m['bpscs'],
                         sym_ns=float(P['OFDM_SYM_NS']),
                         pre_ns=P['OFDM_PREAMBLE_US'] * 1e3)
                if r.flags & F_ERP:
                    x['sigext_ns'] = P['SIGEXT_US'] * 1e3
                return x
        return None
    nsd = T['NSD'][r.bw]
    nltf = {row['nss']: row['nltf'] for row in T['NLTF']}
    if r.mode == MODE_HT:
        if r.mcs > P['HT_MAX_MCS'] or r.gi > 1 or r.legacy or \
                r.flags & F_SHORT_PREAMBLE:
            return None
        nss = r.mcs // 8 + 1
        if r.nss and r.nss != nss or not nsd['ht']:
            return None
        m = T['MCS'][r.mcs % 8]
        ncbps = nsd['ht'] * m['bpscs'] * nss
        bits = ncbps * m['rnum'] / m['rden']
        lgi_rate = bits / 4e-6
        x.update(kind='ht', bits=bits, ndbps=math.floor(bits + 1e-9),
                 ncbps=ncbps, sgi=r.gi == GI_SHORT,
                 sym_ns=float(P['SYM_SGI_NS'] if r.gi else P['SYM_LGI_NS']),
                 nes=2 if lgi_rate > P['HT_ENC_MBPS'] * 1e6 else 1,
                 pre_ns=(P['HT_PREAMBLE_US'] + P['HT_LTF_US'] * nltf[nss])
                 * 1e3)
        if r.flags & F_ERP:
            x['sigext_ns'] = P['SIGEXT_US'] * 1e3
        return x
    if r.mode == MODE_VHT:
        if r.mcs > P['VHT_MAX_MCS'] or r.gi > 1 or not 1 <= r.nss <= 8 or \
                r.flags or r.legacy:
            return None
        for e in T['VHT_EXCLUDED']:
            if (e['bw'], e['mcs'], e['nss']) == (r.bw, r.mcs, r.nss):
                return None
        m = T['MCS'][r.mcs]
        ncbps = nsd['vht'] * m['bpscs'] * r.nss
        bits = ncbps * m['rnum'] / m['rden']
        if abs(bits - round(bits)) > 1e-9:
            return None
        ndbps = int(round(bits))
        nes = math.ceil(ndbps / (P['SYM_SGI_NS'] * 1e-9) /
                        (P['VHT_ENC_MBPS'] * 1e6) - 1e-12)
        while ndbps % nes or ncbps % nes:
            nes += 1
        x.update(kind='vht', bits=bits, ndbps=ndbps, ncbps=ncbps,
                 sgi=r.gi == GI_SHORT, nes=nes,
                 sym_ns=float(P['SYM_SGI_NS'] if r.gi else P['SYM_LGI_NS']),
                 pre_ns=(P['VHT_PREAMBLE_US'] + P['VHT_LTF_US'] *
                         nltf[r.nss]) * 1e3)
        return x
    if r.mode == MODE_HE:
        if r.mcs > P['HE_MAX_MCS'] or not 1 <= r.nss <= 8 or r.legacy or \
                r.flags & F_SHORT_PREAMBLE:
            return None
        if r.flags & F_ERP and r.bw > 1:
            return None
        gis = {g['gi']: g for g in T['HE_GI']}
        if r.gi not in gis:
            return None
        g = gis[r.gi]
        m = T['MCS'][r.mcs]
        ncbps = nsd['he'] * m['bpscs'] * r.nss
        bits = ncbps * m['rnum'] / m['rden']
        x.update(kind='he', bits=bits, ndbps=math.floor(bits + 1e-9),
                 ncbps=ncbps, nes=0,
                 sym_ns=float(P['HE_SYM_NS'] + g['gi_ns']),
                 pre_ns=P['HE_PREAMBLE_US'] * 1e3 + nltf[r.nss] * g['ltf_ns'])
        if r.flags & F_ERP:
            x['sigext_ns'] = P['SIGEXT_US'] * 1e3
        return x
    return None


def rate_bps(r):
    x = resolve(r)
    if x is None:
        return 0.0
    if x['kind'] == 'dsss':
        return x['rate_bps']
    return x['bits'] / (x['sym_ns'] * 1e-9)


def _ppdu(x, psdu_len):
    if x['kind'] == 'dsss':
        return x['pre_ns'] + 1e3 * math.ceil(psdu_len * 8 / x['rate_bps']
                                             * 1e6 - 1e-9)
    bits = psdu_len * 8 + P['SERVICE_BITS'] + P['TAIL_BITS'] * x['nes']
    t = math.ceil(bits / x['ndbps']) * x['sym_ns']
    if x['sgi']:
        t = P['SYM_LGI_NS'] * math.ceil(t / P['SYM_LGI_NS'] - 1e-12)
    return x['pre_ns'] + t + x['sigext_ns']


def ppdu_ns(r, psdu_len):
    x = resolve(r)
    return None if x is None else _ppdu(x, psdu_len)


def ctrl_ns(t, length):
    x = resolve(Rate(MODE_LEGACY, legacy=t['basic_rate']))
    if x['kind'] == 'ofdm':
        x['sigext_ns'] = t['sigext_us'] * 1e3
    return _ppdu(x, length)


def ac_cw(t, ac):
    row = T['AC'][ac]
    cwmin = max(((t['cwmin'] + 1) >> row['min_shift']) - 1, 1)
    if row['max_shift'] >= 15:
        cwmax = t['cwmax']
    else:
        cwmax = max(((t['cwmin'] + 1) >> row['max_shift']) - 1, 1, cwmin)
    return cwmin, cwmax


def attempts(p, retries):
    """E[N] = sum_{i=0}^{R} p^i = (1 - p^(R+1)) / (1 - p)."""
    return sum(p ** i for i in range(retries + 1))


def backoff_ns(t, p, ac):
    cwmin, cwmax = ac_cw(t, ac)
    cw, total = cwmin, 0.0
    for i in range(t['retries'] + 1):
        total += p ** i * cw / 2 * t['slot_us'] * 1e3
        cw = min(2 * cw + 1, cwmax)
    return total


def paper_backoff_ns(t, p, ac):
    """chen-yan Eq. 4 as printed: sum (W_i - 1)/2 (1-p) p^i slots, W_0 =
    CWmin (for comparison in the docs only)."""
    cwmin, cwmax = ac_cw(t, ac)
    w, total = cwmin, 0.0
    for i in range(t['retries'] + 1):
        total += (w - 1) / 2 * (1 - p) * p ** i
        w = min(2 * w, cwmax)
    return total * t['slot_us'] * 1e3


def _setup(t, r, p, ac, ampdu):
    x = resolve(r)
    if x is None or not 1 <= ampdu <= 64 or (ampdu > 1 and
                                              x['kind'] in ('dsss', 'ofdm')):
        return None
    f = {'x': x, 'n': ampdu}
    f['delim'] = P['DELIM_LEN'] if ampdu > 1 or x['kind'] in ('vht', 'he') \
        else 0
    f['sifs'] = t['sifs_us'] * 1e3
    f['aifs'] = f['sifs'] + t['aifsn'][ac] * t['slot_us'] * 1e3
    f['resp'] = ctrl_ns(t, t['ba_len'] if ampdu > 1 else t['ack_len'])
    f['att'] = attempts(p, t['retries'])
    f['backoff'] = backoff_ns(t, p, ac)
    return f


def _psdu(t, f, length):
    sub = length + t['overhead_len'] + f['delim']
    if f['n'] > 1:
        sub = (sub + 3) // 4 * 4
    # n may be a mean (the hook's, in 1/16): the PPDU of n subframes
    return math.floor(sub * f['n'] + 0.5)


def txop_saving(t, f, ac, ppdu):
    """What a first attempt saves of AIFS + backoff when bursts of PPDUs
    of `ppdu` ns fill the AC's TXOP (one access, SIFS between frames)."""
    txop = t['txop_us'][ac] * 1e3
    if not txop:
        return 0.0
    n = int((txop + f['sifs']) // (ppdu + 2 * f['sifs'] + f['resp']))
    if n <= 1:
        return 0.0
    first_bo = ac_cw(t, ac)[0] * t['slot_us'] * 1e3 / 2
    return (f['aifs'] + first_bo - f['sifs']) * (n - 1) / n


def no_txop(t):
    """The timing of frames that burst with nothing: the stations'."""
    return dict(t, txop_us=[0] * 4)


def frame_ns(t, r, length, p, ac=AC_BE, ampdu=1):
    """Exact expected airtime of one frame of L3 length `length` with
    per-attempt loss p; returns a breakdown dict (ns) or None."""
    f = _setup(t, r, p, ac, ampdu)
    if f is None:
        return None
    n = f['n']
    psdu = _psdu(t, f, length)
    ppdu = _ppdu(f['x'], psdu)
    attempt = f['aifs'] + ppdu + f['sifs'] + f['resp']
    save = txop_saving(t, f, ac, ppdu)
    save_aifs = min(save, f['aifs'] - f['sifs'])
    bd = {'direct': ppdu / n, 'aifs': (f['aifs'] - save_aifs) / n,
          'sifs': f['sifs'] / n, 'ack': f['resp'] / n,
          'backoff': (f['backoff'] - min(save - save_aifs, f['backoff'])) / n,
          'retries': attempt * (f['att'] - 1) / n, 'attempts': f['att'],
          'psdu_len': psdu, 'rate_bps': rate_bps(r)}
    bd['total'] = sum(bd[k] for k in ('direct', 'aifs', 'sifs', 'ack',
                                      'backoff', 'retries'))
    return bd


def affine(t, r, p, ac=AC_BE, ampdu=1, burst_len=P['MTU_LEN']):
    """(a_ns, b_ns_per_byte) of the centred affine fit (see airtime.c);
    a TXOP shared as bursts of `burst_len` frames fill it."""
    f = _setup(t, r, p, ac, ampdu)
    if f is None:
        return None
    x, n = f['x'], f['n']
    if x['kind'] == 'dsss':
        per_byte = 8e9 / x['rate_bps']
        q, cont = 1e3, 0.0
    else:
        per_byte = 8 * x['sym_ns'] / x['ndbps']
        q = x['sym_ns'] + (P['SYM_LGI_NS'] if x['sgi'] else 0)
        cont = (P['SERVICE_BITS'] + P['TAIL_BITS'] * x['nes']) * \
            x['sym_ns'] / x['ndbps']
    b = per_byte * f['att']
    fixed = x['pre_ns'] + x['sigext_ns'] + cont + q / 2 + f['aifs'] + \
        f['sifs'] + f['resp']
    a = fixed * f['att'] + f['backoff']
    a = (a - min(a, txop_saving(t, f, ac, _ppdu(x, _psdu(t, f, burst_len))))) / n
    a += b * (t['overhead_len'] + f['delim'] + (1.5 if n > 1 else 0))
    return a, b


def quantum_ns(r):
    """Rounding quantum q of the PPDU length (see affine())."""
    x = resolve(r)
    if x['kind'] == 'dsss':
        return 1e3
    return x['sym_ns'] + (P['SYM_LGI_NS'] if x['sgi'] else 0)


def sta_costs(t, r, p, ac=AC_BE, d=2, ampdu=1, mss=1460, model='precise'):
    """Float version of airfair_sta_costs(): dict of (a, b) pairs and
    up_data_ns."""
    up_len = mss + P['TCPIP_HDR_LEN']
    if model == 'naive':
        b = 8e9 / rate_bps(r)
        return {'data': (0.0, b), 'tcp_down': (0.0, b), 'ack': (0.0, b),
                'up_data_ns': b * up_len}
    a, b = affine(t, r, p, ac, ampdu, up_len)
    # the stations' frames and the AP's pure ACKs burst with nothing
    st = no_txop(t)
    ack = frame_ns(st, r, P['TCP_ACK_LEN'], p, ac, ampdu)['total']
    return {'data': (a, b), 'tcp_down': (a + ack / d, b),
            'ack': (max(ack - b * P['TCP_ACK_LEN'], 0.0), b),
            'up_data_ns': frame_ns(st, r, up_len, p, ac, ampdu)['total']}


def flow_cost(costs, cls, direction, length, d=2):
    """Airtime the qdisc charges one dequeued packet (ns).
    cls 'data' (UDP/other) or 'tcp'; direction 'down' or 'up' (for 'up'
    the packet is the AP's TCP ACK, Eq. 9)."""
    if cls == 'tcp' and direction == 'up':
        a, b = costs['ack']
        return a + b * length + d * costs['up_data_ns']
    a, b = costs['tcp_down' if cls == 'tcp' else 'data']
    return a + b * length


if __name__ == '__main__':
    t = timing_preset(5)
    for r in (Rate(MODE_VHT, 0, 1, 2, 1), Rate(MODE_VHT, 9, 1, 2, 1)):
        bd = frame_ns(t, r, 1500, 0.0)
        print('%-60r %8.1f Mbit/s total %8.1f ns direct %8.1f ns' %
              (r, rate_bps(r) / 1e6, bd['total'], bd['direct']))
