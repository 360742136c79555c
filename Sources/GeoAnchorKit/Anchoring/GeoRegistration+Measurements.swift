import Foundation

extension GeoRegistration {
    // MARK: - GNSS

    /// Feeds one GNSS fix (time order within the fixes). Its σ comes from its horizontal accuracy
    /// (68 % radius), else from its HDOP (× ``GeoRegistrationConfiguration/userEquivalentRangeError``
    /// / √2), else it is ``GeoRegistrationConfiguration/unreportedFixSigma`` (GPX tracks report
    /// neither); the last two are counted in ``GeoRegistrationSummary/fixesWithoutAccuracy``. A
    /// fix with no σ at all (`unreportedFixSigma` nil), or before the first tracking sample, is
    /// counted (``GeoRegistrationSummary``) but not used; so is a fix whose σ is beyond
    /// ``Fix/maximumUsableHorizontalAccuracy`` (counted gated).
    /// - Throws: range errors for invalid coordinates or a non-finite time.
    public mutating func update(fix: Fix) throws(GeoAnchorError) {
        try checkConfiguration()
        try checkTime(fix.time, name: "fix time")
        try GeodeticCoordinate(latitude: fix.latitude, longitude: fix.longitude).validate()
        checkClock(fix.time)
        let c = configuration, n = dimension
        let reported: Double, statesAccuracy: Bool
        if let acc = fix.horizontalAccuracy, acc.isFinite, acc > 0 {
            reported = acc / CircularError.radius68PerSigma; statesAccuracy = true
        } else if let h = fix.hdopHorizontalSigma(userEquivalentRangeError: c.userEquivalentRangeError) {
            reported = h; statesAccuracy = false
        } else if let d = c.unreportedFixSigma, d.isFinite, d > 0 {
            reported = d; statesAccuracy = false
        } else {
            summary.fixesGated += 1; return
        }
        guard reported * CircularError.radius68PerSigma <= Fix.maximumUsableHorizontalAccuracy else { summary.fixesGated += 1; return }
        guard lastSample != nil else { summary.fixesBeforeTracking += 1; return }
        if !statesAccuracy { summary.fixesWithoutAccuracy += 1 }
        let floored = Swift.max(reported, c.minimumFixSigma)
        let sigma = Swift.max(floored * fixVarianceScale.squareRoot(), c.minimumFixSigma)
        lastGnssSigma = sigma
        // As reported (widened by the accuracy check, not narrowed): the reported accuracy's floor.
        lastStatedSigma = floored * Swift.max(1, fixVarianceScale).squareRoot()
        let h0 = Self.usableHeight(fix.ellipsoidalHeight)
        if reference == nil { try start(at: fix, sigma: sigma) }
        guard let ref = reference else { return }
        propagate(to: fix.time)
        // The slow error's variance follows the reported accuracy (e.g. entering a canyon):
        // raised at each fix to its stationary level. This also forgets what the walk had
        // learnt about the slow error, and keeps it: measured (48 walks × 9 map tables,
        // heading / position targets met), replacing the floor by "add the rise of a 10 s
        // running σ level's stationary variance" gave 317 / 347 against 342 / 368 (the
        // receiver's true model, one τ 90 s, then gains — 322 / 373 — but the default loses):
        // the floor is what keeps a canyon's regime change (error × 3 at its entry and exit)
        // from being taken as motion and turning the walked track.
        let (short, long) = c.gnssCorrelatedSigmas(sigma)
        for i in Self.iBE...Self.iBN where p[i * n + i] < short * short { p[i * n + i] = short * short }
        for i in Self.iLE...Self.iLN where p[i * n + i] < long * long { p[i * n + i] = long * long }
        let white2 = sigma * sigma * Swift.max(0.05, 1 - c.gnssCorrelatedFraction * c.gnssCorrelatedFraction)
        let z = ref.enu(latitude: fix.latitude, longitude: fix.longitude, ellipsoidalHeight: h0 ?? ref.origin.height)
        // A fix observes position + the GNSS error's short and long parts.
        var nuE = z.east - x[Self.iE] - x[Self.iBE] - x[Self.iLE], nuN = z.north - x[Self.iN] - x[Self.iBN] - x[Self.iLN]
        let hE = Row(Self.iE, 1, Self.iBE, 1, Self.iLE, 1), hN = Row(Self.iN, 1, Self.iBN, 1, Self.iLN, 1)
        var s11 = innovationVariance(hE, white2), s22 = innovationVariance(hN, white2)
        var s12 = covariance(hE, hN)
        var d2 = Self.normalizedSquare(nuE, nuN, s11, s22, s12)
        if checkTrackingDivergence(fix, innovation: d2) {
            // The position was moved back and widened: this fix is judged against that.
            nuE = z.east - x[Self.iE] - x[Self.iBE] - x[Self.iLE]; nuN = z.north - x[Self.iN] - x[Self.iBN] - x[Self.iLN]
            s11 = innovationVariance(hE, white2); s22 = innovationVariance(hN, white2); s12 = covariance(hE, hN)
            d2 = Self.normalizedSquare(nuE, nuN, s11, s22, s12)
        }
        if d2 > c.fixGate, headingKnown, updateCourse(fix, use: false) {
            // The courses re-initialized the heading: the position, walked along the wrong one,
            // is as uncertain as this fix's disagreement.
            consecutiveRejections = 0
            let disagreement = nuE * nuE + nuN * nuN
            addVariance(Self.iE, disagreement); addVariance(Self.iN, disagreement)
        } else if d2 > c.fixGate {
            consecutiveRejections += 1
            // A fix rejected while the accuracies are narrowed ends the narrowing: an excursion
            // of a correlated error (which the check cannot tell from a pessimistic σ) is then
            // judged at the reported σ, not cut off fix after fix into a false tracking jump.
            if fixVarianceScale < 1 { relaxNarrowing() }
            guard consecutiveRejections >= c.consecutiveRejectionsForJump else { summary.fixesGated += 1; return }
            // Many fixes in a row disagree: the tracked position jumped (or drifted away).
            consecutiveRejections = 0
            summary.trackingJumps += 1
            events.append(.trackingJump(time: fix.time, meters: (nuE * nuE + nuN * nuN).squareRoot(), detectedByGNSS: true))
            // Widen the position by the disagreement (not a snap to this fix, which may itself be
            // in an excursion) and let this fix and the next ones pull it across.
            let disagreement = nuE * nuE + nuN * nuN
            addVariance(Self.iE, disagreement); addVariance(Self.iN, disagreement)
            addVariance(Self.iPsi, (3 * Angle.radiansPerDegree) * (3 * Angle.radiansPerDegree))
            alignment.removeAll()
        } else {
            consecutiveRejections = 0
            checkFixAccuracy(d2, time: fix.time)
        }
        summary.fixesUsed += 1
        scalarUpdate(hE, innovation: nuE, variance: white2)
        let nuN2 = z.north - x[Self.iN] - x[Self.iBN] - x[Self.iLN]
        scalarUpdate(hN, innovation: nuN2, variance: white2)
        if h0 != nil {
            let sv = (fix.verticalAccuracy.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 1.7 * sigma * CircularError.halfWidth68PerSigma)
                / CircularError.halfWidth68PerSigma
            let hU = Row(Self.iU, 1, Self.iBU, 1)
            let rv = sv * sv * Swift.max(0.05, 1 - c.gnssCorrelatedFraction * c.gnssCorrelatedFraction)
            let nuU = z.up - x[Self.iU] - x[Self.iBU]
            if nuU * nuU <= 16 * innovationVariance(hU, rv) { scalarUpdate(hU, innovation: nuU, variance: rv) }
        }
        if headingKnown { updateCourse(fix) } else { acquireFromCourses(fix) }
        if headingKnown { applyPath(fix: SIMD2(z.east, z.north), sigma: sigma, fixAccepted: d2 <= c.fixGate, time: fix.time) }
        if ground != nil { applyGround(time: fix.time) }
        if !headingFromTrack, let s = lastSample {
            let q = Self.nominal(s.position, convention)
            alignment.append((SIMD2(q.x, q.y), SIMD2(z.east, z.north), fix.time))
            if alignment.count > 600 { alignment.removeFirst(300) }
            alignFromTrack(time: fix.time, sigma: sigma)
        }
        checkTrackingQuality(time: fix.time)
        checkSnap(time: fix.time)
    }

