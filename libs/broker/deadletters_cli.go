package broker

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/podiumhq/podium/libs/safetext"
)

// ErrUsage marks a command line that is not understood; the services' mains answer it with
// their usage.
var ErrUsage = errors.New("usage")

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
// command line. It prints one JSON object a line to out, escaped for a terminal (writeLine).
func RunDeadLetters(ctx context.Context, d DeadLetters, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: dead-letters needs list or replay", ErrUsage)
	}
	fs := flag.NewFlagSet("dead-letters "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var sel Selection
	fs.StringVar(&sel.Topic, "topic", "", "a consumed topic or its dead-letter topic")
	fs.IntVar(&sel.Partition, "partition", -1, "the dead letter's partition")
	fs.Int64Var(&sel.Offset, "offset", -1, "the dead letter's offset")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", ErrUsage, fs.Arg(0))
	}
	if (sel.Partition >= 0) != (sel.Offset >= 0) || (sel.Offset >= 0 && sel.Topic == "") {
		return fmt.Errorf("%w: one dead letter needs --topic, --partition and --offset", ErrUsage)
	}
	sel.One = sel.Offset >= 0
	emit := func(dl DeadLetter) error { return writeLine(out, dl) }
	switch args[0] {
	case "list":
		return d.List(ctx, sel, emit)
	case "replay":
		return d.Replay(ctx, sel, emit)
	}
	return fmt.Errorf("%w: unknown dead-letters command %q", ErrUsage, args[0])
}

// writeLine prints dl as one line of JSON in which every character that could move the
// cursor, clear a line or reorder text is escaped (safetext.EscapeJSON): a dead letter's key,
// type and reason come from whoever produced the message.
func writeLine(out io.Writer, dl DeadLetter) error {
	b, err := json.Marshal(dl)
	if err != nil {
		return err
	}
	_, err = out.Write(append(safetext.EscapeJSON(b), '\n'))
	return err
}
