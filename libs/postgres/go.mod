module github.com/podiumhq/podium/libs/postgres

go 1.26
