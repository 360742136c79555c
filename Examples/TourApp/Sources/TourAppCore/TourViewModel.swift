import Foundation
import GeoAnchorKit

/// The UI's view of the tour, on the main actor: what a SwiftUI view would observe.
@MainActor
public final class TourViewModel {
    public private(set) var visited: [String] = []
    public private(set) var nextStop: String?
    public private(set) var distanceToNextStop: Double?
    public private(set) var message = "Starting…"
    public private(set) var placedModels = 0
    private let engine: TourEngine

    public init(engine: TourEngine) { self.engine = engine }

    /// Feeds one location (e.g. from a `CLLocationManager` delegate) and updates the state.
    public func handle(_ fix: Fix) async {
        do {
            let update = try await engine.locationUpdate(fix)
            for e in update.events where e.kind == .enter && e.feature == .stop {
                visited.append(e.id)
                message = "Arrived at \(e.id)"
            }
            nextStop = update.guidance?.nextStopID
            distanceToNextStop = update.guidance?.distanceToNextStop
            placedModels = update.placements.values.filter { if case .success = $0 { true } else { false } }.count
        } catch {
            // Every GeoAnchorKit error reads well as localizedDescription.
            message = error.localizedDescription
        }
    }
}
