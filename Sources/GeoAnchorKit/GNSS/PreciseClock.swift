import Foundation

/// Satellite clocks from a RINEX clock file (`AS` records; 2.x and 3.0x), linearly
/// interpolated (the IGS recommendation for 30 s clocks; satellite clocks are too noisy for
/// higher-order interpolation). Receiver (`AR`) and other records are skipped. Use the CLK of
/// the same analysis centre as the SP3: products of different centres differ by a common clock
/// reference offset.
public struct PreciseClock: Sendable {
    /// Per satellite: (GPS times, clock offsets in s), times increasing.
    public var samples: [SatelliteID: (times: [Double], offsets: [Double])]
    public var timeSystem: GNSSTimeSystem
    /// Largest gap (s) between two samples that is still interpolated.
    public var maximumGap: Double = 900

    public init(samples: [SatelliteID: (times: [Double], offsets: [Double])] = [:], timeSystem: GNSSTimeSystem = .gps) {
        self.samples = samples; self.timeSystem = timeSystem
    }

    public static func looksLike(firstLine: String) -> Bool {
        firstLine.contains("RINEX VERSION / TYPE") && (firstLine.contains("CLOCK DATA") || firstLine.dropFirst(20).prefix(2).contains("C"))
    }

    public static func read(contentsOf url: URL) throws(TraceFormatError) -> PreciseClock {
        try parse(ByteLineReader(url: url))
    }

    public static func read(data: Data, source: String) throws(TraceFormatError) -> PreciseClock {
        try parse(ByteLineReader(data: data, source: source))
    }

    public mutating func merge(_ o: PreciseClock) {
        for (s, v) in o.samples {
            var t = (samples[s]?.times ?? []) + v.times, c = (samples[s]?.offsets ?? []) + v.offsets
            let order = t.indices.sorted { t[$0] < t[$1] }
            t = order.map { t[$0] }; c = order.map { c[$0] }
            samples[s] = (t, c)
        }
    }

    private static func parse(_ reader: ByteLineReader) throws(TraceFormatError) -> PreciseClock {
        var clk = PreciseClock()
        var inHeader = true, first = true
        // Line of each satellite's latest sample: an epoch out of order is reported with the line
        // it follows, which is the corrupted one when a date jumped ahead (a year 2099 epoch made
        // the next, correct record the only one named).
        var lastLine: [SatelliteID: Int] = [:]
        let source = reader.source
        try forEachFixedWidthLine(reader) { (l: FixedWidthLine) throws(TraceFormatError) in
            let text = String(decoding: l.bytes, as: UTF8.self)
            if first {
                first = false
                guard text.contains("RINEX VERSION / TYPE") else { throw l.error("not a RINEX clock file: the first line has no 'RINEX VERSION / TYPE' label") }
                let v = text.split(separator: " ").first.flatMap { Double($0) } ?? 0
                guard v >= 2, v < 5 else { throw l.error("RINEX clock version '\(text.prefix(9).trimmingCharacters(in: .whitespaces))' is not supported") }
                return
            }
            if inHeader {
                if text.contains("END OF HEADER") { inHeader = false }
                else if text.contains("TIME SYSTEM ID") {
                    let ts = text.prefix(60).trimmingCharacters(in: .whitespaces)
                    if let t = GNSSTimeSystem(rawValue: ts) { clk.timeSystem = t }
                    // An unknown scale read as GPS time would shift every clock by its offset (TAI:
                    // 19 s, 0.2 ms of clock drift…): refused, as the SP3 reader does.
                    else if !ts.isEmpty { throw l.error("unknown RINEX clock time system '\(ts)'") }
                }
                return
            }
            guard text.hasPrefix("AS") else { return }
            let tok = text.split(separator: " ")
            guard tok.count >= 10 else { throw l.error("satellite clock record has \(tok.count) fields, expected at least 10") }
            guard let sat = SatelliteID(tok[1]) else { throw l.error("'\(tok[1])' is not a satellite") }
            guard let y = Int(tok[2]), (1980...2200).contains(y), let mo = Int(tok[3]), (1...12).contains(mo),
                  let d = Int(tok[4]), (1...ByteParsing.daysInMonth(year: y, month: mo)).contains(d),
                  let h = Int(tok[5]), (0...24).contains(h), let mi = Int(tok[6]), (0...59).contains(mi),
                  let s = Double(tok[7]), s >= 0, s < 61 else {
                throw l.error("invalid epoch '\(tok[2...7].joined(separator: " "))'")
            }
            guard let n = Int(tok[8]), (1...2).contains(n) || n > 0 else { throw l.error("number of values '\(tok[8])' is not a positive integer") }
            let biasText = tok[9].replacingOccurrences(of: "D", with: "E")
            guard let bias = Double(biasText), bias.isFinite, abs(bias) < 1 else { throw l.error("clock bias '\(tok[9])' is not a number of seconds") }
            let t = clk.timeSystem.toGPS(GNSSTime.secondsSinceGPSEpoch(year: y, month: mo, day: d, hour: h, minute: mi, second: s))
            if let last = clk.samples[sat]?.times.last, t <= last {
                throw l.error("\(sat) clock epoch '\(tok[2...7].joined(separator: " "))' is not after that of line \(lastLine[sat] ?? 0)")
            }
            lastLine[sat] = l.line
            clk.samples[sat, default: ([], [])].times.append(t)
            clk.samples[sat, default: ([], [])].offsets.append(bias)
        }
        if first { throw TraceFormatError(source: source, line: nil, message: "empty file") }
        if inHeader { throw TraceFormatError(source: source, line: nil, message: "file ends inside the header (no 'END OF HEADER')") }
        return clk
    }

    /// Clock offset (s, as in the file: without the relativistic term) and drift (s/s) of `sat`
    /// at GPS time `t`, linear between the bracketing samples; nil outside the samples or across
    /// a gap longer than ``maximumGap``.
    public func clock(of sat: SatelliteID, at t: Double) -> (offset: Double, drift: Double)? {
        guard let s = samples[sat], s.times.count >= 2, t >= s.times[0], t <= s.times[s.times.count - 1] else { return nil }
        var lo = 0, hi = s.times.count - 1
        while hi - lo > 1 { let m = (lo + hi) / 2; if s.times[m] <= t { lo = m } else { hi = m } }
        let dt = s.times[hi] - s.times[lo]
        guard dt > 0, dt <= maximumGap else { return nil }
        let drift = (s.offsets[hi] - s.offsets[lo]) / dt
        return (s.offsets[lo] + drift * (t - s.times[lo]), drift)
    }
}
