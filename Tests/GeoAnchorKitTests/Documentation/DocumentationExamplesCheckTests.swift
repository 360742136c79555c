import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC catalogue must be compiled: its lines must
/// appear, in order and contiguous (after trimming whitespace at both ends of each line), in
/// `DocumentationExamples.swift`, where each example runs inside a test, and its brackets must
/// balance (so a block cannot be a truncated piece of a test). A block preceded by the
/// HTML comment `<!-- not-compiled: package manifest -->` (a Package.swift fragment, which is not
/// Swift that a test can hold) is exempt.
@Suite("Documentation examples are compiled")
struct DocumentationExamplesCheckTests {
    static let exemptMarker = "<!-- not-compiled: package manifest -->"

    /// Package root: Tests/GeoAnchorKitTests/Documentation/<this file> → four levels up.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Documentation
        .deletingLastPathComponent() // GeoAnchorKitTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // root

    struct CodeBlock: Equatable {
        var firstLineNumber: Int   // 1-based line of the block's first code line
        var lines: [String]
        var exempt: Bool
    }

    static func normalized(_ line: Substring) -> String {
        String(line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }

    /// The ```swift blocks of a markdown text (fences may be indented, as in lists).
    static func swiftBlocks(in markdown: String) -> [CodeBlock] {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [CodeBlock] = []
        var i = 0
        while i < lines.count {
            let t = normalized(lines[i])
            guard t == "```swift" else { i += 1; continue }
            // The marker must be the nearest non-blank line above the fence.
            var j = i - 1
            while j >= 0, normalized(lines[j]).isEmpty { j -= 1 }
            let exempt = j >= 0 && normalized(lines[j]) == exemptMarker
            var body: [String] = []
            i += 1
            let first = i + 1
            while i < lines.count, normalized(lines[i]) != "```" {
                body.append(normalized(lines[i]))
                i += 1
            }
            blocks.append(CodeBlock(firstLineNumber: first, lines: body, exempt: exempt))
            i += 1
        }
        return blocks
    }

    /// Whether `needle` occurs in `haystack` as a contiguous run of lines.
    static func contains(_ haystack: [String], contiguous needle: [String]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    static func documents() throws -> [URL] {
        let docc = packageRoot.appendingPathComponent("Sources/GeoAnchorKit/GeoAnchorKit.docc")
        let articles = try FileManager.default.contentsOfDirectory(at: docc, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return [packageRoot.appendingPathComponent("README.md")] + articles
    }

    static func exampleLines() throws -> [String] {
        let url = packageRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Documentation/DocumentationExamples.swift")
        return try String(contentsOf: url, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(normalized)
    }

    @Test func everySwiftBlockIsInTheExamplesFile() throws {
        let examples = try Self.exampleLines()
        var checked = 0
        for doc in try Self.documents() {
            let text = try String(contentsOf: doc, encoding: .utf8)
            let name = doc.path.replacingOccurrences(of: Self.packageRoot.path + "/", with: "")
            for block in Self.swiftBlocks(in: text) where !block.exempt {
                checked += 1
                let first = block.lines.first { !$0.isEmpty } ?? "(empty block)"
                // A block must stand on its own: a truncated one (e.g. an `if` without its `}`)
                // would still match the start of a longer test body.
                let text = block.lines.joined(separator: "\n")
                for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
                    let balance = text.filter { String($0) == open }.count - text.filter { String($0) == close }.count
                    #expect(balance == 0, "\(name):\(block.firstLineNumber): the ```swift block starting with “\(block.lines.first ?? "")” has unbalanced \(open)\(close)")
                }
                let found = Self.contains(examples, contiguous: block.lines)
                #expect(found,
                        "\(name):\(block.firstLineNumber): the ```swift block starting with “\(first)” is not in DocumentationExamples.swift verbatim (copy it there into a test, or mark a package manifest with \(Self.exemptMarker))")
            }
        }
        // README (9 capability sections) and the DocC articles hold well over 20 examples: a
        // checker that finds almost none is reading the wrong files.
        #expect(checked >= 20, "only \(checked) swift blocks found under \(Self.packageRoot.path)")
    }

    /// The checker itself: a changed line, a missing line, reordered lines and an unmarked
    /// manifest are caught; the marker exempts only the block right below it.
    @Test func checkerCatchesDifferences() {
        let examples = ["func f() {", "let a = 1", "let b = a + 1", "", "print(b)", "}"]
        let markdown = """
            Text.

            ```swift
                let a = 1
            let b = a + 1
            ```

            ```swift
            let a = 1
            let b = a + 2
            ```

            <!-- not-compiled: package manifest -->

            ```swift
            dependencies: []
            ```

            ```swift
            dependencies: []
            ```

            - item
              ```swift
              let b = a + 1

              print(b)
              ```
            """
        let blocks = Self.swiftBlocks(in: markdown)
        #expect(blocks.count == 5)
        #expect(blocks.map(\.exempt) == [false, false, true, false, false])
        #expect(blocks[0].firstLineNumber == 4)
        #expect(blocks.map { Self.contains(examples, contiguous: $0.lines) } == [true, false, false, false, true])
        #expect(!Self.contains(examples, contiguous: ["let b = a + 1", "let a = 1"]))
        #expect(!Self.contains(examples, contiguous: ["let a = 1", "print(b)"]))
    }
}
