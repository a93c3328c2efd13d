package other

// Config shares its name with sample.Config; both are read.
type Config struct {
	Extra string `env:"EXTRA"`
}

type Options struct{ Verbose bool }
