module github.com/podiumhq/podium/libs/httpserver

go 1.26
