import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    _ = try NMEAReader.read(ByteLineReader(data: d, source: "f.nmea"), onFix: { _ in })
}
