package command_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/admin/command"
)

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
