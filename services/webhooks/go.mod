module github.com/podiumhq/podium/services/webhooks

go 1.26.0
