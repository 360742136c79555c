import Foundation

/// A thread-safe pool of ``ProjTransformer``s with the same definition, for using one
/// transformation from many threads or tasks.
///
/// Each borrower gets an owner (its own `PJ_CONTEXT` + `PJ`) for the duration of a closure; no
/// two borrowers ever share one. Owners are created on demand (a borrower never waits for
/// another) and returned to a lock-protected free list afterwards, so a pool used by *k*
/// concurrent tasks holds at most *k* owners. Creating an owner costs ~0.1–10 ms, so reuse the
/// pool rather than making one per call.
///
/// ```swift
/// let pool = try ProjTransformerPool(from: "EPSG:4979", to: "EPSG:5514")
/// let p = try pool.withTransformer { try $0.transform(x: 14.39, y: 49.96, z: 300) }
/// ```
public final class ProjTransformerPool: @unchecked Sendable {
    // @unchecked: `free` is only touched under `lock`, and an owner taken from it is used by
    // exactly one borrower until it is put back, so no PROJ handle is ever used concurrently.
    private let lock = NSLock()
    private var free: [ProjTransformer] = []
    private let make: @Sendable () throws(ProjError) -> ProjTransformer

    /// The definition shared by every owner (see ``ProjTransformer/definition``).
    public let definition: String
    /// Most idle owners kept; extra ones returned beyond this are destroyed. 0 keeps none (every
    /// borrow creates an owner, ~0.1–10 ms); a negative value given to an initializer counts
    /// as 0. Large values cost nothing up front: owners are only made for concurrent borrowers.
    public let maximumIdle: Int

    /// A pool of CRS-to-CRS transformers (see ``ProjTransformer/init(from:to:)``).
    /// - Throws: ``ProjError`` if PROJ rejects a definition (checked by creating the first owner).
    public convenience init(from source: String, to target: String, maximumIdle: Int = 16) throws(ProjError) {
        try self.init(maximumIdle: maximumIdle) { () throws(ProjError) in try ProjTransformer(from: source, to: target) }
    }

    /// A pool of pipeline transformers (see ``ProjTransformer/init(pipeline:)``).
    public convenience init(pipeline: String, maximumIdle: Int = 16) throws(ProjError) {
        try self.init(maximumIdle: maximumIdle) { () throws(ProjError) in try ProjTransformer(pipeline: pipeline) }
    }

    /// A pool whose owners are made by `make` (each call must return a new owner).
    /// - Throws: what `make` throws for the first owner, made to check the definition.
    public init(maximumIdle: Int = 16, make: @escaping @Sendable () throws(ProjError) -> ProjTransformer) throws(ProjError) {
        self.make = make
        self.maximumIdle = Swift.max(0, maximumIdle)
        let first = try make()
        self.definition = first.definition
        if self.maximumIdle > 0 { free.append(first) }
    }

    /// Number of idle owners (for diagnostics and tests).
    public var idleCount: Int { lock.withLock { free.count } }

    /// Runs `body` with an owner no one else uses meanwhile, then returns it to the pool.
    ///
    /// Do not let the owner escape the closure.
    /// - Throws: what `body` throws, or ``ProjError`` if a new owner cannot be created.
    public func withTransformer<R>(_ body: (ProjTransformer) throws -> R) throws -> R {
        let owner = try checkOut()
        defer { checkIn(owner) }
        return try body(owner)
    }

    /// Transforms one coordinate with a borrowed owner (see ``ProjTransformer/transform(x:y:z:direction:)``).
    public func transform(x: Double, y: Double, z: Double = 0,
                          direction: ProjDirection = .forward) throws(ProjError) -> (x: Double, y: Double, z: Double) {
        let owner = try checkOut()
        defer { checkIn(owner) }
        return try owner.transform(x: x, y: y, z: z, direction: direction)
    }

    private func checkOut() throws(ProjError) -> ProjTransformer {
        if let owner = lock.withLock({ free.popLast() }) { return owner }
        return try make()
    }

    private func checkIn(_ owner: ProjTransformer) {
        lock.withLock {
            if free.count < maximumIdle { free.append(owner) }
        }
    }
}
