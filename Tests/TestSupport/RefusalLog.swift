import Foundation
import GeoAnchorKit

/// Collects the refusals a streaming component passes to its `onRefusal` handler (thread-safe,
/// so the handler can be `@Sendable`).
public final class RefusalLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [InputRefusal] = []

    public init() {}

    public func append(_ r: InputRefusal) {
        lock.lock(); defer { lock.unlock() }
        storage.append(r)
    }

    public var items: [InputRefusal] {
        lock.lock(); defer { lock.unlock() }
        return storage
    }
}
