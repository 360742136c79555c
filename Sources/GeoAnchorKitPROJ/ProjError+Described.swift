import GeoAnchorKit

extension ProjError: DescribedError {}
