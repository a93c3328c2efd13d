module github.com/podiumhq/podium/services/catalog

go 1.26
