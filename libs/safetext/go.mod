module github.com/podiumhq/podium/libs/safetext

go 1.26
