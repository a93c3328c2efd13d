module github.com/podiumhq/podium/services/auth

go 1.26
