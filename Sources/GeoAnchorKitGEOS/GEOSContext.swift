import CGEOS
import Foundation
import GeoAnchorKit

/// The owner of one GEOS reentrant context (`GEOSContextHandle_t`).
///
/// Everything GEOS makes is made through a context; this class creates it with `GEOS_init_r`,
/// installs error and notice handlers that append GEOS's messages to this owner (through the
/// handlers' user-data pointer, so two contexts never see each other's messages), and calls
/// `GEOS_finish_r` in `deinit`. Geometries (``OwnedGeometry``) and prepared geometries
/// (``PreparedGeometry``) keep their context alive, so the context is always finished last.
///
/// **Threads.** A GEOS context must not be used from two threads at once, so this class is not
/// `Sendable`: make one per thread or task (creation allocates the context and its handlers; do not make one per call in
/// a loop). Geometries are bound to the context that made them.
///
/// **Errors.** Every wrapper clears the message log, calls GEOS, checks the C return convention
/// documented at the call site and, on failure, throws ``GEOSError/operationFailed(function:message:)``
/// with the message GEOS reported during that call.
public final class GEOSContext {
    /// The C handle. Valid for the lifetime of `self`.
    let handle: GEOSContextHandle_t
    /// Messages collected by the C handlers; outlives `handle` (stored properties are released
    /// after `deinit` has run `GEOS_finish_r`).
    private let log: MessageLog

    /// Creates a context with its own message handlers.
    /// - Throws: ``GEOSError/contextCreationFailed`` if GEOS cannot allocate one.
    public init() throws(GEOSError) {
        // GEOS_init_r: returns a new handle, or NULL on allocation failure.
        guard let h = GEOS_init_r() else { throw .contextCreationFailed }
        handle = h
        log = MessageLog()
        let user = Unmanaged.passUnretained(log).toOpaque()
        // Both setters return the previous handler (NULL here); nothing to check.
        _ = GEOSContext_setErrorMessageHandler_r(handle, { message, user in
            guard let user else { return }
            let log = Unmanaged<MessageLog>.fromOpaque(user).takeUnretainedValue()
            log.errors.append(message.map { String(cString: $0) } ?? "")
        }, user)
        _ = GEOSContext_setNoticeMessageHandler_r(handle, { message, user in
            guard let user else { return }
            let log = Unmanaged<MessageLog>.fromOpaque(user).takeUnretainedValue()
            log.notices.append(message.map { String(cString: $0) } ?? "")
        }, user)
    }

    deinit {
        // Frees the handle; all geometries made with it were destroyed before (they retain self).
        GEOS_finish_r(handle)
    }

    /// The GEOS library version, e.g. `"3.11.1-CAPI-1.17.1"`.
    public static var version: String { String(cString: GEOSversion()) }

    /// Notices (non-fatal messages) GEOS sent since the last call that cleared the log, e.g. the
    /// reason `GEOSisValid_r` found a geometry invalid.
    public var notices: [String] { log.notices }

    // MARK: error plumbing (internal)

    /// Clears the message log before a GEOS call.
    @inline(__always)
    func clearMessages() {
        if !log.errors.isEmpty { log.errors.removeAll(keepingCapacity: true) }
        if !log.notices.isEmpty { log.notices.removeAll(keepingCapacity: true) }
    }

    /// The error for a call that signalled failure, with GEOS's last message.
    func failure(_ function: String) -> GEOSError {
        .operationFailed(function: function, message: log.errors.last ?? "")
    }

    /// Runs a GEOS call returning an owned geometry pointer: NULL means exception.
    func make(_ function: String, _ body: () -> OpaquePointer?) throws(GEOSError) -> OwnedGeometry {
        clearMessages()
        guard let g = body() else { throw failure(function) }
        return OwnedGeometry(context: self, pointer: g)
    }

    /// Runs a GEOS `char` predicate: 1 true, 0 false, 2 exception.
    func predicate(_ function: String, _ body: () -> CChar) throws(GEOSError) -> Bool {
        clearMessages()
        switch body() {
        case 1: return true
        case 0: return false
        default: throw failure(function)
        }
    }

    /// Runs a GEOS `int` status call: 1 success (0 means exception). Returns nothing.
    func status(_ function: String, _ body: () -> Int32) throws(GEOSError) {
        clearMessages()
        guard body() == 1 else { throw failure(function) }
    }
}

/// Where the C message handlers put GEOS's messages (one per context).
private final class MessageLog {
    var errors: [String] = []
    var notices: [String] = []
}

/// Not Sendable: a GEOS context must be used by one thread at a time (see ``GEOSContext``).
@available(*, unavailable)
extension GEOSContext: Sendable {}
