import Foundation

// GeoJSON (RFC 7946, https://www.rfc-editor.org/rfc/rfc7946) as Codable value types.
//
// Positions are `[longitude, latitude]` or `[longitude, latitude, height]` in degrees WGS84
// and meters above the ellipsoid (RFC 7946 §4 leaves the height datum to the producer; this
// project writes ellipsoidal heights unless a feature's properties say `"vertical_reference":
// "msl"`). Decoding validates the RFC's structural rules: a position has 2 or 3 finite numbers
// (more are kept as given but ignored by ``GeoJSONPosition``'s accessors — RFC 7946 §3.1.1 says
// "parsers MAY ignore" them), longitude in [−180, 180], latitude in [−90, 90], a LineString has
// ≥ 2 positions, a linear ring ≥ 4 positions with the first equal to the last.

/// Any JSON value: the type of GeoJSON `properties` and foreign members.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else if let o = try? c.decode([String: JSONValue].self) { self = .object(o) }
        else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The number, or nil for other cases.
    public var doubleValue: Double? { if case .number(let d) = self { return d }; return nil }
    /// The string, or nil for other cases.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// `s` as a JSON string literal (RFC 8259: quotes, backslash and control characters
    /// escaped, `\n`, `\r`, `\t` by name, the rest as `\u00XX`; other characters as they are) —
    /// the one escaping the tour writer and geobench's JSON outputs share.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// The value as a feature's identifier (a GeoJSON `id`, or an `id`/`name` property): a
    /// string with surrounding whitespace trimmed, an integral number as an integer (`7`, not
    /// `7.0`; below 10¹⁵ in magnitude), another finite number as its shortest decimal; nil for
    /// anything else. The one conversion tours and anchors share.
    package var identifier: String? {
        switch self {
        case .string(let s): return s.trimmingCharacters(in: .whitespacesAndNewlines)
        case .number(let d) where d.isFinite: return Self.numberText(d)
        default: return nil
        }
    }

    /// A finite number as JSON text: integral values below 10¹⁵ in magnitude as integers (`20`,
    /// not `20.0`), others as Swift's shortest decimal that reads back to the same `Double`.
    package static func numberText(_ d: Double) -> String {
        d == d.rounded() && Swift.abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
    }
    /// The Boolean, or nil for other cases.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The array, or nil for other cases.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The object, or nil for other cases.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    /// Member of an object (nil for missing members and non-objects).
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b.description
        case .number(let d): return d.description
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.keys.sorted().map { "\"\($0)\":\(o[$0]!.description)" }.joined(separator: ",") + "}"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
                     ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
                     ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, b in b }))
    }
}

/// A GeoJSON position: longitude, latitude (degrees, WGS84) and an optional height (meters).
///
/// Encoded as a JSON array `[lon, lat]` or `[lon, lat, h]` (RFC 7946 §3.1.1: longitude first).
public struct GeoJSONPosition: Sendable, Hashable, Codable {
    /// Degrees, [−180, 180].
    public var longitude: Double
    /// Degrees, [−90, 90].
    public var latitude: Double
    /// Meters (ellipsoidal unless the feature says otherwise), nil when the position has 2 numbers.
    public var height: Double?

    public init(longitude: Double, latitude: Double, height: Double? = nil) {
        self.longitude = longitude; self.latitude = latitude; self.height = height
    }

    /// The position as a geodetic coordinate: RFC 7946 heights are above the WGS84 ellipsoid (0 when absent).
    public var coordinate: GeodeticCoordinate {
        GeodeticCoordinate(latitude: latitude, longitude: longitude, ellipsoidalHeight: height ?? 0)
    }

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        var values: [Double] = []
        while !c.isAtEnd { values.append(try c.decode(Double.self)) }
        guard values.count >= 2 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a position needs at least 2 numbers, got \(values.count)"))
        }
        guard values.allSatisfy(\.isFinite) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "position has a non-finite number: \(values)"))
        }
        guard abs(values[0]) <= 180 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "longitude \(values[0]) is outside [-180, 180]"))
        }
        guard abs(values[1]) <= 90 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "latitude \(values[1]) is outside [-90, 90]"))
        }
        longitude = values[0]; latitude = values[1]
        height = values.count >= 3 ? values[2] : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(longitude)
        try c.encode(latitude)
        if let height { try c.encode(height) }
    }
}

