package broker

import (
	"context"
	"io"
	"strings"

	"github.com/podiumhq/podium/libs/admin/command"
)

// DeadLettersUsage returns the usage of service's dead-letters command.
func DeadLettersUsage(service string) string {
	return strings.ReplaceAll(`
Dead letters of svc's consumers (Kafka from KAFKA_BROKERS and the other KAFKA_ settings):

  svc dead-letters list [--topic <topic>] [--partition <n> --offset <n>]
                   print the dead letters of svc's consumers (svc.<topic>.dead-letter),
                   one JSON object a line, without consuming them ("replayed" tells
                   whether one was replayed)
  svc dead-letters replay [--topic <topic>] [--partition <n> --offset <n>]
                   republish every dead letter not replayed yet (or the one at --partition
                   and --offset of svc.<topic>.dead-letter) to svc's consumers of its
                   original topic (through svc.replays) and remember it, so a second replay
                   does not repeat it; prints each replayed
`, "svc", service)
}

// RunDeadLetters runs the dead-letters command: args are what follows "dead-letters" on the
// command line. It prints one JSON object a line to out, escaped for a terminal
// (command.JSONLine): a dead letter's key, type and reason come from whoever produced it.
func RunDeadLetters(ctx context.Context, d DeadLetters, args []string, out io.Writer) error {
	return deadLetterCommands.Run(ctx, d, args, out)
}

var deadLetterCommands = command.Set[DeadLetters]{
	"list": func(ctx context.Context, d DeadLetters, args []string, out io.Writer) error {
		sel, err := selection("dead-letters list", args)
		if err != nil {
			return err
		}
		return d.List(ctx, sel, printTo(out))
	},
	"replay": func(ctx context.Context, d DeadLetters, args []string, out io.Writer) error {
		sel, err := selection("dead-letters replay", args)
		if err != nil {
			return err
		}
		return d.Replay(ctx, sel, printTo(out))
	},
}

// selection reads the dead letters a command is about from its flags.
func selection(name string, args []string) (Selection, error) {
	f := command.NewFlags(name)
	var sel Selection
	f.StringVar(&sel.Topic, "topic", "", "a consumed topic or its dead-letter topic")
	f.IntVar(&sel.Partition, "partition", -1, "the dead letter's partition")
	f.Int64Var(&sel.Offset, "offset", -1, "the dead letter's offset")
	if err := f.Parse(args); err != nil {
		return sel, err
	}
	if (sel.Partition >= 0) != (sel.Offset >= 0) || (sel.Offset >= 0 && sel.Topic == "") {
		return sel, f.Refuse("one dead letter needs --topic, --partition and --offset")
	}
	sel.One = sel.Offset >= 0
	return sel, nil
}

func printTo(out io.Writer) func(DeadLetter) error {
	return func(dl DeadLetter) error { return command.JSONLine(out, dl) }
}
