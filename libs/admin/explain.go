package admin

import (
	"errors"
	"strings"

	"github.com/podiumhq/podium/libs/admin/command"
	"github.com/podiumhq/podium/libs/fault"
)

// Explain says why an operator command failed, as an operator reads it: what was refused
// before it was sent (BadInput), its problems one a line; the request and the admin API's
// answer (its status and messages); or why the API could not be reached. It is escaped like
// the output (command.Text), since an answer may quote what was sent.
func Explain(err error) string {
	var bad *badInput
	if errors.As(err, &bad) {
		lines := make([]string, len(bad.problems))
		for i, p := range bad.problems {
			lines[i] = command.Text(p)
		}
		return bad.what + " has problems:\n  " + strings.Join(lines, "\n  ")
	}
	f, ok := fault.Of(err)
	switch {
	case !ok || f.Err == nil:
		return command.Text(err.Error())
	case f.Kind == fault.Unavailable:
		return command.Text("the " + name + " is unavailable: " + f.Err.Error())
	}
	return command.Text(f.Err.Error())
}

// BadInput is err, when it lists problems of what a command was given (a *fault.Error with
// problems), as a refusal found before anything was sent: Explain prints its problems one a
// line under "<what> has problems". Any other err is returned as it is.
func BadInput(what string, err error) error {
	f, ok := fault.Of(err)
	if !ok || len(f.Problems) == 0 {
		return err
	}
	return &badInput{what: what, problems: f.Problems, err: err}
}

type badInput struct {
	what     string
	problems []string
	err      error
}

func (b *badInput) Error() string { return b.what + " has problems: " + strings.Join(b.problems, "; ") }
func (b *badInput) Unwrap() error { return b.err }
