module github.com/podiumhq/podium/libs/telemetry

go 1.26
