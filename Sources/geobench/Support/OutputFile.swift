import Foundation
import GeoAnchorKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way a geobench subcommand writes its output (stdout or `--output FILE`), so that no
/// output is ever lost silently and nothing is replaced that should not be:
///
/// - every write error (full disk, closed pipe, quota) is an `InputError` naming the
///   destination and the system's reason: exit status 2 with `FILE: cannot write: …`, never
///   exit 0 after losing output, never a trap;
/// - a **regular file** (or a path that does not exist yet) is written to a temporary file in
///   the same directory and renamed over the destination by ``commit()``, so a failed run
///   leaves the old file untouched and never a partial one;
/// - a **symbolic link** is followed: its target is written (atomically, as above), the link
///   stays a link;
/// - a **non-regular file** (FIFO, character or block device such as `/dev/null`, a socket,
///   `/dev/stdout`, `/proc/self/fd/N`) is opened and written directly, never replaced.
///
/// Output is buffered (64 KiB) and written with `write(2)`.
final class OutputFile {
    /// The destination as named in messages (`<stdout>` or the path given).
    let name: String
    private var fd: Int32
    private let ownsDescriptor: Bool
    /// Regular files: (temporary path, final path, permission bits).
    private let atomic: (temp: String, final: String, mode: mode_t)?
    private var buffer: [UInt8] = []
    private var done = false

    /// Opens `path` for writing, or stdout when nil or `-`.
    init(path: String?) throws {
        guard let path, path != "-" else {
            name = "<stdout>"; fd = 1; ownsDescriptor = false; atomic = nil
            buffer.reserveCapacity(1 << 16)
            return
        }
        name = path
        let target = try Self.resolveSymlinks(path)
        var st = stat()
        if lstat(target, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG || Self.isSpecialPath(target) || Self.isSpecialPath(path) {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw InputError(file: path, line: nil, message: "cannot write: is a directory") }
            // FIFO, device, socket, /dev/stdout: write in place (a rename would replace the node).
            let d = open(target, O_WRONLY | O_CLOEXEC)
            guard d >= 0 else { throw Self.error(path, "cannot open for writing") }
            fd = d; ownsDescriptor = true; atomic = nil
        } else {
            let exists = lstat(target, &st) == 0
            let mode: mode_t
            if exists { mode = st.st_mode & 0o7777 } else {
                let mask = umask(0); umask(mask)
                mode = 0o666 & ~mask
            }
            let dir = (target as NSString).deletingLastPathComponent
            let base = (target as NSString).lastPathComponent
            var template = Array(((dir.isEmpty ? "." : dir) + "/." + base + ".XXXXXX").utf8CString)
            let d = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard d >= 0 else { throw Self.error(path, "cannot create a temporary file next to it") }
            let temp = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            fd = d; ownsDescriptor = true; atomic = (temp, target, mode)
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        // Not committed (an error was thrown on the way): drop the temporary file, keep the old one.
        if ownsDescriptor && fd >= 0 { close(fd) }
        if !done, let atomic { unlink(atomic.temp) }
    }

    /// Appends text.
    func write(_ s: String) throws {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends bytes.
    func write(_ d: Data) throws {
        buffer.append(contentsOf: d)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes the buffer out; a short or failed write is an error naming the destination.
    func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error(name, "cannot write")
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, closes and (regular files) renames the temporary file over the destination.
    /// Until this returns nothing at the destination has changed.
    func commit() throws {
        guard !done else { return }
        try flush()
        if let atomic {
            guard fsync(fd) == 0 || errno == EINVAL else { throw Self.error(name, "cannot write") }
            fchmod(fd, atomic.mode)
            let r = close(fd); fd = -1
            guard r == 0 else { throw Self.error(name, "cannot write") }
            guard rename(atomic.temp, atomic.final) == 0 else { throw Self.error(name, "cannot replace") }
        } else if ownsDescriptor {
            let r = close(fd); fd = -1
            guard r == 0 else { throw Self.error(name, "cannot write") }
        }
        done = true
    }

    /// Follows symbolic links (relative targets from the link's directory), at most 40 deep as
    /// the kernel does. A dangling link resolves to the path it names (created there).
    static func resolveSymlinks(_ path: String) throws -> String {
        var p = path
        for _ in 0..<40 {
            // /dev/stdout → /proc/self/fd/1 → "pipe:[…]": kernel objects are opened as named.
            if isSpecialPath(p) { return p }
            var st = stat()
            guard lstat(p, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return p }
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(p, &buf, buf.count - 1)
            guard n >= 0 else { throw error(path, "cannot read the symbolic link") }
            let link = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            p = link.hasPrefix("/") ? link : ((p as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        throw InputError(file: path, line: nil, message: "cannot write: too many levels of symbolic links")
    }

    /// Paths whose files are process or kernel objects (`/dev/stdout` → `/proc/self/fd/1` → the
    /// shell's redirection target): written in place even when they resolve to a regular file.
    private static func isSpecialPath(_ p: String) -> Bool { p.hasPrefix("/dev/") || p.hasPrefix("/proc/") }

    private static func error(_ path: String, _ what: String) -> InputError {
        InputError(file: path, line: nil, message: "\(what): \(String(cString: strerror(errno)))")
    }
}

extension OutputFile {
    /// Writes `text` to `path` (stdout when nil or `-`) and commits: the whole output of a
    /// subcommand that builds it in memory (JSON reports, tables).
    static func write(_ text: String, to path: String? = nil) throws {
        let out = try OutputFile(path: path)
        try out.write(text)
        try out.commit()
    }
}

/// Trace output (convert, filter, simulate) through ``OutputFile``.
enum TraceOutput {
    /// Opens `path`, lets `body` write fixes/samples, finishes the document and commits the file.
    /// Nothing at `path` changes unless everything was written; reader-side rules apply to every
    /// fix (``TraceWriter`` refuses what the readers would reject).
    static func write(to path: String, format: TraceFormat, _ body: (TraceWriter) throws -> Void) throws {
        let out = try OutputFile(path: path)
        let writer = TraceWriter(format: format, name: path) { try out.write($0) }
        try body(writer)
        try writer.finish()
        try out.commit()
    }
}

/// The safety net for text printed with `print` (reports, tables): stdio buffers stdout and
/// `exit` flushes it without looking at the result, so a full disk or a closed file would end
/// with status 0 and the output lost. ``install()`` registers an exit handler that flushes
/// stdout itself and turns a failure into a message on stderr and exit status 2.
enum StdoutCheck {
    static func install() {
        atexit {
            if fflush(nil) != 0 { // all streams: stdout is the only buffered one we write
                let msg = "<stdout>: cannot write: \(String(cString: strerror(errno)))\n"
                _ = msg.withCString { Foundation.write(2, $0, strlen($0)) }
                _exit(2)
            }
        }
    }
}
