package command_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/podiumhq/podium/libs/admin/command"
)

func TestSetRunsTheCommandArgsName(t *testing.T) {
	record := func(name string) command.Func[*[]string] {
		return func(_ context.Context, got *[]string, args []string, _ io.Writer) error {
			*got = append([]string{name}, args...)
			return nil
		}
	}
	set := command.Set[*[]string]{"import": record("import"), "events list": record("events list"), "events": record("events")}
	for _, c := range []struct{ args, want []string }{
		{[]string{"import", "--file", "a"}, []string{"import", "--file", "a"}},
		{[]string{"events", "list", "--limit", "1"}, []string{"events list", "--limit", "1"}},
		{[]string{"events", "--all"}, []string{"events", "--all"}},
	} {
		var got []string
		if err := set.Run(t.Context(), &got, c.args, io.Discard); err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%v ran %v (%v), want %v", c.args, got, err, c.want)
		}
	}
	for _, args := range [][]string{nil, {"export"}, {"key", "create"}} {
		var got []string
		if err := set.Run(t.Context(), &got, args, io.Discard); !errors.Is(err, command.ErrUsage) || got != nil {
			t.Errorf("%v: %v, ran %v, want a usage error", args, err, got)
		}
	}
}
