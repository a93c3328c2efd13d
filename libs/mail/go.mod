module github.com/podiumhq/podium/libs/mail

go 1.26.0

require github.com/wneessen/go-mail v0.7.2

require (
	github.com/caarlos0/env/v11 v11.4.2 // indirect
	golang.org/x/text v0.29.0 // indirect
)