/// A GeoJSON geometry (RFC 7946 §3.1).
public indirect enum GeoJSONGeometry: Sendable, Hashable, Codable {
    case point(GeoJSONPosition)
    case multiPoint([GeoJSONPosition])
    case lineString([GeoJSONPosition])
    case multiLineString([[GeoJSONPosition]])
    /// Linear rings: the first is the exterior ring (counterclockwise per RFC 7946 §3.1.6 —
    /// not enforced on input), the rest are holes. Each ring is closed (first == last).
    case polygon([[GeoJSONPosition]])
    case multiPolygon([[[GeoJSONPosition]]])
    case geometryCollection([GeoJSONGeometry])

    private enum CodingKeys: String, CodingKey { case type, coordinates, geometries }

    /// The RFC 7946 `type` member.
    public var typeName: String {
        switch self {
        case .point: return "Point"
        case .multiPoint: return "MultiPoint"
        case .lineString: return "LineString"
        case .multiLineString: return "MultiLineString"
        case .polygon: return "Polygon"
        case .multiPolygon: return "MultiPolygon"
        case .geometryCollection: return "GeometryCollection"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        func check(_ ok: Bool, _ msg: String) throws {
            if !ok { throw DecodingError.dataCorruptedError(forKey: .coordinates, in: c, debugDescription: msg) }
        }
        func checkRings(_ rings: [[GeoJSONPosition]]) throws {
            for r in rings {
                try check(r.count >= 4, "a linear ring needs at least 4 positions, got \(r.count)")
                try check(r.first == r.last, "a linear ring must be closed (first position == last)")
            }
        }
        switch type {
        case "Point": self = .point(try c.decode(GeoJSONPosition.self, forKey: .coordinates))
        case "MultiPoint": self = .multiPoint(try c.decode([GeoJSONPosition].self, forKey: .coordinates))
        case "LineString":
            let p = try c.decode([GeoJSONPosition].self, forKey: .coordinates)
            try check(p.count >= 2, "a LineString needs at least 2 positions, got \(p.count)")
            self = .lineString(p)
        case "MultiLineString":
            let p = try c.decode([[GeoJSONPosition]].self, forKey: .coordinates)
            for l in p { try check(l.count >= 2, "a LineString needs at least 2 positions, got \(l.count)") }
            self = .multiLineString(p)
        case "Polygon":
            let p = try c.decode([[GeoJSONPosition]].self, forKey: .coordinates)
            try checkRings(p)
            self = .polygon(p)
        case "MultiPolygon":
            let p = try c.decode([[[GeoJSONPosition]]].self, forKey: .coordinates)
            for poly in p { try checkRings(poly) }
            self = .multiPolygon(p)
        case "GeometryCollection":
            self = .geometryCollection(try c.decode([GeoJSONGeometry].self, forKey: .geometries))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown geometry type '\(type)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(typeName, forKey: .type)
        switch self {
        case .point(let p): try c.encode(p, forKey: .coordinates)
        case .multiPoint(let p), .lineString(let p): try c.encode(p, forKey: .coordinates)
        case .multiLineString(let p), .polygon(let p): try c.encode(p, forKey: .coordinates)
        case .multiPolygon(let p): try c.encode(p, forKey: .coordinates)
        case .geometryCollection(let g): try c.encode(g, forKey: .geometries)
        }
    }
}

/// A GeoJSON Feature (RFC 7946 §3.2).
public struct GeoJSONFeature: Sendable, Hashable, Codable {
    /// The geometry; nil encodes as `"geometry": null` (an unlocated feature).
    public var geometry: GeoJSONGeometry?
    /// Free-form properties; nil encodes as `"properties": null`.
    public var properties: [String: JSONValue]?
    /// Optional identifier (string or number per the RFC).
    public var id: JSONValue?

    public init(geometry: GeoJSONGeometry?, properties: [String: JSONValue]? = nil, id: JSONValue? = nil) {
        self.geometry = geometry; self.properties = properties; self.id = id
    }

    private enum CodingKeys: String, CodingKey { case type, geometry, properties, id }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        guard type == "Feature" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "expected type 'Feature', got '\(type)'")
        }
        geometry = try c.decodeIfPresent(GeoJSONGeometry.self, forKey: .geometry)
        properties = try c.decodeIfPresent([String: JSONValue].self, forKey: .properties)
        id = try c.decodeIfPresent(JSONValue.self, forKey: .id)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("Feature", forKey: .type)
        if let id { try c.encode(id, forKey: .id) }
        if let geometry { try c.encode(geometry, forKey: .geometry) } else { try c.encodeNil(forKey: .geometry) }
        if let properties { try c.encode(properties, forKey: .properties) } else { try c.encodeNil(forKey: .properties) }
    }

    /// A string property, or nil.
    public func string(_ key: String) -> String? { properties?[key]?.stringValue }
    /// A numeric property, or nil.
    public func double(_ key: String) -> Double? { properties?[key]?.doubleValue }
}

