package sample

import "time"

type Base struct {
	HTTPAddr string        `env:"HTTP_ADDR" envDefault:":8080"`
	Timeout  time.Duration `env:"SHUTDOWN_TIMEOUT" envDefault:"15s"`
}

type DB struct {
	URL string `env:"URL,notEmpty" secret:"true"`
}

type Config struct {
	Base
	Token   string   `env:"TOKEN,notEmpty" secret:"true"`
	Brokers []string `env:"BROKERS,required" envSeparator:","`
	Name    string   `env:"NAME"`
	DB      DB       `envPrefix:"DB_"`
	Other   DB
	plain   int
}
