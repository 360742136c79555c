#!/bin/sh
# TCX fixtures for TCXReader (Tests/GeoAnchorKitTests/Traces/TCXReaderTests.swift).
#
# Made with:  sh scripts/dev/tcx_fixtures.sh   (needs gpsbabel 1.8.0: apt-get install gpsbabel)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Traces/Other/
#   walk.gpsbabel.tcx          gpsbabel -o gtrnctr of walk.gpx (a Course; times kept)
#   activity.tcx               written below as Garmin Connect exports an activity: Activity/Lap/
#                              Track/Trackpoint, a Garmin ActivityExtension speed (ns3:TPX/ns3:Speed),
#                              heart rate, an indoor trackpoint without Position
#   activity.gpsbabel.gpx      gpsbabel -i gtrnctr -o gpx of activity.tcx: GPSBabel's reading (reference)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
gpsbabel -i gpx -f "$out/walk.gpx" -o gtrnctr -F "$out/walk.gpsbabel.tcx"
cat > "$out/activity.tcx" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd" xmlns:ns5="http://www.garmin.com/xmlschemas/ActivityGoals/v1" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:ns2="http://www.garmin.com/xmlschemas/UserProfile/v2" xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Activities>
    <Activity Sport="Other">
      <Id>2026-05-16T12:00:00.000Z</Id>
      <Lap StartTime="2026-05-16T12:00:00.000Z">
        <TotalTimeSeconds>3.0</TotalTimeSeconds>
        <DistanceMeters>4.2</DistanceMeters>
        <Calories>1</Calories>
        <Intensity>Active</Intensity>
        <TriggerMethod>Manual</TriggerMethod>
        <Track>
          <Trackpoint>
            <Time>2026-05-16T12:00:00.000Z</Time>
            <Position>
              <LatitudeDegrees>49.96099996380508</LatitudeDegrees>
              <LongitudeDegrees>14.393999995663762</LongitudeDegrees>
            </Position>
            <AltitudeMeters>431.0</AltitudeMeters>
            <DistanceMeters>0.0</DistanceMeters>
            <HeartRateBpm>
              <Value>101</Value>
            </HeartRateBpm>
            <Extensions>
              <ns3:TPX>
                <ns3:Speed>1.5</ns3:Speed>
              </ns3:TPX>
            </Extensions>
          </Trackpoint>
          <Trackpoint>
            <Time>2026-05-16T12:00:01.000Z</Time>
            <HeartRateBpm>
              <Value>102</Value>
            </HeartRateBpm>
          </Trackpoint>
          <Trackpoint>
            <Time>2026-05-16T12:00:02.000Z</Time>
            <Position>
              <LatitudeDegrees>49.96103</LatitudeDegrees>
              <LongitudeDegrees>14.39405</LongitudeDegrees>
            </Position>
            <AltitudeMeters>431.6</AltitudeMeters>
            <DistanceMeters>4.2</DistanceMeters>
            <Extensions>
              <ns3:TPX>
                <ns3:Speed>1.3</ns3:Speed>
              </ns3:TPX>
            </Extensions>
          </Trackpoint>
        </Track>
      </Lap>
      <Creator xsi:type="Device_t">
        <Name>Forerunner 255</Name>
      </Creator>
    </Activity>
  </Activities>
</TrainingCenterDatabase>
EOF
gpsbabel -i gtrnctr -f "$out/activity.tcx" -o gpx -F "$out/activity.gpsbabel.gpx"
