import Foundation

/// A minimal reader of PROJ's `.gie` test files (the format of `geodesy/proj_gie/*.gie` in the
/// shared data): enough to take the `accept`/`expect` pairs, tolerances and directions of one
/// `operation` section. Reference values stay in the third-party file; tests never copy them.
package struct GieSection {
    /// One test point.
    package struct Case {
        /// 1-based line of the `accept` command in the file.
        package var line: Int
        package var inverse: Bool
        /// Tolerance in meters (gie's default unit), as in force for this case.
        package var tolerance: Double
        package var accept: [Double]
        /// nil for `expect failure`.
        package var expect: [Double]?
    }

    package var operation: String
    package var line: Int
    package var cases: [Case]

    /// The section whose `operation` line (continuations joined, whitespace collapsed) equals
    /// `operation`, starting the search at or after `fromLine` (1-based).
    package static func find(_ operation: String, in text: String, fromLine: Int = 1) -> GieSection? {
        let lines = text.components(separatedBy: "\n")
        let wanted = collapse(operation)
        var i = max(0, fromLine - 1)
        while i < lines.count {
            var (op, next) = joined(lines, from: i)
            if op.hasPrefix("operation ") {
                op = collapse(String(op.dropFirst("operation ".count)))
                if op == wanted { return parseCommands(lines, operation: op, opLine: i + 1, from: next) }
            }
            i = next
        }
        return nil
    }

    private static func collapse(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// A command line with its `\` continuations joined, and the index after it.
    private static func joined(_ lines: [String], from i: Int) -> (String, Int) {
        var s = lines[i].trimmingCharacters(in: .whitespaces)
        var j = i + 1
        while s.hasSuffix("\\"), j < lines.count {
            s.removeLast()
            s += " " + lines[j].trimmingCharacters(in: .whitespaces)
            j += 1
        }
        return (s, j)
    }

    private static func parseCommands(_ lines: [String], operation: String, opLine: Int, from start: Int) -> GieSection {
        var cases: [Case] = []
        var tolerance = 0.5e-3 // gie's default: 0.5 mm
        var inverse = false
        var pendingAccept: (Int, [Double])?
        var i = start
        while i < lines.count {
            let (cmd, next) = joined(lines, from: i)
            defer { i = next }
            let words = cmd.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let head = words.first, !head.hasPrefix("#"), !head.hasPrefix("-"), !head.hasPrefix("=") else { continue }
            switch head {
            case "operation", "</gie>": return GieSection(operation: operation, line: opLine, cases: cases)
            case "tolerance": tolerance = parseTolerance(Array(words.dropFirst()))
            case "direction": inverse = words.count > 1 && words[1].lowercased().hasPrefix("inv")
            case "accept": pendingAccept = (i + 1, numbers(words.dropFirst()))
            case "expect":
                guard let (line, acc) = pendingAccept else { continue }
                let failure = words.count > 1 && words[1] == "failure"
                cases.append(Case(line: line, inverse: inverse, tolerance: tolerance, accept: acc,
                                  expect: failure ? nil : numbers(words.dropFirst())))
                pendingAccept = nil
            default: continue
            }
        }
        return GieSection(operation: operation, line: opLine, cases: cases)
    }

    private static func numbers(_ words: ArraySlice<String>) -> [Double] {
        words.prefix { !$0.hasPrefix("#") }.compactMap(Double.init)
    }

    /// "1 mm", "0.001mm", "1.1 cm", "50 nm", "0 m", "3e8" (meters by default).
    private static func parseTolerance(_ words: [String]) -> Double {
        var s = words.joined()
        var scale = 1.0
        for (unit, f) in [("nm", 1e-9), ("um", 1e-6), ("mm", 1e-3), ("cm", 1e-2), ("km", 1e3), ("m", 1.0)] where s.hasSuffix(unit) {
            s.removeLast(unit.count)
            scale = f
            break
        }
        return (Double(s) ?? 0.5e-3) * scale
    }
}
