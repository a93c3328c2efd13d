package mailcatch_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/mail"
	"github.com/podiumhq/podium/libs/mail/mailcatch"
)

// get serves GET path from h and returns the answer's content type and body.
func get(t *testing.T, h http.Handler, path string) (string, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	return rec.Header().Get("Content-Type"), rec.Body.String()
}

func TestInboxListsMessagesNewestFirst(t *testing.T) {
	c := start(t, mailcatch.Options{})
	inbox := c.Inbox()

	_, page := get(t, inbox, "/")
	if !strings.Contains(page, "No messages yet.") {
		t.Fatalf("empty inbox:\n%s", page)
	}

	send(t, c, mail.Message{To: "ana@example.com", Subject: "Older <b>bold</b>", Body: "no links here"})
	send(t, c, mail.Message{To: "bea@example.com", Subject: "Sign in", Body: "Open https://console.podium.localhost/sign-in?token=abc&x=1.\nThanks"})

	kind, page := get(t, inbox, "/")
	if kind != "text/html; charset=utf-8" {
		t.Errorf("content type %q", kind)
	}
	for _, want := range []string{
		`<a href="https://console.podium.localhost/sign-in?token=abc&amp;x=1">https://console.podium.localhost/sign-in?token=abc&amp;x=1</a>.`,
		"Older &lt;b&gt;bold&lt;/b&gt;",
		"To bea@example.com",
		`<time datetime="2026-05-04T09:30:00Z">2026-05-04 09:30:00</time>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<b>bold") {
		t.Errorf("subject not escaped:\n%s", page)
	}
	if strings.Index(page, "Sign in") > strings.Index(page, "Older") {
		t.Errorf("newest message is not first:\n%s", page)
	}

	kind, body := get(t, inbox, "/messages")
	var msgs []map[string]any
	if err := json.Unmarshal([]byte(body), &msgs); err != nil || kind != "application/json" {
		t.Fatalf("messages %q %s: %v", kind, body, err)
	}
	if len(msgs) != 2 || msgs[0]["subject"] != "Sign in" || msgs[1]["subject"] != "Older <b>bold</b>" ||
		msgs[0]["at"] != "2026-05-04T09:30:00Z" || msgs[0]["to"].([]any)[0] != "bea@example.com" || msgs[0]["raw"] != nil {
		t.Fatalf("messages %s", body)
	}
}
