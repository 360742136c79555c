#!/usr/bin/env python3
"""u-blox RXM-RAWX fixtures (Tests/GeoAnchorKitTests/GNSS/UBXRawTests.swift).

Made with:  apt-get install rtklib      (convbin 2.4.3 b34, RTKLIB's UBX decoder: the reference)
            python3 -m venv /tmp/fvenv && /tmp/fvenv/bin/pip install pyubx2==1.4.0
            /tmp/fvenv/bin/python scripts/dev/ubx_raw_fixtures.py
(pyubx2, Semuconsulting's UBX library, encodes the frames; RTKLIB's convbin decodes them again.)

Source: the first epochs of ../shared/data/gnss_raw/gsdc2021_mtv1_pixel5_part1/Pixel5_GnssLog_part1.21o
(GSDC 2021, Google's RINEX 3.03 of a Pixel 5: GPS L1/L5, GLONASS L1, Galileo E1/E5a), re-encoded
as a u-blox receiver reports raw measurements (UBX-RXM-RAWX, u-blox ZED-F9P Interface Description
§ 3.18.4, M8 Protocol Specification § 32.18.4).

Written below (Tests/GeoAnchorKitTests/Fixtures/GNSS/):
  pixel5.first30.rawx.ubx     the first 30 epochs as an F9 logs them (RXM-RAWX version 1: sigId
                              GPS 0 L1C/A, 7 L5Q; Galileo 0 E1C, 4 E5aQ; GLONASS 0 L1OF with
                              freqId = channel + 7, satellites without a channel left out), a
                              NAV-CLOCK between the epochs (another message, read past); locktime
                              counted from each phase arc's start (RINEX LLI bit 0 or a gap
                              restarts it), halfCyc valid unless LLI bit 1, cno rounded to 1 dB-Hz
                              (U1), doMes float32 (R4); a phase of ±0.000 (the converter's "no
                              phase") has cpValid clear. RTKLIB 2.4.3 does not know the L5/E5a
                              signal ids (its convbin leaves them out): their reference is the
                              source RINEX itself
                              Its GPS broadcast ephemerides (../shared/.../hour1180.21n, the record
                              of each satellite in view whose t_oc is nearest the log's start) as
                              the satellites send them: LNAV subframes 1–3 per satellite and
                              subframe 4 page 18 (Klobuchar α/β from the file's header) in
                              RXM-SFRBX messages (IS-GPS-200 §20.3: fields scaled to the broadcast
                              integers, parity with D29*/D30*, HOW and word 10 t-bits solved for
                              D29 = D30 = 0; data bits upright, as u-blox delivers them), spread
                              over the first epochs (a subframe every 6 s as broadcast)
  pixel5.first30.rawx.convbin304.rnx.gz   convbin -r ubx -v 3.04 of it (gzip -9n)
  pixel5.first30.rawx.convbin304.nav      convbin's navigation file of it (-n): RTKLIB's
                              decoding of the subframes
  edge.rawx.ubx               5 epochs of the same data with what a receiver also writes: epoch 2
                              with clkReset (recStat bit 1), a GLONASS satellite not yet identified
                              (svId 255), an IMES measurement (gnssId 4), a GPS signal id the
                              protocol does not define (sigId 2), a pseudorange not valid (prValid
                              clear at G06 epoch 1: Doppler kept), a phase not valid (cpValid clear
                              at G12 epoch 1), a phase arc restarting (G05's locktime 0 at epoch
                              3), a half-cycle not resolved (halfCyc clear on E15), a Galileo E5bQ (sigId 6) and a BeiDou B1I (gnssId 3,
                              sigId 0) and B2a pilot (sigId 7) made from GPS values, a QZSS L1C/A
                              (gnssId 5, svId 2)
  edge.rawx.convbin304.rnx    convbin's RINEX 3.04 of it
  m8.rawx.ubx                 3 epochs as an M8 logs them (RXM-RAWX version 0: sigId reserved,
                              written 0; L1 only: GPS, GLONASS, Galileo)
  m8.rawx.convbin304.rnx      convbin's RINEX 3.04 of it
"""
import datetime, gzip, math, os, subprocess, tempfile
from pyubx2 import GET, UBXMessage

here = os.path.dirname(os.path.abspath(__file__)) + "/../.."
out = here + "/Tests/GeoAnchorKitTests/Fixtures/GNSS"
src = here + "/../shared/data/gnss_raw/gsdc2021_mtv1_pixel5_part1/Pixel5_GnssLog_part1.21o"


