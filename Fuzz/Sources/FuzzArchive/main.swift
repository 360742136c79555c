import Foundation
import FuzzSupport
import GeoAnchorKit

// Compressed inputs by content: gzip (Inflate), Unix compress (.Z, LZW) and ZIP archives, as every
// file reader opens them (ByteLineReader.decompressedContents). The decoders are package-internal,
// so the bytes go through a file in /dev/shm (one per process).
let scratch = URL(fileURLWithPath: "/dev/shm/geoanchorkit-fuzz-archive-\(ProcessInfo.processInfo.processIdentifier)")
atexit { try? FileManager.default.removeItem(at: scratch) }
FuzzSupport.main { d in
    try d.write(to: scratch)
    _ = try ByteLineReader.decompressedContents(of: scratch)
}
