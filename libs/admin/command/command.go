// Package command is what the services' operator commands share: a set of commands dispatched
// by name, their flags, and their output (tables, summaries and JSON), every text escaped for a
// terminal (libs/safetext) so that no stored name can forge or hide a line.
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrUsage marks a command line that is not understood: a binary answers it with its usage.
var ErrUsage = errors.New("usage")

// Func runs one command on d with the arguments that follow the command's name, writing its
// result to out.
type Func[D any] func(ctx context.Context, d D, args []string, out io.Writer) error

// Set is a command line's commands by name, of one word ("import") or two ("key create").
type Set[D any] map[string]Func[D]

// Run runs the command args name, a two-word name before a one-word one; a command line
// naming none is an ErrUsage.
func (s Set[D]) Run(ctx context.Context, d D, args []string, out io.Writer) error {
	if len(args) >= 2 {
		if f, ok := s[args[0]+" "+args[1]]; ok {
			return f(ctx, d, args[2:], out)
		}
	}
	if len(args) >= 1 {
		if f, ok := s[args[0]]; ok {
			return f(ctx, d, args[1:], out)
		}
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: expected a command", ErrUsage)
	}
	return fmt.Errorf("%w: unknown command %q", ErrUsage, strings.Join(args[:min(2, len(args))], " "))
}
