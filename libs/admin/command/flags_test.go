package command_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/admin/command"
)

func TestFlags(t *testing.T) {
	parse := func(args ...string) (*command.Flags, *string, command.Page, error) {
		f := command.NewFlags("key list")
		org, page := f.Required("organizer", "organizer id"), f.Page()
		return f, org, page, f.Parse(args)
	}
	_, org, page, err := parse("--organizer", "org_1", "--limit", "5")
	if err != nil || *org != "org_1" || page.Query() != "?limit=5&offset=0" {
		t.Fatalf("parsed %q %q %v", *org, page.Query(), err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "usage: key list: --organizer is required"},
		{[]string{"--organizer", " "}, "usage: key list: --organizer is required"},
		{[]string{"--organizer", "o", "extra"}, `usage: key list: unexpected argument "extra"`},
		{[]string{"-x"}, "usage: key list: flag provided but not defined: -x"},
	} {
		if _, _, _, err := parse(c.args...); !errors.Is(err, command.ErrUsage) || err.Error() != c.want {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}

	f := command.NewFlags("refunds retry")
	all := f.Bool("all", false, "every one")
	if ids, err := f.ParseArgs([]string{"chk_1", "chk_2"}); err != nil || fmt.Sprint(ids) != "[chk_1 chk_2]" || *all {
		t.Fatalf("arguments %v %v", ids, err)
	}
	if _, err := command.NewFlags("refunds retry").ParseArgs([]string{"chk_1", "--all"}); !errors.Is(err, command.ErrUsage) ||
		!strings.Contains(err.Error(), `flags go before the arguments: "--all"`) {
		t.Fatalf("a flag after an argument: %v", err)
	}
	if err := f.Refuse("needs %s", "ids"); !errors.Is(err, command.ErrUsage) || err.Error() != "usage: refunds retry: needs ids" {
		t.Fatalf("Refuse: %v", err)
	}
	if got := fmt.Sprint(command.SplitList(" a, ,b,")); got != "[a b]" {
		t.Fatalf("SplitList: %s", got)
	}
}
