module github.com/podiumhq/podium/libs/background

go 1.26
