# SPDX-License-Identifier: GPL-2.0
"""python3 -m airfair_analysis.uplink PREFIX: how well the AP's view of each station's
uplink prices it, for one saved run (PREFIX as charges takes it, e.g. DIR/airfair).

The AP sees a station's frames arrive, their rate and whether they carry the Retry bit;
it does not see the attempts that failed. Per station, over the run's window: the
medium's uplink frames, bytes and air + idle (its ground truth), the hook's uplink rate
and Retry-bit share r (the qdisc's class stats at the window's end), the station's main
rate (the one most of its uplink bytes were first tried at), and the model's charge for
those frames and bytes over their air at the main rate for two readings of r: a loss per
attempt (1 / (1 - r) attempts a frame) and one failure per retried frame (1 + r), which
sch_airfair charges (docs/mac80211-hook.md, Uplink); 802.11a/g links only: an A-MPDU's
MPDUs all carry the bit when its PPDU is retried, so r means something else there.
Beside them, any PHY: the medium's loss per MPDU attempt up (station -> AP) and down, and
the AP's loss to the station as the hook reports it (what HT/VHT/HE uplinks were charged
at until session 37; now r / (1 + r) on every PHY)."""
import sys

from .charges import _links, mpdu_loss, prefix_main, window
from .run import _classes, medium_conf
from .scenario import airtime_ref

# What a frame in the medium carries beyond its L3 packet: a QoS data header and
# LLC/SNAP (hwsim's frames have no FCS; the model adds it with its overheads).
MPDU_L3_OVERHEAD = 26 + 8


def charge_ratio(t, kbps, loss, frames, nbytes, air_us):
    """The model's charge for @frames uplink frames of @nbytes (medium lengths) at
    @kbps with per-attempt loss @loss, over the air they took; None if unpriceable."""
    if not frames or air_us <= 0 or not kbps:
        return None
    aff = airtime_ref.affine(t, airtime_ref.Rate(airtime_ref.MODE_LEGACY, legacy=kbps // 100),
                             loss)
    if aff is None:
        return None
    a, b = aff
    return (frames * a + b * (nbytes - MPDU_L3_OVERHEAD * frames)) / 1e3 / air_us


def breakdown(prefix):
    with open(prefix + "-stations.txt") as f:
        stations = [(int(i), mac) for i, mac in (line.split() for line in f if line.strip())]
    m0, m1 = _links(prefix + "-m0.json"), _links(prefix + "-m1.json")
    c1 = _classes(prefix + "-c1.json")
    phy = medium_conf(prefix, "phy") or "11a"
    t = airtime_ref.timing_preset(airtime_ref.PHY_BY_NAME[phy])
    out = []
    for i, mac in sorted(stations):
        w = window(m0, m1, i, 0)
        up = c1.get(mac, {}).get("up", {})
        r = up.get("loss", 0) / 65536
        frb = {k: v for k, v in w["first_rate_bytes"].items() if k != "other" and v > 0}
        main = round(float(max(frb, key=frb.get)) * 1000) if frb else None
        ap_loss = c1.get(mac, {}).get("loss")
        rec = {"station": i, "frames": w["frames"], "air_us": w["air_us"], "retry": r,
               "hook_kbps": up.get("rate_kbps"), "main_kbps": main,
               "up_loss": mpdu_loss(w), "down_loss": mpdu_loss(window(m0, m1, 0, i)),
               "ap_loss": None if ap_loss is None else ap_loss / 65536}
        for name, loss in (("per_attempt", r), ("one_retry", r / (1 + r))):
            rec[name] = charge_ratio(t, main, loss, w["frames"], w["bytes"], w["air_us"])
        out.append(rec)
    return out


def show(recs, out=sys.stdout):
    print("station  up frames  air+idle ms  Retry share  hook rate  main rate  "
          "1/(1-r)  1+r  loss up  down  AP's", file=out)
    for r in recs:
        def f(x, fmt):
            return "-" if x is None else format(x, fmt)
        print(f"sta{r['station']:<5} {r['frames']:>9}  {r['air_us'] / 1e3:>11.1f}  "
              f"{r['retry']:>11.2f}  {f(r['hook_kbps'], 'd'):>9}  {f(r['main_kbps'], 'd'):>9}  "
              f"{f(r['per_attempt'], '.2f'):>7}  {f(r['one_retry'], '.2f'):>4}  "
              f"{f(r['up_loss'], '.2f'):>7}  {f(r['down_loss'], '.2f'):>4}  "
              f"{f(r['ap_loss'], '.2f'):>4}", file=out)


def main(argv=None):
    return prefix_main("uplink", breakdown, show, argv)


if __name__ == "__main__":
    sys.exit(main())
