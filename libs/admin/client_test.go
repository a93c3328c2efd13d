package admin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/admin/command"
)

func TestShowPrintsTheAnswerEscaped(t *testing.T) {
	c := admin.NewClient(serve(t), token, 5*time.Second)
	printWidgets := func(out io.Writer, l command.List[widget]) error {
		return command.PrintList(out, l, []string{"ID", "NAME"}, func(w widget) []string { return []string{w.ID, w.Name} })
	}
	var out bytes.Buffer
	if err := admin.Show(t.Context(), c, &out, false, http.MethodGet, "/admin/widgets", nil, printWidgets); err != nil {
		t.Fatal(err)
	}
	if want := "ID  NAME\nw1  \"Bolt\\n2026 forged\\x1b[2J\"\nTotal: 3 (showing 2-2)\n"; out.String() != want {
		t.Fatalf("table\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	if err := admin.Show(t.Context(), c, &out, true, http.MethodGet, "/admin/widgets", nil, printWidgets); err != nil {
		t.Fatal(err)
	}
	var l command.List[widget]
	if strings.Contains(out.String(), "\x1b") || json.Unmarshal(out.Bytes(), &l) != nil || l.Data[0].Name != "Bolt\n2026 forged\x1b[2J" ||
		!strings.HasPrefix(out.String(), "{\n  \"data\": [") {
		t.Fatalf("--json printed %q", out.String())
	}
}

// TestCallKeepsEachAnswersHeader: concurrent calls of one client each get their own answer's
// header.
func TestCallKeepsEachAnswersHeader(t *testing.T) {
	c := admin.NewClient(serve(t), token, 5*time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			id := fmt.Sprintf("w%d", i)
			a, err := c.Call(t.Context(), http.MethodPut, "/admin/widgets/"+id, "body")
			var w widget
			switch {
			case err != nil:
				errs <- err
			case a.Header.Get("Widget-Result") != "created "+id || json.Unmarshal(a.Body, &w) != nil || w.ID != id || w.Name != `"body"`:
				errs <- fmt.Errorf("call %s answered %q %s", id, a.Header.Get("Widget-Result"), a.Body)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestOperator: the commands read the admin API's address and token from the service's
// environment, the address defaulting, and run under the resource they were given.
func TestOperator(t *testing.T) {
	url := serve(t)
	list := command.Set[*admin.Client]{"widgets list": func(ctx context.Context, c *admin.Client, args []string, out io.Writer) error {
		a, err := c.Call(ctx, http.MethodGet, "/admin/widgets", nil)
		if err == nil {
			_, err = fmt.Fprintf(out, "%d bytes %v", len(a.Body), args)
		}
		return err
	}}
	var out bytes.Buffer
	t.Setenv("SHOP_OPERATOR_TOKEN", token)
	t.Setenv("SHOP_ADMIN_URL", "")
	if err := admin.Operator("shop", url, list)("widgets")(t.Context(), []string{"list"}, &out); err != nil || !strings.HasSuffix(out.String(), " bytes []") {
		t.Fatalf("at the default address: %v %q", err, out.String())
	}
	t.Setenv("SHOP_ADMIN_URL", url)
	if err := admin.Operator("shop", "http://127.0.0.1:1", list)("widgets")(t.Context(), []string{"list"}, &out); err != nil {
		t.Fatalf("at SHOP_ADMIN_URL: %v", err)
	}
	if err := admin.Operator("shop", url, list)("gadgets")(t.Context(), []string{"list"}, &out); !errors.Is(err, command.ErrUsage) {
		t.Fatalf("an unknown resource: %v, want a usage error", err)
	}
	t.Setenv("SHOP_OPERATOR_TOKEN", "")
	if _, err := admin.FromEnv("shop", url); err == nil || !strings.Contains(err.Error(), "SHOP_OPERATOR_TOKEN is required") {
		t.Fatalf("without a token: %v", err)
	}
}
