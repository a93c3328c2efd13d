module github.com/podiumhq/podium/libs/logging

go 1.26