    /// The tracked direction of motion (degrees, session nominal axes) over the last
    /// ``GeoRegistrationConfiguration/courseWindow``, when the fix has a course and both it and
    /// the tracking move at least ``GeoRegistrationConfiguration/courseMinimumSpeed``.
    func trackedCourse(for fix: Fix) -> (course: Double, speed: Double, tracked: Double)? {
        let c = configuration
        // Not while the tracking is interrupted (its last direction is no longer the device's).
        guard let course = fix.course, course.isFinite, let v = fix.speed, v.isFinite, v >= c.courseMinimumSpeed,
              let last = recent.last, c.courseSigma > 0, !isTrackingStale(at: fix.time) else { return nil }
        // The tracked position ≈ 1 s before the latest sample.
        var i = recent.count - 1
        while i > 0 && last.time - recent[i].time < c.courseWindow { i -= 1 }
        let w = last.time - recent[i].time
        guard w >= 0.5 * c.courseWindow else { return nil }
        let d = last.xy - recent[i].xy
        guard (d * d).sum().squareRoot() / w >= c.courseMinimumSpeed else { return nil }
        return (course, v, Angle.atan2Degrees(d.x, d.y))
    }

    /// While the heading is unknown (no compass reading yet, or re-learnt after an interruption:
    /// ``GeoRegistrationEvent/trackingInterrupted(time:seconds:headingLost:)``), the fixes'
    /// courses against the tracked direction initialize it once ``courseAcquisitionCount`` of
    /// them within ``courseAcquisitionTime`` agree (mean resultant length ≥
    /// ``courseAcquisitionAgreement``) — a few seconds of walking instead of the
    /// ``GeoRegistrationConfiguration/alignmentSpan`` the track needs; the track still checks it
    /// once it spans that (as it checks a compass-initialized heading).
    mutating func acquireFromCourses(_ fix: Fix) {
        guard reference != nil, let m = trackedCourse(for: fix),
              let (mean, sigma) = courseConsensus(adding: Angle.difference(from: m.tracked, to: m.course), at: fix.time) else { return }
        let n = dimension, rad = Angle.radiansPerDegree
        headingKnown = true
        headingFromCompassOnly = false
        x[Self.iPsi] = mean * rad
        p[Self.iPsi * n + Self.iPsi] = (sigma * rad) * (sigma * rad)
        events.append(.headingInitialized(time: fix.time, heading: Angle.normalizeHeading(mean), sigma: sigma))
        lag = .zero; lagPsi = 0
    }

    /// Adds a course offset (course − tracked direction, degrees) to ``courseSeeds`` and returns
    /// their circular mean and σ once ``courseAcquisitionCount`` of them within
    /// ``courseAcquisitionTime`` agree (mean resultant length ≥ ``courseAcquisitionAgreement``);
    /// the seeds are then cleared.
    mutating func courseConsensus(adding offset: Double, at time: Double) -> (mean: Double, sigma: Double)? {
        courseSeeds.append((time, offset))
        courseSeeds.removeAll { time - $0.time > Self.courseAcquisitionTime }
        guard courseSeeds.count >= Self.courseAcquisitionCount else { return nil }
        var sum = SIMD2<Double>(0, 0)
        for s in courseSeeds { let (sn, cs) = Angle.sincos(degrees: s.offset); sum += SIMD2(sn, cs) }
        let r = (sum * sum).sum().squareRoot() / Double(courseSeeds.count)
        guard r >= Self.courseAcquisitionAgreement else { return nil }
        // Circular standard deviation of one offset, over √count, and never below a course's σ.
        let spread = (-2 * Foundation.log(r)).squareRoot() * Angle.degreesPerRadian / Double(courseSeeds.count).squareRoot()
        defer { courseSeeds.removeAll() }
        return (Angle.atan2Degrees(sum.x, sum.y), Swift.max(configuration.courseSigma, spread))
    }

    /// Courses gated against a known heading, in a row, that agree with each other: the heading
    /// is wrong (started by a compass reading in a disturbance, say), not they — at a vehicle's
    /// speed the fixes are then rejected faster than the track can check it (GSDC 2020 drive
    /// after a 30 s pause: the heading started 48° off from the compass and stayed so, σ 8–11°,
    /// thirteen GNSS "jumps" in two minutes). Re-initializes the heading from them when their
    /// consensus is more than 3σ from it; returns whether it did.
    mutating func reinitializeFromCourses(offset: Double, time: Double) -> Bool {
        guard let (mean, sigma) = courseConsensus(adding: offset, at: time) else { return false }
        let n = dimension, rad = Angle.radiansPerDegree
        let diff = Angle.difference(from: x[Self.iPsi] * Angle.degreesPerRadian, to: mean)
        let current = p[Self.iPsi * n + Self.iPsi].squareRoot() * Angle.degreesPerRadian
        guard Swift.abs(diff) > 3 * (current * current + sigma * sigma).squareRoot() else { return false }
        setHeading(mean * rad, sigma: sigma * rad)
        headingFromCompassOnly = false
        summary.headingReinitializations += 1
        events.append(.headingReinitialized(time: time, degrees: diff))
        return true
    }

