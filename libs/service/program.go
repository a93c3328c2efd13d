// Package service is what every service's binary shares: the dispatch of its commands (serve by
// default, migrate, dead-letters, version, help) under a context that SIGINT and SIGTERM cancel, the
// exit codes, the start of its observability (telemetry and, under PPROF_ADDR, profiles), and
// Run, which starts what the service declares in one order and stops it in reverse.
package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/config"
	"github.com/podiumhq/podium/libs/logging"
	"github.com/podiumhq/podium/libs/postgres"
)

// ErrUsage marks a command line that is not understood: the binary prints its usage and
// exits 2. It is the operator commands' command.ErrUsage.
var ErrUsage = command.ErrUsage

// Command runs one command of a binary with the arguments that follow its name.
type Command func(ctx context.Context, args []string, stdout io.Writer) error

// Program is a service's binary.
type Program struct {
	// Name prefixes what the binary prints on failure ("auth").
	Name string
	// Usage is printed by help and after a usage error.
	Usage string
	// Commands by name; "serve" runs when the command line names none.
	Commands map[string]Command
	// Explain, when set, renders a failure for the operator (an admin API's refusal).
	Explain func(error) string
}

// Main runs the command os.Args names and exits: 2 after a usage error, 1 after any other.
func (p Program) Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := p.Run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err == nil {
		return
	}
	if errors.Is(err, ErrUsage) {
		fmt.Fprintf(os.Stderr, "%s: %v\n\n%s", p.Name, err, p.usage())
		os.Exit(2)
	}
	msg := err.Error()
	if p.Explain != nil {
		msg = p.Explain(err)
	}
	fmt.Fprintf(os.Stderr, "%s: %s\n", p.Name, msg)
	os.Exit(1)
}

// Run runs the command args[0] names ("serve" without one) with the rest of args.
func (p Program) Run(ctx context.Context, args []string, stdout io.Writer) error {
	name, rest := "serve", []string(nil)
	if len(args) > 0 {
		name, rest = args[0], args[1:]
	}
	switch name {
	case "help", "-h", "-help", "--help":
		_, err := io.WriteString(stdout, p.usage())
		return err
	case "version", "-version", "--version":
		return BuildInfo().Write(stdout)
	}
	cmd, ok := p.Commands[name]
	if !ok {
		return fmt.Errorf("%w: unknown command %q", ErrUsage, name)
	}
	return cmd(ctx, rest, stdout)
}

// usage is the service's Usage and the version command every binary has.
func (p Program) usage() string {
	return p.Usage + "  " + p.Name + " version   print the version, commit and Go release\n"
}

// Leveled is a service configuration, which names its log level (config.Base does).
type Leveled interface{ Level() string }

// WithDatabase is a service configuration with a database (config.Base and config.Postgres).
type WithDatabase interface {
	Leveled
	Database() string
}

// Serve is the command that loads the configuration C from the environment and runs serve with
// it and the service's logger at C's level.
func Serve[C Leveled](name string, serve func(context.Context, C, *slog.Logger) error) Command {
	return func(ctx context.Context, _ []string, _ io.Writer) error {
		cfg, err := config.Load[C]()
		if err != nil {
			return err
		}
		return serve(ctx, cfg, logging.New(name, cfg.Level()))
	}
}

// Migrate is the command that applies the migration sets to C's database.
func Migrate[C WithDatabase](name string, sets ...postgres.Migrations) Command {
	return func(ctx context.Context, _ []string, _ io.Writer) error {
		cfg, err := config.Load[C]()
		if err != nil {
			return err
		}
		return postgres.Migrate(ctx, cfg.Database(), logging.New(name, cfg.Level()), sets...)
	}
}

// DeadLetters is the command that lists and replays the dead letters of the service's
// consumers, which deadLetters names for the cluster: the service's own Kafka settings, so the
// command acts as the service's principal.
func DeadLetters(deadLetters func(broker.Cluster) broker.DeadLetters) Command {
	return func(ctx context.Context, args []string, stdout io.Writer) error {
		cfg, err := config.Load[config.Kafka]()
		if err != nil {
			return err
		}
		cluster, err := broker.NewCluster(cfg)
		if err != nil {
			return err
		}
		return broker.RunDeadLetters(ctx, deadLetters(cluster), args, stdout)
	}
}
