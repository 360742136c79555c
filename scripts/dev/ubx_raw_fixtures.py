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
  pixel5.first30.rawx.convbin304.rnx.gz   convbin -r ubx -v 3.04 of it (gzip -9n)
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
import datetime, gzip, os, subprocess, tempfile
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


def convbin(ubx, rnx):
    with tempfile.TemporaryDirectory() as d:
        o = d + "/out.obs"
        subprocess.run(["convbin", "-r", "ubx", "-v", "3.04", "-f", "5", "-od", "-os", "-o", o, ubx], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = open(o).read()
    # The run's date and the log's path are the only lines that vary between runs.
    text = "\n".join(("CONVBIN 2.4.3".ljust(40) + "20261128 000000 UTC PGM / RUN BY / DATE") if l[60:].strip() == "PGM / RUN BY / DATE"
                     else l for l in text.split("\n") if not l.startswith("log: ")) + ""
    return text


epochs, channels = read_rinex(src, 30)

# pixel5.first30: every signal of the file.
enc, data = Encoder(), b""
for t, flag, sats in epochs:
    ms = []
    for sat in sorted(sats):
        if sat[0] == "R" and int(sat[1:]) not in channels:
            continue
        for band in ("1C", "5X"):
            if any(x + band in sats[sat] for x in "CLD"):
                ms.append(enc.meas(t, sat, band, sats[sat], channels))
    data += rawx(t, ms) + clock(t)
open(out + "/pixel5.first30.rawx.ubx", "wb").write(data)
rnx = convbin(out + "/pixel5.first30.rawx.ubx", None)
with open(out + "/pixel5.first30.rawx.convbin304.rnx.gz", "wb") as f:
    f.write(gzip.compress(rnx.encode(), 9, mtime=0))

# edge: the first 5 epochs with the cases above.
enc, data = Encoder(), b""
for e, (t, flag, sats) in enumerate(epochs[:5]):
    ms = []
    for sat in sorted(sats):
        if sat[0] == "R" and int(sat[1:]) not in channels:
            continue
        for band in ("1C", "5X"):
            if any(x + band in sats[sat] for x in "CLD"):
                m = enc.meas(t, sat, band, sats[sat], channels)
                if sat == "G06" and band == "1C" and e == 1: m["prValid"] = 0
                if sat == "G12" and band == "1C" and e == 1: m["cpValid"] = 0; m["cpMes"] = 0.0
                if sat == "G05" and band == "1C" and e == 3: m["locktime"] = 0
                if sat == "E15" and band == "1C": m["halfCyc"] = 0
                ms.append(m)
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
    ms = []
    for sat in sorted(sats):
        if sat[0] == "R" and int(sat[1:]) not in channels:
            continue
        if any(x + "1C" in sats[sat] for x in "CLD"):
            ms.append(enc.meas(t, sat, "1C", sats[sat], channels))
    data += rawx(t, ms, version=0)
open(out + "/m8.rawx.ubx", "wb").write(data)
open(out + "/m8.rawx.convbin304.rnx", "w").write(convbin(out + "/m8.rawx.ubx", None))