/// A GeoJSON FeatureCollection (RFC 7946 §3.3).
public struct GeoJSONFeatureCollection: Sendable, Hashable, Codable {
    public var features: [GeoJSONFeature]

    public init(features: [GeoJSONFeature]) { self.features = features }

    private enum CodingKeys: String, CodingKey { case type, features }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        guard type == "FeatureCollection" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c,
                debugDescription: "expected type 'FeatureCollection', got '\(type)'")
        }
        features = try c.decode([GeoJSONFeature].self, forKey: .features)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("FeatureCollection", forKey: .type)
        try c.encode(features, forKey: .features)
    }

    /// Decodes a FeatureCollection from JSON bytes. A lone Feature or Geometry is wrapped into a
    /// collection (both are valid GeoJSON texts, RFC 7946 §2).
    /// - Throws: ``TraceFormatError`` naming `source` and the JSON path of the problem.
    public static func decode(_ data: Data, source: String = "<geojson>") throws(TraceFormatError) -> GeoJSONFeatureCollection {
        let dec = JSONDecoder()
        struct TypeOnly: Decodable { var type: String }
        let type: String
        do { type = try dec.decode(TypeOnly.self, from: data).type } catch {
            throw TraceFormatError(source: source, line: nil, message: "not a GeoJSON object: \(describe(error, data: data))")
        }
        do {
            switch type {
            case "FeatureCollection": return try dec.decode(GeoJSONFeatureCollection.self, from: data)
            case "Feature": return GeoJSONFeatureCollection(features: [try dec.decode(GeoJSONFeature.self, from: data)])
            default: return GeoJSONFeatureCollection(features: [GeoJSONFeature(geometry: try dec.decode(GeoJSONGeometry.self, from: data))])
            }
        } catch {
            throw TraceFormatError(source: source, line: nil, message: describe(error, data: data))
        }
    }

    /// Reads and decodes a GeoJSON file (compressed too: `walk.geojson.gz`, `walk.geojson.zip`,
    /// or a member of a ZIP archive: `bundle.zip/tour.geojson`).
    public static func read(contentsOf url: URL) throws(TraceFormatError) -> GeoJSONFeatureCollection {
        try decode(ByteLineReader.contents(of: url), source: url.path)
    }

    /// Encodes as compact JSON (keys sorted for stable output).
    /// - Throws: ``TraceFormatError`` (source `<geojson>`) when a value cannot be written as JSON
    ///   (a NaN or infinite coordinate or property).
    public func encoded(pretty: Bool = false) throws(TraceFormatError) -> Data {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do { return try e.encode(self) } catch {
            throw TraceFormatError(source: "<geojson>", line: nil, message: "cannot encode: \(Self.describe(error))")
        }
    }

    /// A decoding error as one line with its JSON path. For text that is not JSON at all,
    /// `JSONDecoder` says only "The given data was not valid JSON." (no position, no value), so
    /// `data` is parsed again with `JSONSerialization` for its account: "Number 1e400 is not
    /// representable in Swift.", "Too many nested arrays or dictionaries around character 513.",
    /// "Unexpected character … around line 3, column 7."
    static func describe(_ error: any Error, data: Data? = nil) -> String {
        func path(_ p: [any CodingKey]) -> String {
            p.isEmpty ? "" : " at " + p.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        if case DecodingError.dataCorrupted(let c) = error, c.codingPath.isEmpty, let data {
            do { _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
                let ns = error as NSError
                return "invalid JSON: " + ((ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription)
            }
        }
        switch error {
        case DecodingError.dataCorrupted(let c): return c.debugDescription + path(c.codingPath)
        case DecodingError.keyNotFound(let k, let c): return "missing member '\(k.stringValue)'" + path(c.codingPath)
        case DecodingError.typeMismatch(_, let c): return c.debugDescription + path(c.codingPath)
        case DecodingError.valueNotFound(_, let c): return c.debugDescription + path(c.codingPath)
        default: return "\(error)"
        }
    }
}
