#ifndef GEOANCHORKIT_CGEOS_SHIM_H
#define GEOANCHORKIT_CGEOS_SHIM_H
// Only the reentrant (_r) GEOS C API is used: one GEOSContextHandle_t per owner.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#endif
