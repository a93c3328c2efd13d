module github.com/podiumhq/podium/libs/identity

go 1.26
