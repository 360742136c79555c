/// Stops with `check`'s error as a programmer error — for entry points that cannot throw without
/// an API break and take a value set in code (a configuration): one that comes from outside is
/// validated by the caller first, a decoded one when decoded. The message names the type, the
/// value and its range.
@inline(__always)
func requireValid(_ type: StaticString, _ check: () throws(GeoAnchorError) -> Void) {
    do { try check() } catch {
        preconditionFailure("\(type): \(error.description) (validate() a value that comes from outside first)")
    }
}

/// `check`'s error, or nil when it passes — for types that keep a configuration's error and
/// refuse every input with it (``GeoRegistration``, ``HeadingFilter``,
/// ``IncrementalMagnetometerCalibrator``) instead of stopping.
@inline(__always)
func validationError(_ check: () throws(GeoAnchorError) -> Void) -> GeoAnchorError? {
    do { try check(); return nil } catch { return error }
}
