#!/usr/bin/env python3
"""Tests/GeoAnchorKitTests/Fixtures/Zip/kmz-bundle.zip: two KMZ files in one ZIP archive, as a
shared folder of tour files is zipped for sending (KMLReaderTests reads `kmz-bundle.zip/MEMBER.kmz`).

Made with:  python3 scripts/dev/kmz_bundle_fixture.py     (Python's zipfile, deflate level 9;
            members: Traces/Other/walk.gpsbabel-track.kmz (GPSBabel) and site-models.kmz)
"""
import os, zipfile

here = os.path.dirname(os.path.abspath(__file__)) + "/../.."
fixtures = here + "/Tests/GeoAnchorKitTests/Fixtures"
with zipfile.ZipFile(fixtures + "/Zip/kmz-bundle.zip", "w") as z:
    for name in ["walk.gpsbabel-track.kmz", "site-models.kmz"]:
        info = zipfile.ZipInfo(name, date_time=(2026, 11, 28, 12, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with open(fixtures + "/Traces/Other/" + name, "rb") as f:
            z.writestr(info, f.read(), compresslevel=9)