def read_rinex(path, count):
    """Minimal RINEX 3 observation reader: [(gps seconds, flag, {sat: {type: (value, lli)}})], channels."""
    types, channels, epochs = {}, {}, []
    lines = open(path).read().splitlines()
    k = 0
    while True:
        l = lines[k]; k += 1
        label = l[60:].strip()
        if label == "SYS / # / OBS TYPES":
            types[l[0]] = l[7:60].split()
        elif label == "GLONASS SLOT / FRQ #":
            f = l[4:60].split()
            for i in range(0, len(f), 2):
                channels[int(f[i][1:])] = int(f[i + 1])
        elif label == "END OF HEADER":
            break
    gps0 = datetime.datetime(1980, 1, 6)
    while len(epochs) < count:
        l = lines[k]; k += 1
        assert l.startswith(">")
        y, mo, d, h, mi = (int(x) for x in l[2:].split()[:5])
        sec = float(l[2:].split()[5])
        flag, n = int(l[31]), int(l[32:35])
        t = (datetime.datetime(y, mo, d, h, mi) - gps0).total_seconds() + sec
        sats = {}
        for _ in range(n):
            l = lines[k]; k += 1
            sat, vals = l[:3], {}
            for i, ty in enumerate(types[l[0]]):
                field = l[3 + 16 * i: 3 + 16 * i + 16]
                if field[:14].strip():
                    lli = field[14:15].strip()
                    vals[ty] = (float(field[:14]), int(lli) if lli else 0)
            sats[sat] = vals
        epochs.append((t, flag, sats))
    return epochs, channels


GNSS = {"G": 0, "S": 1, "E": 2, "C": 3, "J": 5, "R": 6}
SIG = {("G", "1C"): 0, ("G", "5X"): 7, ("E", "1C"): 0, ("E", "5X"): 4, ("R", "1C"): 0}


class Encoder:
    """Turns RINEX values into RXM-RAWX measurement fields, with locktime per satellite+signal."""
    def __init__(self):
        self.arc = {}        # (sat, sig) -> start time of the phase arc
        self.last = {}       # (sat, sig) -> last epoch time seen

    def meas(self, t, sat, band, vals, channels, gnss=None, sv=None, sig=None):
        code, phase, dop, snr = (vals.get(x + band) for x in "CLDS")
        if phase and abs(phase[0]) < 0.001:
            phase = None     # GnssLogger converters write ±0.000 for an invalid accumulated delta range
        key = (sat, band)
        lli = phase[1] if phase else 0
        if phase is None or lli & 1 or self.last.get(key) is None or t - self.last[key] > 1.5:
            self.arc[key] = t
        self.last[key] = t
        locktime = min(65535, int(round((t - self.arc[key]) * 1000)))
        f = dict(gnssId=GNSS[sat[0]] if gnss is None else gnss, svId=int(sat[1:]) if sv is None else sv,
                 sigId=SIG[(sat[0], band)] if sig is None else sig,
                 freqId=channels.get(int(sat[1:]), 0) + 7 if sat[0] == "R" else 0,
                 prMes=code[0] if code else 0.0, cpMes=phase[0] if phase else 0.0,
                 doMes=dop[0] if dop else 0.0, locktime=locktime, cno=int(round(snr[0])) if snr else 0,
                 prStd=5, cpStd=2, doStd=3,
                 prValid=1 if code else 0, cpValid=1 if phase else 0, halfCyc=0 if lli & 2 else 1, subHalfCyc=0)
        return f


def rawx(t, ms, version=1, clk_reset=0):
    week, tow = divmod(t, 604800)
    kw = dict(rcvTow=tow, week=int(week), leapS=18, numMeas=len(ms), leapSec=1, clkReset=clk_reset, reserved1=version)
    for i, m in enumerate(ms, 1):
        for name, v in m.items():
            kw["%s_%02d" % (name, i)] = v
    return UBXMessage("RXM", "RXM-RAWX", GET, **kw).serialize()


def clock(t):
    return UBXMessage("NAV", "NAV-CLOCK", GET, iTOW=int(t % 604800 * 1000), clkB=125000, clkD=-3000, tAcc=20, fAcc=500).serialize()


