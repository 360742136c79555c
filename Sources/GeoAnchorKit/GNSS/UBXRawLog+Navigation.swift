import Foundation

/// GPS and QZSS LNAV broadcast navigation from a u-blox log's `RXM-SFRBX` messages (IS-GPS-200
/// §20.3.2–20.3.3; QZSS IS-QZSS-PNT: the same format): each subframe's ten 30-bit words, parity
/// checked (D25–D30 from the data bits and the previous word's D29*/D30*, data bits taken upright
/// as u-blox delivers them, or inverted by D30* when they arrive as transmitted), subframes 1–3
/// of one issue (IODE = IODE = IODC's low 8 bits) made into a ``BroadcastEphemeris`` through the
/// RINEX reader's checks, subframe 4 page 18 (SV ID 56) into the Klobuchar coefficients.
extension UBXRawLog {
    /// One LNAV subframe as sent: the satellite and its ten upright 24-bit data words.
    struct LNAVSubframe { let satellite: SatelliteID, words: [UInt32] }

    /// The ten data words of an RXM-SFRBX GPS/QZSS subframe whose parity holds, else nil.
    static func lnavWords(_ dwrds: [UInt32]) -> [UInt32]? {
        guard dwrds.count == 10 else { return nil }
        var out: [UInt32] = []
        var d29: UInt32 = 0, d30: UInt32 = 0   // word 10 of every subframe ends in 00 (t bits)
        for w in dwrds {
            let data = (w >> 6) & 0xFF_FFFF, parity = w & 0x3F
            // Upright data bits, or data bits still inverted by the previous word's D30.
            let candidates = d30 == 1 ? [data, data ^ 0xFF_FFFF] : [data]
            guard let d = candidates.first(where: { lnavParity($0, d29, d30) == parity }) else { return nil }
            out.append(d)
            d29 = (parity >> 1) & 1; d30 = parity & 1
        }
        guard out[0] >> 16 == 0x8B else { return nil }   // TLM preamble
        return out
    }

    /// D25…D30 of upright data bits `d` (d1 = bit 23) after a word ending in D29*, D30*
    /// (IS-GPS-200 table 20-XIV).
    static func lnavParity(_ d: UInt32, _ d29: UInt32, _ d30: UInt32) -> UInt32 {
        func x(_ idx: [Int]) -> UInt32 { idx.reduce(0) { $0 ^ ((d >> UInt32(24 - $1)) & 1) } }
        let p = [d29 ^ x([1, 2, 3, 5, 6, 10, 11, 12, 13, 14, 17, 18, 20, 23]),
                 d30 ^ x([2, 3, 4, 6, 7, 11, 12, 13, 14, 15, 18, 19, 21, 24]),
                 d29 ^ x([1, 3, 4, 5, 7, 8, 12, 13, 14, 15, 16, 19, 20, 22]),
                 d30 ^ x([2, 4, 5, 6, 8, 9, 13, 14, 15, 16, 17, 20, 21, 23]),
                 d30 ^ x([1, 3, 5, 6, 7, 9, 10, 14, 15, 16, 17, 18, 21, 22, 24]),
                 d29 ^ x([3, 5, 6, 8, 9, 10, 11, 13, 15, 19, 22, 23, 24])]
        return p.reduce(0) { $0 << 1 | $1 }
    }

