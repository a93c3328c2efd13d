module github.com/podiumhq/podium/examples/organizer-backend

go 1.26

require github.com/standard-webhooks/standard-webhooks/libraries v0.0.1
