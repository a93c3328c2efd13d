module github.com/podiumhq/podium/services/checkout

go 1.26