    /// Course re-acquisition (``acquireFromCourses(_:)``): how many courses, within how many
    /// seconds, agreeing how well (mean resultant length; 0.95 ≈ 18° circular spread).
    static let courseAcquisitionCount = 5
    static let courseAcquisitionTime = 10.0
    static let courseAcquisitionAgreement = 0.95

    /// The fix's course over ground (Doppler on phones: free of the slow position error) against
    /// the tracked direction of motion over the last ≈ 1 s: observes ψ directly.
    /// `use` false (a fix whose position was rejected): the course is only checked against the
    /// heading. Returns whether gated courses re-initialized it (``reinitializeFromCourses(offset:time:)``).
    @discardableResult
    mutating func updateCourse(_ fix: Fix, use: Bool = true) -> Bool {
        let c = configuration
        guard let (course, v, tracked) = trackedCourse(for: fix) else { return false }
        let rad = Angle.radiansPerDegree
        let nu = Angle.difference(from: tracked + x[Self.iPsi] * Angle.degreesPerRadian, to: course) * rad
        // Slower walking and worse reception (a larger reported accuracy, e.g. in a canyon) make
        // the course noisier.
        let reception = Swift.max(1, (fix.horizontalAccuracy ?? 0) / c.courseReferenceAccuracy)
        let sigma = c.courseSigma * Swift.max(1, c.courseReferenceSpeed / v) * reception * rad
        let h = Row(Self.iPsi, 1)
        guard nu * nu <= 9 * innovationVariance(h, sigma * sigma) else {
            if use { summary.coursesGated += 1 }
            return reinitializeFromCourses(offset: Angle.difference(from: tracked, to: course), time: fix.time)
        }
        courseSeeds.removeAll()
        guard use else { return false }
        headingFromCompassOnly = false
        summary.coursesUsed += 1
        scalarUpdate(h, innovation: nu, variance: sigma * sigma)
        return false
    }

    /// Map aiding (``path``): after each fix, "the device is on the line of the path segment it
    /// walks along, ± ``PathConstraint/crossTrackSigma``", a scalar observation of the position
    /// across that line (see ``PathConstraint`` for the leg choice and the corridor outside which
    /// the walker has left the path). The walker's offset from the drawn line persists (one side
    /// of a street, a square crossed diagonally), so constraints closer together than
    /// ``GeoRegistrationConfiguration/pathCorrelationTime`` count as one (variance × that time /
    /// their spacing). A turned path then observes the heading: the tracked walk must be turned
    /// to lie along it. The map check averages the fixes' cross-track residuals over
    /// ``GeoRegistrationConfiguration/pathCheckTime``: their mean offset m widens the constraint
    /// (variance crossTrackSigma² + m² − (slow σ of the fix)², not below crossTrackSigma², so a
    /// line drawn a few meters off loosens itself while a canyon's pull, which the fix's larger
    /// reported σ covers, does not), and beyond ``GeoRegistrationConfiguration/pathCheckSigmas``
    /// × √(σ_fix² + crossTrackSigma²) the path is released until m falls below half that.
    mutating func applyPath(fix z: SIMD2<Double>, sigma: Double, fixAccepted: Bool, time: Double) {
        guard let path, let localPath else { return }
        let c = configuration
        // The leg is chosen by the direction of motion: the tracked velocity turned by ψ.
        var velocity = PlanarPoint(x: 0, y: 0)
        if let v = stepVelocity {
            let turned = Self.turned(v, by: x[Self.iPsi]).step
            velocity = PlanarPoint(x: turned.x, y: turned.y)
        }
        guard let line = localPath.corridorLine(estimate: PlanarPoint(x: x[Self.iE], y: x[Self.iN]),
                                                fix: fixAccepted ? PlanarPoint(x: z.x, y: z.y) : nil, fixSigma: sigma,
                                                velocity: velocity, constraint: path) else {
            summary.pathSkipped += 1; return
        }
        let normal = line.normal
        if fixAccepted {
            // The map check: the fix's cross-track residual (as a vector, so legs of different
            // directions add up to the path's displacement), averaged over pathCheckTime.
            let off = normal.x * (z.x - line.point.x) + normal.y * (z.y - line.point.y)
            let gap = lastPathFixTime.isFinite ? Swift.max(0, time - lastPathFixTime) : 0
            lastPathFixTime = time
            pathResidualMean += Swift.min(1, gap / c.pathCheckTime) * (SIMD2(normal.x * off, normal.y * off) - pathResidualMean)
            let limit = c.pathCheckSigmas * (sigma * sigma + path.crossTrackSigma * path.crossTrackSigma + path.mapSigma * path.mapSigma).squareRoot()
            let m = (pathResidualMean * pathResidualMean).sum().squareRoot()
            if m > limit && !pathReleased { pathReleased = true; summary.pathReleases += 1 }
            else if m < 0.5 * limit { pathReleased = false }
        }
        guard !pathReleased else { summary.pathSkipped += 1; return }
        var h = Row(Self.iE, normal.x, Self.iN, normal.y)
        var nu = normal.x * (line.point.x - x[Self.iE]) + normal.y * (line.point.y - x[Self.iN])
        let map2 = path.mapSigma * path.mapSigma
        // A map stated absurdly uncertain (its variance overflows) informs nothing.
        guard map2.isFinite else { summary.pathSkipped += 1; return }
        if map2 > 0 && dimension > Self.iM {
            // The drawn segment's error against the real path: offset o at its middle plus turn β
            // times the distance along it from the middle (a state pair per segment, so the steps
            // along one segment share it — see mapSlots).
            let k = mapSlot(for: line, variance: map2, time: time)
            let along = normal.y * (x[Self.iE] - line.point.x) - normal.x * (x[Self.iN] - line.point.y) - 0.5 * line.length
            let iO = Self.iM + 2 * k
            h = Row(Self.iE, normal.x, Self.iN, normal.y, iO, 1, iO + 1, along)
            nu -= x[iO] + along * x[iO + 1]
        }
        // The path is no more certain than the fixes' mean offset from it, beyond what their own
        // slow error and the map's (its own states) explain: a line drawn a few meters off (or a
        // walk along one side of a wide street) loosens its own constraint, a canyon's multipath
        // pull (with its larger reported σ) does not.
        let slow = c.gnssCorrelatedFraction * sigma
        let r = path.crossTrackSigma * path.crossTrackSigma + Swift.max(0, (pathResidualMean * pathResidualMean).sum() - slow * slow - map2)
        guard nu * nu <= c.pathGate * innovationVariance(h, r) else { summary.pathSkipped += 1; return }
        let gap = time - lastPathTime
        let inflate = Self.correlationInflation(gap: gap, correlationTime: c.pathCorrelationTime)
        guard scalarUpdate(h, innovation: nu, variance: r * inflate) else { summary.pathSkipped += 1; return }
        lastPathTime = time
        summary.pathUpdates += 1
    }

