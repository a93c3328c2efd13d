package testkit_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
)

func TestDoSendsJSONAndDecodesTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Seen", r.Header.Get("Content-Type")+" "+r.Header.Get("X-Key"))
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"echo":` + string(b) + `}`))
	}))
	defer srv.Close()
	r := testkit.Do(t, http.MethodPost, srv.URL, map[string]int{"n": 1}, map[string]string{"X-Key": "k"})
	if r.Status != http.StatusCreated || r.Header.Get("X-Seen") != "application/json k" {
		t.Fatalf("got %d %v", r.Status, r.Header)
	}
	echo, _ := r.Body["echo"].(map[string]any)
	if echo["n"] != float64(1) {
		t.Fatalf("body %s", r.Raw)
	}
	if r := testkit.Do(t, http.MethodPost, srv.URL, `"as is"`, nil); string(r.Raw) != `{"echo":"as is"}` {
		t.Fatalf("a string body was not sent as it is: %s", r.Raw)
	}
}

func TestBackgroundStopsWithTheTest(t *testing.T) {
	stopped := make(chan error, 1)
	t.Run("inner", func(t *testing.T) {
		testkit.Background(t, func(ctx context.Context) error {
			<-ctx.Done()
			stopped <- ctx.Err()
			return nil
		})
	})
	if err := <-stopped; !errors.Is(err, context.Canceled) {
		t.Fatalf("the worker stopped with %v", err)
	}
}
