package mailcatch

import (
	"encoding/json"
	"html/template"
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// Inbox serves the kept messages, newest first: GET / as an HTML page whose links in bodies
// can be clicked, GET /messages as JSON.
func (c *Catcher) Inbox() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = inboxPage.Execute(w, inboxView(c.newestFirst()))
	})
	mux.HandleFunc("GET /messages", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(c.newestFirst())
	})
	return mux
}

func (c *Catcher) newestFirst() []Message {
	msgs := c.Messages()
	slices.Reverse(msgs)
	return msgs
}

// urlPattern finds web addresses in a body; trailing punctuation ends a sentence, not the URL.
var urlPattern = regexp.MustCompile(`https?://[^\s<>"']*[^\s<>"'.,;:!?)\]]`)

// bodyPart is a run of a body's text, a link when URL is set.
type bodyPart struct{ Text, URL string }

// messageView is a message as the inbox page shows it.
type messageView struct {
	Message
	Parts []bodyPart
}

func inboxView(msgs []Message) []messageView {
	views := make([]messageView, len(msgs))
	for i, m := range msgs {
		views[i] = messageView{Message: m, Parts: linkParts(m.Body)}
	}
	return views
}

// linkParts splits body into plain text and the URLs within it.
func linkParts(body string) []bodyPart {
	var parts []bodyPart
	rest := 0
	for _, loc := range urlPattern.FindAllStringIndex(body, -1) {
		if loc[0] > rest {
			parts = append(parts, bodyPart{Text: body[rest:loc[0]]})
		}
		u := body[loc[0]:loc[1]]
		parts = append(parts, bodyPart{Text: u, URL: u})
		rest = loc[1]
	}
	if rest < len(body) {
		parts = append(parts, bodyPart{Text: body[rest:]})
	}
	return parts
}

var inboxPage = template.Must(template.New("inbox").Funcs(template.FuncMap{"join": strings.Join}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Mail inbox ({{len .}})</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
article { border: 1px solid #ccc; border-radius: 6px; padding: 0.5rem 1rem; margin-bottom: 1rem; }
h2 { font-size: 1.1rem; margin: 0.5rem 0; }
.meta { color: #666; font-size: 0.9rem; }
pre { white-space: pre-wrap; word-break: break-word; }
</style>
</head>
<body>
<h1>Mail inbox</h1>
<p class="meta">{{len .}} message(s), newest first. Reload to see new ones; <a href="messages">JSON</a>.</p>
{{range .}}<article>
<h2>{{.Subject}}</h2>
<p class="meta">To {{join .To ", "}} · from {{.From}} · <time datetime="{{.At.Format "2006-01-02T15:04:05Z07:00"}}">{{.At.Format "2006-01-02 15:04:05"}}</time></p>
<pre>{{range .Parts}}{{if .URL}}<a href="{{.URL}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}</pre>
</article>
{{else}}<p>No messages yet.</p>
{{end}}</body>
</html>
`))