    /// The map slot holding `leg`'s drawing error: its own if a slot has it, else the least
    /// recently used slot, started afresh at the prior of two vertices off by σ² = `variance`
    /// per axis: offset at the middle σ²/2, turn 2σ²/L² (L the segment's length).
    mutating func mapSlot(for leg: LocalPath.Leg, variance: Double, time: Double) -> Int {
        let k: Int
        if mapSlots[0] == leg.segment { k = 0 }
        else if mapSlots[1] == leg.segment { k = 1 }
        else {
            k = mapSlotTimes[0] <= mapSlotTimes[1] ? 0 : 1
            clearMapSlot(k)
            mapSlots[k] = leg.segment
            let iO = Self.iM + 2 * k, n = dimension
            p[iO * n + iO] = 0.5 * variance
            p[(iO + 1) * n + iO + 1] = 2 * variance / Swift.max(1, leg.length * leg.length)
        }
        mapSlotTimes[k] = time
        return k
    }

    /// Ground aiding (``ground``): the height observed as the terrain's + the carrying height at
    /// the estimated horizontal position. Only the height is observed: coupling the terrain's
    /// slope into the horizontal position passed DEM errors to the heading (heading target 30 →
    /// 25–29 of 48 walks with a 1 m DEM error; vertical no better).
    mutating func applyGround(time: Double) {
        guard let g = ground, let ref = reference else { return }
        let p = ref.geodetic(east: x[Self.iE], north: x[Self.iN], up: x[Self.iU])
        let anchor = GeoAnchor(id: "ground", latitude: p.latitude, longitude: p.longitude, altitude: .aboveTerrain(g.deviceHeight))
        guard let height = try? g.environment.ellipsoidalHeight(of: anchor, floorEllipsoidalHeight: nil) else {
            summary.groundSkipped += 1; return   // no terrain here (outside the DEM, no geoid for an MSL one)
        }
        let up = ref.enu(latitude: p.latitude, longitude: p.longitude, ellipsoidalHeight: height).up
        let h = Row(Self.iU, 1)
        let nu = up - x[Self.iU]
        let r = g.sigma * g.sigma
        guard nu * nu <= 16 * innovationVariance(h, r) else { summary.groundSkipped += 1; return }
        let gap = time - lastGroundTime
        let inflate = Self.correlationInflation(gap: gap, correlationTime: configuration.pathCorrelationTime)
        guard scalarUpdate(h, innovation: nu, variance: r * inflate) else { summary.groundSkipped += 1; return }
        lastGroundTime = time
        summary.groundUpdates += 1
    }

    /// The reported-accuracy check. A fix inside the gate with normalized innovation d² (2
    /// degrees of freedom, computed with the current factor s) says the variance factor that
    /// would have made it consistent is `s × d² / 2` (in expectation the ratio of its true to its
    /// reported variance, whatever s is: no feedback loop). Their running mean over
    /// ``GeoRegistrationConfiguration/fixAccuracyAdaptationTime`` (at most a tenth per fix, so
    /// no single fix after a dropout sets it) becomes s once it exceeds
    /// ``GeoRegistrationConfiguration/fixAccuracyTolerance``, or falls below
    /// ``GeoRegistrationConfiguration/fixAccuracyNarrowingTolerance`` (then at least
    /// ``GeoRegistrationConfiguration/minimumFixAccuracyScale``²); between the two, s is 1.
    /// Capped at 100 (σ × 10).
    mutating func checkFixAccuracy(_ d2: Double, time: Double) {
        defer { lastFixTime = time }
        guard let tau = configuration.fixAccuracyAdaptationTime, tau > 0, tau.isFinite, headingKnown, d2.isFinite else { return }
        let gap = lastFixTime.isNaN ? 0 : Swift.max(0, time - lastFixTime)
        let a = Swift.min(0.1, gap / tau)
        fixVarianceEstimate += a * (fixVarianceScale * d2 / 2 - fixVarianceEstimate)
        let c = configuration
        if fixVarianceEstimate > c.fixAccuracyTolerance {
            fixVarianceScale = Swift.min(100, fixVarianceEstimate)
        } else if let t = c.fixAccuracyNarrowingTolerance, fixVarianceEstimate < t {
            fixVarianceScale = Swift.max(c.minimumFixAccuracyScale * c.minimumFixAccuracyScale, fixVarianceEstimate)
        } else {
            fixVarianceScale = 1
        }
        summary.fixAccuracyScale = fixVarianceScale.squareRoot()
        summary.maximumFixAccuracyScale = Swift.max(summary.maximumFixAccuracyScale, summary.fixAccuracyScale)
        summary.minimumFixAccuracyScale = Swift.min(summary.minimumFixAccuracyScale, summary.fixAccuracyScale)
    }

    /// Ends a narrowing of the fixes' accuracies (the check starts again from 1).
    mutating func relaxNarrowing() {
        fixVarianceEstimate = 1
        fixVarianceScale = 1
        summary.fixAccuracyScale = 1
    }

    /// Variance factor for an observation whose error persists about `correlationTime` seconds
    /// and arrives `gap` seconds after the previous one: observations closer together count as
    /// one (× correlationTime / gap, at least 1; × 100 for a second one at the same time).
    /// Compass readings, path and ground constraints.
    static func correlationInflation(gap: Double, correlationTime: Double) -> Double {
        gap > 0 ? Swift.max(1, correlationTime / gap) : 100
    }

