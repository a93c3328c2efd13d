package config

import "errors"

// SMTP is the mail server a service sends through (libs/mail).
type SMTP struct {
	SMTPHost     string `env:"SMTP_HOST" envDefault:"127.0.0.1"`
	SMTPPort     int    `env:"SMTP_PORT" envDefault:"1025"`
	SMTPFrom     string `env:"SMTP_FROM" envDefault:"Podium <no-reply@podium.localhost>"`
	SMTPUsername string `env:"SMTP_USERNAME"`
	SMTPPassword string `env:"SMTP_PASSWORD" secret:"true"`
}

// Validate reports problems in the SMTP settings.
func (s SMTP) Validate() error {
	var errs []error
	if s.SMTPHost == "" || s.SMTPPort < 1 || s.SMTPPort > 65535 {
		errs = append(errs, errors.New("SMTP_HOST must be set and SMTP_PORT be from 1 to 65535"))
	}
	if s.SMTPFrom == "" {
		errs = append(errs, errors.New("SMTP_FROM must be set"))
	}
	return errors.Join(errs...)
}
