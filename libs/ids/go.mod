module github.com/podiumhq/podium/libs/ids

go 1.26
