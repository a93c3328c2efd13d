module github.com/podiumhq/podium/libs/clock

go 1.26.0