    /// `νᵀ S⁻¹ ν` of a 2-D innovation with covariance [[s11, s12], [s12, s22]] (0 if singular).
    static func normalizedSquare(_ a: Double, _ b: Double, _ s11: Double, _ s22: Double, _ s12: Double) -> Double {
        let det = s11 * s22 - s12 * s12
        return det > 0 ? (s22 * a * a - 2 * s12 * a * b + s11 * b * b) / det : 0
    }

    /// Feeds one tracking sample, then every fix and compass reading up to its time, advancing
    /// the cursors — the time order `geobench align`, the report and the tests use. After a
    /// pause in the tracking longer than ``GeoRegistrationConfiguration/trackingGapTime`` the
    /// fixes and readings of the pause come first, in time order (they happened during it: fed
    /// after the sample that ends a pause of over a minute, they looked like a clock set back).
    public mutating func update(tracking sample: ARTrackingSample, fixes: [Fix], fixCursor: inout Int,
                                compass: [CompassReading], compassCursor: inout Int) throws(GeoAnchorError) {
        if lastSample != nil, isTrackingStale(at: sample.time) {
            while true {
                let f = fixCursor < fixes.count && fixes[fixCursor].time < sample.time ? fixes[fixCursor].time : .infinity
                let r = compassCursor < compass.count && compass[compassCursor].time < sample.time ? compass[compassCursor].time : .infinity
                if f == .infinity && r == .infinity { break }
                if f <= r { try update(fix: fixes[fixCursor]); fixCursor += 1 } else { try update(compass: compass[compassCursor]); compassCursor += 1 }
            }
        }
        try update(tracking: sample)
        while fixCursor < fixes.count && fixes[fixCursor].time <= sample.time { try update(fix: fixes[fixCursor]); fixCursor += 1 }
        while compassCursor < compass.count && compass[compassCursor].time <= sample.time {
            try update(compass: compass[compassCursor]); compassCursor += 1
        }
    }

    /// A height the estimator uses: nil when absent or beyond ±``Fix/maximumUsableHeight``.
    static func usableHeight(_ h: Double?) -> Double? {
        h.flatMap { Swift.abs($0) <= Fix.maximumUsableHeight ? $0 : nil }
    }

