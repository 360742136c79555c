import ArgumentParser
import Foundation
import GeoAnchorKit

struct TSPLIBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tsplib",
        abstract: "Solve a TSPLIB instance (closed tour) with the instance's own distance function.",
        discussion: """
        Reads a symmetric TSPLIB 95 .tsp file (EDGE_WEIGHT_TYPE GEO, EUC_2D, CEIL_2D, ATT or \
        EXPLICIT) and finds a short closed tour: exact (Held–Karp) up to 17 nodes, else iterated \
        local search within --time-limit. GEO uses TSPLIB's DDD.MM coordinates, PI = 3.141592, \
        RRR = 6378.388 and integer truncation, so lengths compare with published optima.

        Output without --json: name, dimension, length, time and the tour. With --json one object \
        with keys: name (string), dimension (integer), length (integer, the instance's units), \
        tour (array of 1-based node ids, starting at node 1, each node once), time_s (seconds).
        """
    )

    @Argument(help: "TSPLIB .tsp file.")
    var file: String

    @OptionGroup var search: SearchOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try withInputErrors {
            let solverOptions = try search.solverOptions()
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw InputError(file: file, line: nil, message: "cannot read file")
            }
            let instance: TSPLIBInstance
            instance = try located(file) { try TSPLIBInstance.parse(text, source: file) }
            let clock = ContinuousClock()
            let t0 = clock.now
            let matrix = instance.costMatrix()
            let solution: VisitOrder
            solution = try located(file) {
                try VisitOrderSolver.solve(cost: matrix, start: 0, end: .roundTrip, options: solverOptions)
            }
            let elapsed = clock.now - t0
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let length = instance.tourLength(solution.order)
            let tour = solution.order.map { $0 + 1 }
            if json {
                let name = instance.name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                print("{\"name\":\"\(name)\",\"dimension\":\(instance.dimension),\"length\":\(length),"
                    + "\"tour\":[\(tour.map(String.init).joined(separator: ","))],\"time_s\":\(String(format: "%.4f", seconds))}")
            } else {
                print("name       \(instance.name)")
                print("dimension  \(instance.dimension)")
                print("length     \(length)\(solution.isProvenOptimal ? " (optimal)" : "")")
                print(String(format: "time       %.3f s", seconds))
                print("solver     \(solution.solver.rawValue), \(solution.iterations) iterations")
                print("tour       \(tour.map(String.init).joined(separator: " "))")
            }
        }
    }
}