def convbin(ubx, nav):
    with tempfile.TemporaryDirectory() as d:
        o = d + "/out.obs"
        subprocess.run(["convbin", "-r", "ubx", "-v", "3.04", "-f", "5", "-od", "-os", "-oi", "-o", o, "-n", d + "/out.nav", ubx], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = open(o).read()
        if nav:
            navtext = "\n".join(("CONVBIN 2.4.3".ljust(40) + "20261128 000000 UTC PGM / RUN BY / DATE") if l[60:].strip() == "PGM / RUN BY / DATE"
                                 else l for l in open(d + "/out.nav").read().split("\n") if not l.startswith("log: "))
            open(nav, "w").write(navtext)
    # The run's date and the log's path are the only lines that vary between runs.
    text = "\n".join(("CONVBIN 2.4.3".ljust(40) + "20261128 000000 UTC PGM / RUN BY / DATE") if l[60:].strip() == "PGM / RUN BY / DATE"
                     else l for l in text.split("\n") if not l.startswith("log: ")) + ""
    return text


# --- GPS LNAV subframes (IS-GPS-200 §20.3.3) -----------------------------------------------------
nav_src = here + "/../shared/data/gnss_raw/gsdc2021_mtv1_pixel5_part1/hour1180.21n"


def read_nav(path):
    """RINEX 2 GPS navigation: (ion alpha, ion beta, [record dicts])."""
    lines = open(path).read().splitlines()
    k, alpha, beta = 0, None, None
    num = lambda t: float(t.replace("D", "E"))
    while True:
        l = lines[k]; k += 1
        if l[60:].strip() == "ION ALPHA": alpha = [num(l[2 + 12 * i: 14 + 12 * i]) for i in range(4)]
        if l[60:].strip() == "ION BETA": beta = [num(l[2 + 12 * i: 14 + 12 * i]) for i in range(4)]
        if l[60:].strip() == "END OF HEADER": break
    recs = []
    while k + 8 <= len(lines):
        block = lines[k:k + 8]; k += 8
        prn = int(block[0][:2])
        y, mo, d, h, mi = (int(x) for x in block[0][2:17].split())
        sec = float(block[0][17:22])
        vals = [num(block[0][22 + 19 * i: 41 + 19 * i]) for i in range(3)]
        for l in block[1:]:
            vals += [num(l[3 + 19 * i: 22 + 19 * i]) for i in range(4) if l[3 + 19 * i: 22 + 19 * i].strip()]
        toc = (datetime.datetime(2000 + y, mo, d, h, mi) - datetime.datetime(1980, 1, 6)).total_seconds() + sec
        recs.append(dict(prn=prn, toc=toc, v=vals))
    return alpha, beta, recs


def bits(value, n, scale, signed=True):
    i = int(round(value / scale))
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
    assert lo <= i <= hi, (value, n, scale, i)
    return i & ((1 << n) - 1)


def pack(fields):
    """[(value bits, width)] → 24-bit words, MSB first."""
    acc, n = 0, 0
    for v, w in fields:
        acc = (acc << w) | v; n += w
    assert n % 24 == 0, n
    return [(acc >> (n - 24 * (i + 1))) & 0xFFFFFF for i in range(n // 24)]


def parity(d, d29, d30):
    """The 6 parity bits of 24 upright data bits d (d1 = MSB) after a word ending in d29, d30."""
    b = [(d >> (23 - i)) & 1 for i in range(24)]
    def x(*idx):
        r = 0
        for i in idx: r ^= b[i - 1]
        return r
    return [d29 ^ x(1, 2, 3, 5, 6, 10, 11, 12, 13, 14, 17, 18, 20, 23),
            d30 ^ x(2, 3, 4, 6, 7, 11, 12, 13, 14, 15, 18, 19, 21, 24),
            d29 ^ x(1, 3, 4, 5, 7, 8, 12, 13, 14, 15, 16, 19, 20, 22),
            d30 ^ x(2, 4, 5, 6, 8, 9, 13, 14, 15, 16, 17, 20, 21, 23),
            d30 ^ x(1, 3, 5, 6, 7, 9, 10, 14, 15, 16, 17, 18, 21, 22, 24),
            d29 ^ x(3, 5, 6, 8, 9, 10, 11, 13, 15, 19, 22, 23, 24)]


def subframe(data_words):
    """10 upright 24-bit words (words 2 and 10 with their last 2 bits free) → 10 SFRBX dwrds
    (30-bit words: data in bits 29..6, parity in 5..0)."""
    out, d29, d30 = [], 0, 0
    for i, d in enumerate(data_words):
        if i in (1, 9):   # t bits: chosen so that this word's D29 = D30 = 0
            for t in range(4):
                p = parity((d & ~3) | t, d29, d30)
                if p[4] == 0 and p[5] == 0:
                    d = (d & ~3) | t; break
        p = parity(d, d29, d30)
        out.append((d << 6) | int("".join(map(str, p)), 2))
        d29, d30 = p[4], p[5]
    return out


SC = math.pi   # RINEX angles are radians; LNAV sends semicircles


def lnav(rec, tow, week):
    """Subframes 1–3 of a RINEX record, the first sent at time of week `tow` (multiple of 6)."""
    v = rec["v"]
    af0, af1, af2, iode, crs, dn, m0, cuc, e, cus, sqa, toe, cic, om0, cis, i0, crc, w, omd, idot = \
        v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18], v[19]
    health, tgd, iodc, fit = v[24], v[25], v[26], v[28] if len(v) > 28 else 4
    toc = rec["toc"] % 604800
    tlm = pack([(0x8B, 8), (0, 14), (0, 2)])[0]
    def how(sf, t):
        return pack([(((t + 6) // 6) % 100800, 17), (0, 2), (sf, 3), (0, 2)])[0]
    sf1 = [tlm, how(1, tow)] + pack([(week % 1024, 10), (1, 2), (0, 4), (int(health), 6), (int(iodc) >> 8, 2),
                                     (0, 24), (0, 24), (0, 24), (0, 16), (bits(tgd, 8, 2 ** -31), 8),
                                     (int(iodc) & 0xFF, 8), (bits(toc, 16, 16, False), 16),
                                     (bits(af2, 8, 2 ** -55), 8), (bits(af1, 16, 2 ** -43), 16),
                                     (bits(af0, 22, 2 ** -31), 22), (0, 2)])
    sf2 = [tlm, how(2, tow + 6)] + pack([(int(iode), 8), (bits(crs, 16, 2 ** -5), 16),
                                         (bits(dn / SC, 16, 2 ** -43), 16), (bits(m0 / SC, 32, 2 ** -31), 32),
                                         (bits(cuc, 16, 2 ** -29), 16), (bits(e, 32, 2 ** -33, False), 32),
                                         (bits(cus, 16, 2 ** -29), 16), (bits(sqa, 32, 2 ** -19, False), 32),
                                         (bits(toe, 16, 16, False), 16), (0 if fit <= 4 else 1, 1), (0, 5), (0, 2)])
    sf3 = [tlm, how(3, tow + 12)] + pack([(bits(cic, 16, 2 ** -29), 16), (bits(om0 / SC, 32, 2 ** -31), 32),
                                          (bits(cis, 16, 2 ** -29), 16), (bits(i0 / SC, 32, 2 ** -31), 32),
                                          (bits(crc, 16, 2 ** -5), 16), (bits(w / SC, 32, 2 ** -31), 32),
                                          (bits(omd / SC, 24, 2 ** -43), 24),
                                          (int(iode), 8), (bits(idot / SC, 14, 2 ** -43), 14), (0, 2)])
    return [subframe(sf1), subframe(sf2), subframe(sf3)]


def page18(alpha, beta, tow):
    """Subframe 4, page 18 (SV ID 56): Klobuchar α/β; the UTC fields left zero."""
    tlm = pack([(0x8B, 8), (0, 14), (0, 2)])[0]
    how = pack([(((tow + 6) // 6) % 100800, 17), (0, 2), (4, 3), (0, 2)])[0]
    words = pack([(1, 2), (56, 6), (bits(alpha[0], 8, 2 ** -30), 8), (bits(alpha[1], 8, 2 ** -27), 8),
                  (bits(alpha[2], 8, 2 ** -24), 8), (bits(alpha[3], 8, 2 ** -24), 8), (bits(beta[0], 8, 2 ** 11), 8),
                  (bits(beta[1], 8, 2 ** 14), 8), (bits(beta[2], 8, 2 ** 16), 8), (bits(beta[3], 8, 2 ** 16), 8)]
                 + [(0, 24)] * 4 + [(0, 22), (0, 2)])
    return subframe([tlm, how] + words)


def sfrbx(prn, dwrds, gnss=0):
    kw = dict(gnssId=gnss, svId=prn, sigId=0, freqId=0, numWords=len(dwrds), chn=prn, version=2)
    for i, w in enumerate(dwrds, 1):
        kw["dwrd_%02d" % i] = w
    return UBXMessage("RXM", "RXM-SFRBX", GET, **kw).serialize()


def measurements(enc, t, sats, bands, edit=lambda sat, band, m: None):
    """The epoch's measurements of `bands` (GLONASS satellites without a channel left out), each
    passed through `edit` (the edge cases)."""
    ms = []
    for sat in sorted(sats):
        if sat[0] == "R" and int(sat[1:]) not in channels:
            continue
        for band in bands:
            if any(x + band in sats[sat] for x in "CLD"):
                m = enc.meas(t, sat, band, sats[sat], channels)
                edit(sat, band, m)
                ms.append(m)
    return ms

epochs, channels = read_rinex(src, 30)

# pixel5.first30: every signal of the file, and the GPS satellites' subframes.
alpha, beta, records = read_nav(nav_src)
t0 = epochs[0][0]
tow0 = int(t0 % 604800) // 6 * 6 + 6          # the first subframe boundary after the log starts
gps_in_view = sorted({int(s[1:]) for _, _, sats in epochs for s in sats if s[0] == "G"})
pending = []                                  # (transmission time, frame bytes)
for prn in gps_in_view:
    recs = [r for r in records if r["prn"] == prn]
    if not recs:
        continue
    rec = min(recs, key=lambda r: abs(r["toc"] - t0))
    for k, sf in enumerate(lnav(rec, tow0, int(t0 // 604800))):
        pending.append((t0 - t0 % 604800 + tow0 + 6 * k + 6, sfrbx(prn, sf)))
pending.append((t0 - t0 % 604800 + tow0 + 24, sfrbx(gps_in_view[0], page18(alpha, beta, tow0 + 18))))
pending.sort(key=lambda p: p[0])
enc, data = Encoder(), b""
for t, flag, sats in epochs:
    while pending and pending[0][0] <= t:
        data += pending.pop(0)[1]
    data += rawx(t, measurements(enc, t, sats, ("1C", "5X"))) + clock(t)
open(out + "/pixel5.first30.rawx.ubx", "wb").write(data)
rnx = convbin(out + "/pixel5.first30.rawx.ubx", out + "/pixel5.first30.rawx.convbin304.nav")
with open(out + "/pixel5.first30.rawx.convbin304.rnx.gz", "wb") as f:
    f.write(gzip.compress(rnx.encode(), 9, mtime=0))

# edge: the first 5 epochs with the cases above.
enc, data = Encoder(), b""
for e, (t, flag, sats) in enumerate(epochs[:5]):
    def edit(sat, band, m):
        if sat == "G06" and band == "1C" and e == 1: m["prValid"] = 0
        if sat == "G12" and band == "1C" and e == 1: m["cpValid"] = 0; m["cpMes"] = 0.0
        if sat == "G05" and band == "1C" and e == 3: m["locktime"] = 0
        if sat == "E15" and band == "1C": m["halfCyc"] = 0
    ms = measurements(enc, t, sats, ("1C", "5X"), edit)
    g = sorted(s for s in sats if s[0] == "G")
    extra = [enc.meas(t, g[0], "1C", sats[g[0]], channels, gnss=6, sv=255),          # GLONASS not identified
             enc.meas(t, g[1], "1C", sats[g[1]], channels, gnss=4, sv=1),            # IMES
             enc.meas(t, g[2], "1C", sats[g[2]], channels, sig=2),                  # GPS sigId 2: not defined
             enc.meas(t, g[0], "1C", sats[g[0]], channels, gnss=2, sv=30, sig=6),    # Galileo E5bQ
             enc.meas(t, g[1], "1C", sats[g[1]], channels, gnss=3, sv=21, sig=0),    # BeiDou B1I D1
             enc.meas(t, g[1], "1C", sats[g[1]], channels, gnss=3, sv=21, sig=7),    # BeiDou B2a pilot
             enc.meas(t, g[2], "1C", sats[g[2]], channels, gnss=5, sv=2, sig=0)]     # QZSS L1C/A (J02)
    data += rawx(t, ms + extra, clk_reset=1 if e == 2 else 0)
open(out + "/edge.rawx.ubx", "wb").write(data)
open(out + "/edge.rawx.convbin304.rnx", "w").write(convbin(out + "/edge.rawx.ubx", None))

# m8: version 0, L1 only.
enc, data = Encoder(), b""
for t, flag, sats in epochs[:3]:
    data += rawx(t, measurements(enc, t, sats, ("1C",)), version=0)
open(out + "/m8.rawx.ubx", "wb").write(data)
open(out + "/m8.rawx.convbin304.rnx", "w").write(convbin(out + "/m8.rawx.ubx", None))
