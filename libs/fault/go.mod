module github.com/podiumhq/podium/libs/fault

go 1.26