    /// Starts the reference frame at the first usable fix and sets the priors.
    mutating func start(at fix: Fix, sigma: Double) throws(GeoAnchorError) {
        let h = Self.usableHeight(fix.ellipsoidalHeight) ?? 0
        reference = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: fix.latitude, longitude: fix.longitude, ellipsoidalHeight: h))
        let c = configuration, n = dimension, rad = Angle.radiansPerDegree
        x = [Double](repeating: 0, count: n)
        p = [Double](repeating: 0, count: n * n)
        resetMapSlots()
        x[Self.iU] = 0
        p[Self.iE * n + Self.iE] = 1e4; p[Self.iN * n + Self.iN] = 1e4; p[Self.iU * n + Self.iU] = 1e4
        let scaleSigma = noiseModel.scaleSigma
        p[Self.iS * n + Self.iS] = scaleSigma * scaleSigma
        trackingModelVariance.x = c.scaleSigma * c.scaleSigma
        resetDriftRatePrior()
        let (short, long) = c.gnssCorrelatedSigmas(sigma)
        p[Self.iBE * n + Self.iBE] = short * short; p[Self.iBN * n + Self.iBN] = short * short
        p[Self.iBU * n + Self.iBU] = c.gnssVerticalCorrelatedVariance(sigma)
        p[Self.iLE * n + Self.iLE] = long * long; p[Self.iLN * n + Self.iLN] = long * long
        p[Self.iBC * n + Self.iBC] = (c.compassBiasSigma * rad) * (c.compassBiasSigma * rad)
        if let prior = c.frameHeadingSigma, let s = lastSample {
            // The frame claims to be north-aligned (its nominal north is true north ± prior).
            _ = s
            headingKnown = true
            x[Self.iPsi] = 0
            p[Self.iPsi * n + Self.iPsi] = (prior * rad) * (prior * rad)
            events.append(.headingInitialized(time: fix.time, heading: 0, sigma: prior))
        }
        lag = .zero; lagPsi = 0
        if let path, let reference { localPath = path.local(in: reference) }
    }

    /// Least-squares rotation of the tracked path onto the fixes (2-D Procrustes), once the path
    /// spans enough: initializes the heading (no compass) or checks the compass's.
    mutating func alignFromTrack(time: Double, sigma: Double) {
        let c = configuration, n = dimension
        guard alignment.count >= 10, let first = alignment.first else { return }
        var span = 0.0
        for a in alignment { span = Swift.max(span, ((a.session - first.session) * (a.session - first.session)).sum()) }
        guard span.squareRoot() >= c.alignmentSpan else { return }
        let m = Double(alignment.count)
        var cs = SIMD2<Double>(0, 0), cf = SIMD2<Double>(0, 0)
        for a in alignment { cs += a.session; cf += a.fix }
        cs /= m; cf /= m
        var sc = 0.0, ss = 0.0, r2 = 0.0
        for a in alignment {
            let u = a.session - cs, v = a.fix - cf
            sc += v.x * u.x + v.y * u.y
            ss += v.x * u.y - v.y * u.x
            r2 += (u * u).sum()
        }
        let psi = Foundation.atan2(ss, sc)
        // σ: the white part over all fixes, the slow part over the few independent stretches.
        let duration = alignment.last!.time - first.time
        let f = c.gnssCorrelatedFraction
        let white2 = sigma * sigma * (1 - f * f) / r2
        let stretches = (1 - c.gnssLongShare) * Swift.min(1, duration / c.gnssCorrelationTime)
            + c.gnssLongShare * Swift.min(1, duration / c.gnssLongCorrelationTime)
        let slow2 = f * f * sigma * sigma * stretches / (r2 / m)
        let sigmaPsi = 1.5 * (white2 + slow2).squareRoot()
        headingFromCompassOnly = false
        if headingKnown {
            let diff = Angle.difference(from: x[Self.iPsi] * Angle.degreesPerRadian, to: psi * Angle.degreesPerRadian) * Angle.radiansPerDegree
            let comb = (p[Self.iPsi * n + Self.iPsi] + sigmaPsi * sigmaPsi).squareRoot()
            headingFromTrack = true
            guard Swift.abs(diff) > 3 * comb else { alignment.removeAll(); return }
            summary.headingReinitializations += 1
            events.append(.headingReinitialized(time: time, degrees: diff * Angle.degreesPerRadian))
        } else {
            headingKnown = true
            headingFromTrack = true
            events.append(.headingInitialized(time: time, heading: Angle.normalizeHeading(psi * Angle.degreesPerRadian),
                                              sigma: sigmaPsi * Angle.degreesPerRadian))
        }
        // Place the device where the aligned path puts it, averaged over every fix.
        let now = lastHorizontal
        let sn = Foundation.sin(psi), co = Foundation.cos(psi)
        var pos = SIMD2<Double>(0, 0)
        for a in alignment {
            let d = now - a.session
            let turned = SIMD2(co * d.x + sn * d.y, -sn * d.x + co * d.y)
            pos += a.fix + turned
        }
        do {
            pos /= m
            x[Self.iE] = pos.x - x[Self.iBE] - x[Self.iLE]; x[Self.iN] = pos.y - x[Self.iBN] - x[Self.iLN]
            for i in Self.iE...Self.iN {
                for j in 0..<n { p[i * n + j] = 0; p[j * n + i] = 0 }
                p[i * n + i] = sigma * sigma
            }
        }
        setHeading(psi, sigma: sigmaPsi)
        alignment.removeAll()
    }

    /// Sets the frame heading to `psi` with 1σ `sigma` (both rad), uncorrelated with every other
    /// state, and lets the output follow at once: a re-initialization, not a correction.
    mutating func setHeading(_ psi: Double, sigma: Double) {
        let n = dimension
        x[Self.iPsi] = psi
        for j in 0..<n { p[Self.iPsi * n + j] = 0; p[j * n + Self.iPsi] = 0 }
        p[Self.iPsi * n + Self.iPsi] = sigma * sigma
        lag = .zero; lagPsi = 0
    }

    // MARK: - Compass

    /// Feeds one compass reading (optional input). Readings before the first tracking sample,
    /// readings whose accuracy is beyond ``CompassReading/maximumUsableAccuracy``, and readings
    /// more than ``GeoRegistrationConfiguration/trackingGapTime`` after the latest tracking
    /// sample (tracking interrupted: the device's yaw is unknown) are counted as gated.
    /// - Throws: non-finite values or a non-positive accuracy.
    public mutating func update(compass r: CompassReading) throws(GeoAnchorError) {
        try checkConfiguration()
        try checkTime(r.time, name: "compass time")
        guard r.heading.isFinite else { throw .nonFinite(name: "compass heading", value: r.heading) }
        guard r.headingAccuracy.isFinite, r.headingAccuracy > 0 else {
            throw .outOfRange(name: "compass heading accuracy", value: r.headingAccuracy, allowed: .greaterThan(0, unit: "degrees"))
        }
        checkClock(r.time)
        // Not while the tracking is interrupted: the reading would be compared with a yaw the
        // device no longer has (and taken for a disturbance, after two minutes for a new bias).
        guard let s = lastSample, reference != nil, r.headingAccuracy <= CompassReading.maximumUsableAccuracy,
              !isTrackingStale(at: r.time) else { summary.compassGated += 1; return }
        propagate(to: r.time)
        let c = configuration, rad = Angle.radiansPerDegree
        let sigma = c.compassWhiteFraction * r.headingAccuracy / CircularError.halfWidth68PerSigma * rad
        let gap = r.time - lastCompassTime
        let inflate = Self.correlationInflation(gap: gap, correlationTime: c.compassDecorrelationInterval)
        lastCompassTime = r.time
        let yaw = s.yaw
        if !headingKnown {
            headingKnown = true
            headingFromCompassOnly = true
            // Less the compass bias learnt so far (0 at the start; after an interruption the
            // walk before it has measured it).
            x[Self.iPsi] = Angle.difference(from: yaw, to: r.heading) * rad - x[Self.iBC]
            p[Self.iPsi * dimension + Self.iPsi] = 0.25 * Double.pi * Double.pi   // (90°)², a wide start
            events.append(.headingInitialized(time: r.time, heading: Angle.normalizeHeading(x[Self.iPsi] * Angle.degreesPerRadian),
                                              sigma: r.headingAccuracy))
        }
        if headingFromCompassOnly { followCompassMedian(r, yaw: yaw) }
        let predicted = yaw + (x[Self.iPsi] + x[Self.iBC]) * Angle.degreesPerRadian
        let nu = Angle.difference(from: predicted, to: r.heading) * rad
        let h = Row(Self.iPsi, 1, Self.iBC, 1)
        // Gate on one reading's innovation (not the rate-inflated variance): a disturbance shows
        // as a reading far from heading + tracked bias.
        let single = innovationVariance(h, sigma * sigma)
        let normalized = nu / single.squareRoot()
        // Disturbance episodes (near metal) shift many readings the same way: a running mean of
        // the normalized innovations (≈ 5 s) beyond ``compassEpisodeThreshold`` marks one, and
        // its readings are gated even when each alone would pass.
        let a = gap > 0 ? Swift.min(1, gap / c.compassEpisodeTime) : 0
        compassInnovationMean += a * (normalized - compassInnovationMean)
        let disturbed = Swift.abs(compassInnovationMean) > c.compassEpisodeThreshold
        if disturbed && compassDisturbedSince.isNaN { compassDisturbedSince = r.time }
        if !disturbed { compassDisturbedSince = .nan }
        if !compassDisturbedSince.isNaN && r.time - compassDisturbedSince > c.compassBiasResetTime {
            // A lasting change, not an episode: let the bias state learn it.
            addVariance(Self.iBC, 4 * (c.compassBiasSigma * rad) * (c.compassBiasSigma * rad))
            compassInnovationMean = 0; compassDisturbedSince = .nan
            summary.compassGated += 1
            return
        }
        if disturbed || Swift.abs(normalized) > c.compassGate {
            summary.compassGated += 1
            return
        }
        summary.compassUsed += 1
        // Robust weighting: a reading beyond ``compassRobustThreshold`` σ counts as if its
        // variance were (|n| / threshold)² larger, so its pull on the estimate stops growing with
        // its distance (the ramps of a disturbance episode pass the gate before the episode
        // detector trips; each then pulls only as much as a threshold-sized innovation would).
        var robust = 1.0
        if let k = c.compassRobustThreshold, k > 0, k.isFinite, Swift.abs(normalized) > k { robust = (normalized / k) * (normalized / k) }
        scalarUpdate(h, innovation: nu, variance: sigma * sigma * inflate * robust)
        checkSnap(time: r.time)
    }

    /// While nothing but the compass has observed the heading (``headingFromCompassOnly``: a
    /// device standing still since the compass started it): the heading each reading implies
    /// (reading − tracked yaw − learnt bias) over the last ``compassMedianWindow``; once that
    /// spans half the window, a median more than 3σ from the heading re-initializes it there.
    /// The reading that started the heading may have been taken in a disturbance, and then the
    /// gate kept every good reading out: a car standing after a 60 s pause, restarted 57° off,
    /// held 49° off with σ 7.4° for its last two minutes (GSDC 2020 drive). Episodes shorter than
    /// half the window never hold the median.
    mutating func followCompassMedian(_ r: CompassReading, yaw: Double) {
        let n = dimension, rad = Angle.radiansPerDegree
        let current = x[Self.iPsi] * Angle.degreesPerRadian
        compassOnlyHeadings.append((r.time, Angle.difference(from: yaw, to: r.heading) - x[Self.iBC] * Angle.degreesPerRadian))
        compassOnlyHeadings.removeAll { r.time - $0.time > Self.compassMedianWindow }
        guard let first = compassOnlyHeadings.first, r.time - first.time >= Self.compassMedianWindow / 2 else { return }
        let offsets = compassOnlyHeadings.map { Angle.difference(from: current, to: $0.psi) }.sorted()
        let median = offsets[offsets.count / 2]
        guard Swift.abs(median) > 3 * p[Self.iPsi * n + Self.iPsi].squareRoot() * Angle.degreesPerRadian else { return }
        setHeading((current + median) * rad, sigma: r.headingAccuracy / CircularError.halfWidth68PerSigma * rad)
        compassInnovationMean = 0; compassDisturbedSince = .nan
        summary.headingReinitializations += 1
        events.append(.headingReinitialized(time: r.time, degrees: median))
    }

    /// Seconds of compass readings ``followCompassMedian(_:yaw:)`` takes the median of.
    static let compassMedianWindow = 60.0

    /// A compass correction measured on landmarks (``LandmarkHeadingOffset``: corrected =
    /// observed + offset): observes the compass bias as −offset with its standard error. The
    /// offset is an angle (360° is 0°: it once pulled the estimate by a full turn).
    /// - Throws: an offset outside [−360°, 360°] or not finite, a standard error ≤ 0 or not
    ///   finite, a time outside the years 0001–9999.
    public mutating func update(compassCorrection o: LandmarkHeadingOffset, time: Double) throws(GeoAnchorError) {
        try checkConfiguration()
        try ValueRange.closed(-360, 360, unit: "degrees").check(o.offset, name: "landmark offset")
        guard o.standardError.isFinite, o.standardError > 0 else {
            throw .outOfRange(name: "landmark offset standard error", value: o.standardError, allowed: .greaterThan(0, unit: "degrees"))
        }
        try checkTime(time, name: "landmark correction time")
        checkClock(time)
        guard reference != nil else { return }
        propagate(to: time)
        let rad = Angle.radiansPerDegree
        let nu = Angle.difference(from: x[Self.iBC] * Angle.degreesPerRadian, to: -o.offset) * rad
        if scalarUpdate(Row(Self.iBC, 1), innovation: nu, variance: (o.standardError * rad) * (o.standardError * rad)) { summary.landmarksUsed += 1 }
        checkSnap(time: time)
    }

    /// The device is pointed at a landmark right now (at the latest tracking sample's yaw): its
    /// true heading is the azimuth to the landmark. Not used (``GeoRegistrationSummary/landmarksUsed``
    /// unchanged) before the heading is known, or more than
    /// ``GeoRegistrationConfiguration/trackingGapTime`` after the latest tracking sample.
    /// - Parameters:
    ///   - landmark: the landmark's position (heights do not matter).
    ///   - landmarkAccuracy: its 68 % horizontal radius, meters.
    ///   - pointingAccuracy: 1σ of the aiming, degrees (> 0).
    ///   - time: UTC seconds of the sighting.
    public mutating func update(sighting landmark: GeodeticCoordinate, landmarkAccuracy: Double = 0,
                                pointingAccuracy: Double = 1, time: Double) throws(GeoAnchorError) {
        try checkConfiguration()
        try landmark.validate()
        guard pointingAccuracy.isFinite, pointingAccuracy > 0 else {
            throw .outOfRange(name: "pointing accuracy", value: pointingAccuracy, allowed: .greaterThan(0, unit: "degrees"))
        }
        try checkTime(time, name: "sighting time")
        checkClock(time)
        // Not while the tracking is interrupted: the sighting's yaw would be the stale one.
        guard let ref = reference, let s = lastSample, headingKnown, !isTrackingStale(at: time) else { return }
        propagate(to: time)
        let l = ref.enu(latitude: landmark.latitude, longitude: landmark.longitude, ellipsoidalHeight: ref.origin.height)
        let de = l.east - x[Self.iE], dn = l.north - x[Self.iN]
        let d2 = de * de + dn * dn
        guard d2 > 1 else { return }
        let rad = Angle.radiansPerDegree
        let az = Foundation.atan2(de, dn)
        let nu = Angle.difference(from: s.yaw + x[Self.iPsi] * Angle.degreesPerRadian, to: az * Angle.degreesPerRadian) * rad
        let ls = landmarkAccuracy / CircularError.radius68PerSigma
        let r = (pointingAccuracy * rad) * (pointingAccuracy * rad) + ls * ls / d2
        if scalarUpdate(Row(Self.iPsi, 1, Self.iE, dn / d2, Self.iN, -de / d2), innovation: nu, variance: r) {
            summary.landmarksUsed += 1
            headingFromCompassOnly = false
        }
        checkSnap(time: time)
    }

    // MARK: - External geo pose

    /// Feeds an ARKit geotracking / ARCore Earth pose with its accuracies (gated like fixes;
    /// one whose horizontal accuracy is beyond ``Fix/maximumUsableHorizontalAccuracy`` is
    /// counted gated). Its heading is the device's, compared with the latest tracked yaw: it is
    /// not used while the tracking is interrupted (no sample for
    /// ``GeoRegistrationConfiguration/trackingGapTime``: that yaw is stale) nor beyond 3σ of the
    /// estimate; its position is used either way.
    public mutating func update(geoPose g: ExternalGeoPose) throws(GeoAnchorError) {
        try checkConfiguration()
        try checkTime(g.time, name: "geo pose time")
        try g.position.validate()
        guard g.horizontalAccuracy.isFinite, g.horizontalAccuracy > 0 else {
            throw .outOfRange(name: "geo pose horizontal accuracy", value: g.horizontalAccuracy, allowed: .greaterThan(0, unit: "m"))
        }
        checkClock(g.time)
        guard lastSample != nil, g.horizontalAccuracy <= Fix.maximumUsableHorizontalAccuracy else { summary.externalPosesGated += 1; return }
        if reference == nil {
            try start(at: Fix(time: g.time, latitude: g.position.latitude, longitude: g.position.longitude,
                              height: g.position.height, verticalReference: g.position.verticalReference),
                      sigma: g.horizontalAccuracy / CircularError.radius68PerSigma)
        }
        guard let ref = reference, let s = lastSample else { return }
        propagate(to: g.time)
        let n = dimension, rad = Angle.radiansPerDegree
        if let hd = g.heading, let ha = g.headingAccuracy, hd.isFinite, ha > 0, ha <= CompassReading.maximumUsableAccuracy,
           !isTrackingStale(at: g.time) {
            let sig = ha / CircularError.halfWidth68PerSigma * rad
            headingFromCompassOnly = false
            if !headingKnown {
                headingKnown = true
                x[Self.iPsi] = Angle.difference(from: s.yaw, to: hd) * rad
                p[Self.iPsi * n + Self.iPsi] = sig * sig
                events.append(.headingInitialized(time: g.time, heading: Angle.normalizeHeading(x[Self.iPsi] * Angle.degreesPerRadian), sigma: ha))
            } else {
                let nu = Angle.difference(from: s.yaw + x[Self.iPsi] * Angle.degreesPerRadian, to: hd) * rad
                if nu * nu <= 9 * innovationVariance(Row(Self.iPsi, 1), sig * sig) {
                    scalarUpdate(Row(Self.iPsi, 1), innovation: nu, variance: sig * sig)
                }
            }
        }
        let sigma = g.horizontalAccuracy / CircularError.radius68PerSigma
        let poseHeight = g.position.verticalReference == .ellipsoid ? Self.usableHeight(g.position.height) : nil
        let z = ref.enu(latitude: g.position.latitude, longitude: g.position.longitude, ellipsoidalHeight: poseHeight ?? ref.origin.height)
        let nuE = z.east - x[Self.iE], nuN = z.north - x[Self.iN]
        let s11 = p[Self.iE * n + Self.iE] + sigma * sigma, s22 = p[Self.iN * n + Self.iN] + sigma * sigma
        let s12 = p[Self.iE * n + Self.iN]
        guard Self.normalizedSquare(nuE, nuN, s11, s22, s12) <= configuration.fixGate else { summary.externalPosesGated += 1; return }
        summary.externalPosesUsed += 1
        scalarUpdate(Row(Self.iE, 1), innovation: nuE, variance: sigma * sigma)
        scalarUpdate(Row(Self.iN, 1), innovation: z.north - x[Self.iN], variance: sigma * sigma)
        if let va = g.verticalAccuracy, va > 0, va.isFinite, poseHeight != nil {
            let sv = va / CircularError.halfWidth68PerSigma
            scalarUpdate(Row(Self.iU, 1), innovation: z.up - x[Self.iU], variance: sv * sv)
        }
        checkSnap(time: g.time)
    }

    // MARK: - Output

    /// The current estimate (smoothed output), or `nil` before the first fix or before the
    /// heading is known (no compass: until five fix courses agree, or the walked path spans
    /// ``GeoRegistrationConfiguration/alignmentSpan`` for fixes without course),
    /// and again while it is re-learnt after an interruption of the tracking
    /// (``GeoRegistrationEvent/trackingInterrupted(time:seconds:headingLost:)``).
    public var estimate: GeoRegistrationEstimate? {
        guard let ref = reference, let s = lastSample, headingKnown else { return nil }
        let n = dimension
        let e = x[Self.iE] - lag.x, nn = x[Self.iN] - lag.y, u = x[Self.iU] - lag.z
        let psi = x[Self.iPsi] - lagPsi
        let g = ref.geodetic(east: e, north: nn, up: u)
        let a = p[Self.iE * n + Self.iE], b = p[Self.iE * n + Self.iN], c = p[Self.iN * n + Self.iN]
        let mid = 0.5 * (a + c), rad = (0.25 * (a - c) * (a - c) + b * b).squareRoot()
        let l2 = lag.x * lag.x + lag.y * lag.y
        // Never claimed below the fixes' error that outlasts any averaging (gnssPersistentShare).
        let floor = configuration.gnssPersistentShare * lastStatedSigma * lastStatedSigma
        let hAcc = CircularError.radius68(variances: Swift.max(floor, mid + rad) + l2, Swift.max(floor, mid - rad) + l2)
        let vAcc = (p[Self.iU * n + Self.iU] + lag.z * lag.z).squareRoot() * CircularError.halfWidth68PerSigma
        let psiDeg = psi * Angle.degreesPerRadian
        let sigma = (p[Self.iPsi * n + Self.iPsi] + lagPsi * lagPsi).squareRoot() * Angle.degreesPerRadian
            * Swift.max(1, configuration.headingSigmaInflation)
        return GeoRegistrationEstimate(
            time: s.time, position: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight),
            horizontalAccuracy: hAcc, verticalAccuracy: vAcc,
            heading: Angle.normalizeHeading(s.yaw + psiDeg), headingSigma: sigma,
            frameHeading: Angle.normalizeHeading(psiDeg), devicePositionInSession: s.position, yaw: s.yaw,
            scaleError: x[Self.iS], isHeadingFromTrack: headingFromTrack,
            compassBias: compassObserved ? Angle.normalizeLongitude(x[Self.iBC] * Angle.degreesPerRadian) : nil,
            compassBiasSigma: compassObserved ? p[Self.iBC * n + Self.iBC].squareRoot() * Angle.degreesPerRadian : nil)
    }

    /// Whether a compass reading or a landmark correction has informed the compass-bias state.
    var compassObserved: Bool { summary.compassUsed > 0 || summary.landmarksUsed > 0 }

    /// The unsmoothed filter state as (east, north, up) about ``referenceOrigin`` and the frame
    /// heading in degrees — for diagnostics and tests.
    public var rawState: (east: Double, north: Double, up: Double, frameHeading: Double)? {
        guard reference != nil, headingKnown else { return nil }
        return (x[Self.iE], x[Self.iN], x[Self.iU], x[Self.iPsi] * Angle.degreesPerRadian)
    }

    /// Origin of the internal East-North-Up frame (the first fix), or `nil` before it.
    public var referenceOrigin: GeodeticCoordinate? { reference?.origin }
}
