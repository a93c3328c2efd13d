module github.com/podiumhq/podium/libs/config

go 1.26
