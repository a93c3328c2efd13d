module github.com/podiumhq/podium/libs/mail

go 1.26.0

require (
	github.com/emersion/go-smtp v0.25.1
	github.com/wneessen/go-mail v0.7.2
)

require (
	github.com/caarlos0/env/v11 v11.4.2 // indirect
	github.com/emersion/go-sasl v0.0.0-20241020182733-b788ff22d5a6 // indirect
	golang.org/x/text v0.29.0 // indirect
)
