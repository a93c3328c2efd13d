module github.com/podiumhq/podium/examples/organizer-backend

go 1.26
