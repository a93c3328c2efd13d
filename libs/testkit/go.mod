module github.com/podiumhq/podium/libs/testkit

go 1.26
