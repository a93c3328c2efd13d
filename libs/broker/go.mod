module github.com/podiumhq/podium/libs/broker

go 1.26
