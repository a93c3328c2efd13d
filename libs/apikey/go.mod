module github.com/podiumhq/podium/libs/apikey

go 1.26
