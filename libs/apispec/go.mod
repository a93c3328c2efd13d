module github.com/podiumhq/podium/libs/apispec

go 1.26
