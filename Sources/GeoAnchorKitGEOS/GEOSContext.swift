import CGEOS
import GeoAnchorKit

// Owner of a GEOS reentrant context: filled in by the GEOS bindings (issue 2).