    /// The navigation of the subframes, in log order; `week` is a GPS week of the log (the
    /// receiver's, from RXM-RAWX) resolving LNAV's 10-bit week, `time` a GPS time of the log
    /// (its first epoch) placing times of week. Counts what it cannot use in `skipped`.
    static func navigation(_ subframes: [LNAVSubframe], week: Int, time: Double, skipped: inout [String: Int]) -> RinexNavigationFile {
        var nav = RinexNavigationFile(version: 3)
        var latest: [SatelliteID: [Int: [UInt32]]] = [:]
        func bits(_ w: [UInt32], _ word: Int, _ from: Int, _ count: Int) -> UInt64 {
            // Bits `from`…`from + count − 1` (1-based within the 24 data bits of word `word`, 1-based), may run into the next words.
            var v: UInt64 = 0
            for k in 0..<count {
                let pos = from - 1 + k, wi = word - 1 + pos / 24, bi = pos % 24
                v = v << 1 | UInt64((w[wi] >> UInt32(23 - bi)) & 1)
            }
            return v
        }
        func signed(_ v: UInt64, _ n: Int) -> Double { Double(Int64(bitPattern: v << UInt64(64 - n)) >> Int64(64 - n)) }
        for sf in subframes {
            let w = sf.words
            let id = Int(bits(w, 2, 20, 3))
            if id == 4 {
                // Page 18 (SV ID 56): α0…α3, β0…β3.
                guard bits(w, 3, 3, 6) == 56 else { continue }
                let a = SIMD4(signed(bits(w, 3, 9, 8), 8) * 0x1p-30, signed(bits(w, 3, 17, 8), 8) * 0x1p-27,
                              signed(bits(w, 4, 1, 8), 8) * 0x1p-24, signed(bits(w, 4, 9, 8), 8) * 0x1p-24)
                let b = SIMD4(signed(bits(w, 4, 17, 8), 8) * 0x1p11, signed(bits(w, 5, 1, 8), 8) * 0x1p14,
                              signed(bits(w, 5, 9, 8), 8) * 0x1p16, signed(bits(w, 5, 17, 8), 8) * 0x1p16)
                nav.klobuchar = KlobucharCoefficients(alpha: a, beta: b)
                continue
            }
            guard (1...3).contains(id) else { continue }
            latest[sf.satellite, default: [:]][id] = w
            guard let s1 = latest[sf.satellite]?[1], let s2 = latest[sf.satellite]?[2], let s3 = latest[sf.satellite]?[3] else { continue }
            let iodc = Int(bits(s1, 3, 23, 2) << 8 | bits(s1, 8, 1, 8))
            let iode2 = Int(bits(s2, 3, 1, 8)), iode3 = Int(bits(s3, 10, 1, 8))
            guard iode2 == iode3, iode2 == iodc & 0xFF else { continue }   // subframes of different issues: wait for the rest
            if nav.ephemerides[sf.satellite]?.contains(where: { Int($0.iode) == iode2 }) == true { continue }
            // Times of week placed in the log's week (10-bit week resolved against the receiver's).
            let wn = Int(bits(s1, 3, 1, 10))
            let fullWeek = wn + 1024 * Int((Double(week - wn) / 1024).rounded())
            let tocSOW = Double(bits(s1, 8, 9, 16)) * 16, toeSOW = Double(bits(s2, 10, 1, 16)) * 16
            let toc = GNSSTime.nearest(Double(fullWeek) * GNSSTime.secondsPerWeek + tocSOW, to: time)
            let pi = Double.pi
            var v = [Double](repeating: 0, count: 29)
            v[0] = signed(bits(s1, 10, 1, 22), 22) * 0x1p-31
            v[1] = signed(bits(s1, 9, 9, 16), 16) * 0x1p-43
            v[2] = signed(bits(s1, 9, 1, 8), 8) * 0x1p-55
            v[3] = Double(iode2)
            v[4] = signed(bits(s2, 3, 9, 16), 16) * 0x1p-5
            v[5] = signed(bits(s2, 4, 1, 16), 16) * 0x1p-43 * pi
            v[6] = signed(bits(s2, 4, 17, 32), 32) * 0x1p-31 * pi
            v[7] = signed(bits(s2, 6, 1, 16), 16) * 0x1p-29
            v[8] = Double(bits(s2, 6, 17, 32)) * 0x1p-33
            v[9] = signed(bits(s2, 8, 1, 16), 16) * 0x1p-29
            v[10] = Double(bits(s2, 8, 17, 32)) * 0x1p-19
            v[11] = toeSOW
            v[12] = signed(bits(s3, 3, 1, 16), 16) * 0x1p-29
            v[13] = signed(bits(s3, 3, 17, 32), 32) * 0x1p-31 * pi
            v[14] = signed(bits(s3, 5, 1, 16), 16) * 0x1p-29
            v[15] = signed(bits(s3, 5, 17, 32), 32) * 0x1p-31 * pi
            v[16] = signed(bits(s3, 7, 1, 16), 16) * 0x1p-5
            v[17] = signed(bits(s3, 7, 17, 32), 32) * 0x1p-31 * pi
            v[18] = signed(bits(s3, 9, 1, 24), 24) * 0x1p-43 * pi
            v[19] = signed(bits(s3, 10, 9, 14), 14) * 0x1p-43 * pi
            v[21] = Double(fullWeek)
            v[24] = Double(bits(s1, 3, 17, 6))
            v[25] = signed(bits(s1, 7, 17, 8), 8) * 0x1p-31
            v[26] = Double(iodc)
            v[28] = bits(s2, 10, 17, 1) == 0 ? 4 : 6   // fit interval flag: 4 h, else (IODC-dependent) taken as 6 h
            guard let e = BroadcastEphemeris.fromRinex(sf.satellite, toc: toc, v) else {
                skipped["sfrbx_unusable_ephemeris", default: 0] += 1
                continue
            }
            nav.ephemerides[sf.satellite, default: []].append(e)
        }
        for k in nav.ephemerides.keys { nav.ephemerides[k]!.sort { $0.ephemerisReferenceTime < $1.ephemerisReferenceTime } }
        return nav
    }
}
