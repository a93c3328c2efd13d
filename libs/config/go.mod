module github.com/podiumhq/podium/libs/config

go 1.26.0

require github.com/caarlos0/env/v11 v11.4.2
