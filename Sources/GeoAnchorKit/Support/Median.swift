extension Collection where Element == Double {
    /// The median: the middle value, or the mean of the two middle values for an even count
    /// (NaN-free input expected; sorts a copy, O(n log n)).
    /// - Precondition: not empty (a programmer error: callers check their count).
    func median() -> Double {
        precondition(!isEmpty, "median of an empty collection")
        let s = sorted()
        let m = s.count / 2
        return s.count % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2
    }
}
