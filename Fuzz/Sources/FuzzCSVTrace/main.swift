import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    _ = try CSVTraceReader.read(ByteLineReader(data: d, source: "f.csv"), onFix: { _ in })
}
