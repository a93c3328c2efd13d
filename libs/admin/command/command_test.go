package command_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
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

func TestPrintListEscapesEveryCell(t *testing.T) {
	row := func(s []string) []string { return s }
	var out bytes.Buffer
	l := command.List[[]string]{Data: [][]string{{"k1", "a\nforged row"}, {"k2", "b\u202e"}}, Total: 7, Offset: 2}
	if err := command.PrintList(&out, l, []string{"ID", "NAME"}, row); err != nil {
		t.Fatal(err)
	}
	if want := "ID  NAME\nk1  \"a\\nforged row\"\nk2  \"b\\u202e\"\nTotal: 7 (showing 3-4)\n"; out.String() != want {
		t.Fatalf("table\n%q\nwant\n%q", out.String(), want)
	}
	for want, l := range map[string]command.List[[]string]{
		"ID  NAME\nTotal: 0\n":                           {},
		"ID  NAME\nTotal: 7 (none shown at offset 50)\n": {Total: 7, Offset: 50},
	} {
		out.Reset()
		if err := command.PrintList(&out, l, []string{"ID", "NAME"}, row); err != nil || out.String() != want {
			t.Errorf("empty page printed %q (%v), want %q", out.String(), err, want)
		}
	}
}

func TestJSONOutputIsEscaped(t *testing.T) {
	var out bytes.Buffer
	if err := command.JSON(&out, []byte(`{"name":"a\u001b[2J`+"\u202e"+`"}`)); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"name\": \"a\\u001b[2J\\u202e\"\n}\n"; out.String() != want {
		t.Fatalf("JSON printed %q, want %q", out.String(), want)
	}
	if err := command.JSON(&out, []byte(`{"name"`)); err == nil {
		t.Fatal("JSON printed invalid JSON")
	}
	out.Reset()
	v := map[string]string{"message": "refused\u202e\u009b2J"}
	if err := command.JSONLine(&out, v); err != nil {
		t.Fatal(err)
	}
	var back map[string]string
	if strings.ContainsAny(out.String(), "\u202e\u009b") || strings.Count(out.String(), "\n") != 1 ||
		json.Unmarshal(out.Bytes(), &back) != nil || back["message"] != v["message"] {
		t.Fatalf("JSONLine printed %q", out.String())
	}
}
