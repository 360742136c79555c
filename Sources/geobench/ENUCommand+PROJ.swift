import Foundation

// PLACEHOLDER until the PROJ bindings land (issue 2): replaced by the GeoAnchorKitPROJ engine.
extension ENUCommand {
    func runPROJ(origin: (Double, Double, Double), inverse: Bool, _ a: [Double], _ b: [Double], _ c: [Double],
                 _ o1: inout [Double], _ o2: inout [Double], _ o3: inout [Double]) throws {
        throw InputError(file: "--engine", line: nil, message: "the proj engine is not available yet")
    }
}
