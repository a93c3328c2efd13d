package admin_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/admin"
	"github.com/podiumhq/podium/libs/fault"
)

func TestExplain(t *testing.T) {
	url := serve(t)
	call := func(token, method, path string) error {
		_, err := admin.NewClient(url, token, 5*time.Second).Call(t.Context(), method, path, nil)
		return err
	}
	_, unreachable := admin.NewClient(closedURL(t), token, 5*time.Second).Call(t.Context(), http.MethodGet, "/admin/widgets", nil)

	for name, c := range map[string]struct {
		err  error
		want string
	}{
		"wrong token": {call("wrong", http.MethodGet, "/admin/widgets"), "admin API GET /admin/widgets answered 401: the operator token is invalid"},
		"bad request": {call(token, http.MethodPost, "/admin/bad"), "admin API POST /admin/bad answered 400: a must be set; b must be at most 3"},
		"conflict":    {call(token, http.MethodPost, "/admin/taken"), `"admin API POST /admin/taken answered 409: widget \"w1\x1b[2J\" is taken"`},
		"bad input": {admin.BadInput("the widget file", fault.NewInvalid("name must be set", "id \x1b[2J")),
			"the widget file has problems:\n  name must be set\n  \"id \\x1b[2J\""},
		"other": {errors.New("read widget file: no such file"), "read widget file: no such file"},
	} {
		if got := admin.Explain(c.err); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
	if got := admin.Explain(unreachable); !strings.HasPrefix(got, "the admin API is unavailable: GET /admin/widgets: ") || !strings.Contains(got, "connection refused") {
		t.Errorf("unreachable: %q", got)
	}
	if !errors.Is(admin.BadInput("the widget file", fault.NewInvalid("x")), fault.ErrInvalid) {
		t.Error("BadInput hides the failure's category")
	}
	if plain := errors.New("x"); admin.BadInput("the widget file", plain) != plain { //nolint:errorlint // the very error, unwrapped
		t.Error("BadInput changed an error without problems")
	}
}
