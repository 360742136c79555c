import Foundation

extension ByteParsing {
    /// GDAL/OGR's own date-time form, `YYYY/MM/DD HH:MM:SS[.sss][±HH[[:]MM]]` (ogr2ogr's
    /// GeoJSON before GDAL 3 and other OGR drivers; `+00` is UTC), as ISO 8601; nil for any other form.
    static func ogrDateTime(_ s: String) -> String? {
        let b = Array(s.utf8)
        guard b.count >= 19, b[4] == UInt8(ascii: "/"), b[7] == UInt8(ascii: "/"), b[10] == UInt8(ascii: " ") else { return nil }
        var iso = String(decoding: b[0..<10], as: UTF8.self).replacingOccurrences(of: "/", with: "-") + "T"
        var rest = String(decoding: b[11...], as: UTF8.self)
        // A zone of hours only (+00, -05) or without a colon (+0530): ISO wants ±HH:MM.
        if let z = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = rest[rest.index(after: z)...]
            if zone.count == 2 && zone.allSatisfy(\.isNumber) { rest += ":00" }
            else if zone.count == 4 && zone.allSatisfy(\.isNumber) { rest.insert(":", at: rest.index(z, offsetBy: 3)) }
        }
        iso += rest
        return iso
    }
}
