import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC catalogues must be compiled: its lines must
/// appear, in order and contiguous (after trimming whitespace at both ends of each line), in the
/// catalogue's examples file (``catalogues``: README.md and GeoAnchorKit.docc in
/// GeoAnchorKitTests' `DocumentationExamples.swift`, GeoAnchorKitPROJ.docc in
/// GeoAnchorKitPROJTests' `DocumentationExamples.swift`), where each example runs inside a test,
/// and its brackets must
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

    /// Which documents' blocks must be in which examples file (paths from the package root), and
    /// how many blocks at least the documents hold (a checker that finds almost none is reading
    /// the wrong files).
    struct Catalogue: Sendable, CustomStringConvertible {
        var readme: Bool           // README.md too
        var docc: String           // a .docc folder: its *.md articles
        var examples: String       // the Swift file holding the blocks verbatim
        var minimumBlocks: Int
        var description: String { docc }
    }

    static let catalogues = [
        // README (9 capability sections) and the DocC articles hold well over 20 examples.
        Catalogue(readme: true, docc: "Sources/GeoAnchorKit/GeoAnchorKit.docc",
                  examples: "Tests/GeoAnchorKitTests/Documentation/DocumentationExamples.swift", minimumBlocks: 20),
        Catalogue(readme: false, docc: "Sources/GeoAnchorKitPROJ/GeoAnchorKitPROJ.docc",
                  examples: "Tests/GeoAnchorKitPROJTests/DocumentationExamples.swift", minimumBlocks: 5),
    ]

    static func documents(_ catalogue: Catalogue) throws -> [URL] {
        let docc = packageRoot.appendingPathComponent(catalogue.docc)
        let articles = try FileManager.default.contentsOfDirectory(at: docc, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return (catalogue.readme ? [packageRoot.appendingPathComponent("README.md")] : []) + articles
    }

    static func exampleLines(_ catalogue: Catalogue) throws -> [String] {
        let url = packageRoot.appendingPathComponent(catalogue.examples)
        return try String(contentsOf: url, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(normalized)
    }

    /// The messages for every block of `documents` that is unbalanced or not in `examples`, and
    /// the number of blocks checked.
    static func problems(documents: [(name: String, text: String)], examples: [String], examplesName: String) -> (messages: [String], checked: Int) {
        var messages: [String] = []
        var checked = 0
        for (name, text) in documents {
            for block in swiftBlocks(in: text) where !block.exempt {
                checked += 1
                let first = block.lines.first { !$0.isEmpty } ?? "(empty block)"
                // A block must stand on its own: a truncated one (e.g. an `if` without its `}`)
                // would still match the start of a longer test body.
                let body = block.lines.joined(separator: "\n")
                for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
                    let balance = body.filter { String($0) == open }.count - body.filter { String($0) == close }.count
                    if balance != 0 {
                        messages.append("\(name):\(block.firstLineNumber): the ```swift block starting with “\(block.lines.first ?? "")” has unbalanced \(open)\(close)")
                    }
                }
                if !contains(examples, contiguous: block.lines) {
                    messages.append("\(name):\(block.firstLineNumber): the ```swift block starting with “\(first)” is not in \(examplesName) verbatim (copy it there into a test, or mark a package manifest with \(exemptMarker))")
                }
            }
        }
        return (messages, checked)
    }

    @Test(arguments: catalogues) func everySwiftBlockIsInTheExamplesFile(_ catalogue: Catalogue) throws {
        let examples = try Self.exampleLines(catalogue)
        let documents = try Self.documents(catalogue).map { doc in
            (name: doc.path.replacingOccurrences(of: Self.packageRoot.path + "/", with: ""),
             text: try String(contentsOf: doc, encoding: .utf8))
        }
        let (messages, checked) = Self.problems(documents: documents, examples: examples, examplesName: catalogue.examples)
        for m in messages { Issue.record(Comment(rawValue: m)) }
        #expect(checked >= catalogue.minimumBlocks, "only \(checked) swift blocks found in \(catalogue.docc)")
    }

    /// The PROJ catalogue is checked against the PROJ examples file, not the core's: its
    /// blocks, all found in their own file, are reported (naming that file) when checked against
    /// the core's file, which holds none of them.
    @Test func eachCatalogueHasItsOwnExamplesFile() throws {
        let proj = try #require(Self.catalogues.first { $0.docc.hasSuffix("GeoAnchorKitPROJ.docc") })
        let core = try #require(Self.catalogues.first { $0.readme })
        let documents = try Self.documents(proj).map { (name: $0.lastPathComponent, text: try String(contentsOf: $0, encoding: .utf8)) }
        let own = Self.problems(documents: documents, examples: try Self.exampleLines(proj), examplesName: proj.examples)
        #expect(own.messages.isEmpty && own.checked >= proj.minimumBlocks)
        let elsewhere = Self.problems(documents: documents, examples: try Self.exampleLines(core), examplesName: proj.examples)
        #expect(elsewhere.messages.count == own.checked && elsewhere.messages.allSatisfy { $0.contains(proj.examples) },
                "\(elsewhere.messages)")
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
