#ifndef GEOANCHORKIT_CPROJ_SHIM_H
#define GEOANCHORKIT_CPROJ_SHIM_H
// PROJ's transformation API and its bundled copy of Karney's geodesic routines.
#include <proj.h>
#include <geodesic.h>
#endif
