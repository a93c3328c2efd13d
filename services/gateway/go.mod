module github.com/podiumhq/podium/services/gateway

go 1.26
