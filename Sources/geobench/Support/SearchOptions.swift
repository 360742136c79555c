import ArgumentParser
import GeoAnchorKit

/// The local-search options shared by `route` and `tsplib`.
struct SearchOptions: ParsableArguments {
    @Option(name: .customLong("time-limit"), help: "Time budget in seconds for the heuristic (default 1).")
    var timeLimit: Double = 1

    @Option(help: "Random seed of the local search (default 1).")
    var seed: UInt64 = 1

    @Option(help: "Stop the local search after this many iterations (reproducible runs; default: only the time limit).")
    var iterations: Int?

    /// The solver options, after checking the time limit and the iteration count (exit 2, naming the option).
    func solverOptions() throws -> SolverConfiguration {
        guard timeLimit.isFinite, timeLimit >= 0 else {
            throw InputError(file: "--time-limit", line: nil, message: "expected seconds ≥ 0, got \(timeLimit)")
        }
        if let iterations, !(0...SolverConfiguration.maximumIterations).contains(iterations) {
            throw InputError(file: "--iterations", line: nil,
                             message: "expected a count in 0…\(SolverConfiguration.maximumIterations), got \(iterations)")
        }
        let options = SolverConfiguration(timeLimit: timeLimit, seed: seed, maxIterations: iterations)
        try located("solver options") { try options.validate() }
        return options
    }
}
