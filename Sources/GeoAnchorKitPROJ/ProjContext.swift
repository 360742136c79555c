import CProj
import GeoAnchorKit

// Owners of PROJ handles: filled in by the PROJ bindings (issue 2).
