module github.com/podiumhq/podium/libs/outbox

go 1.26
