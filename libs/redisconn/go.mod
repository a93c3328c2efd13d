module github.com/podiumhq/podium/libs/redisconn

go 1.26
