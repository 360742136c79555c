import GeoAnchorKit

extension GEOSError: DescribedError {}
