package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/apispec"
)

func TestOpenAPIDocumentIsServed(t *testing.T) {
	res := do(t, req{"GET", gw("/openapi.json"), nil, nil})
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
	}
	if res.status != 200 || json.Unmarshal(res.body, &doc) != nil || doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.0" {
		t.Fatalf("GET openapi.json: %d %.200s", res.status, res.body)
	}
	if string(res.body) != string(apispec.Document()) {
		t.Fatal("the served document differs from the embedded one")
	}
	etag := res.header.Get("ETag")
	if again := do(t, req{"GET", gw("/openapi.json"), map[string]string{"If-None-Match": etag}, nil}); etag == "" || again.status != 304 {
		t.Fatalf("conditional GET with ETag %q: %d", etag, again.status)
	}
}

// TestBodiesAreValidatedAtTheEdge sends invalid bodies through the gateway and checks every
// problem is reported by field path, in the standard error body.
func TestBodiesAreValidatedAtTheEdge(t *testing.T) {
	v, err := apispec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path string
		headers    map[string]string
		body       any
		problems   []string
	}{
		{"events search bounds", "/organizer/events/search", secret(demo.SecretAll.Key),
			map[string]any{"limit": 0, "offset": -1}, []string{"limit must be at least 1", "offset must be at least 0"}},
		{"registration athletes", "/organizer/registrations", secret(demo.SecretAll.Key),
			map[string]any{"eventId": "evt_1", "categoryId": "cat_1", "teamName": "T", "athletes": []any{map[string]any{
				"fullname": "A", "idNumber": "1", "email": ".a@b.co", "phone": "+0123", "gender": "MALE", "birthDate": "2023-02-29"}}},
			[]string{"athletes[0].birthDate must be a real calendar date", "athletes[0].email", "athletes[0].phone must be in E.164 form"}},
		{"receipt e-mail", "/browser/events/evt_1/registration-receipts/lookup", browser(demo.Publishable.Key, "http://localhost:5173"),
			map[string]any{"email": "not-an-email"}, []string{"email"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, req{"POST", gw(tc.path), tc.headers, tc.body})
			for _, p := range tc.problems {
				wantError(t, res, 400, p)
			}
			var b errorBody
			_ = json.Unmarshal(res.body, &b)
			if _, ok := b.Message.([]any); !ok {
				t.Fatalf("validation message is not a list of problems: %s", res.body)
			}
			if err := v.ValidateResponse(opFor(tc.path), 400, res.body); err != nil {
				t.Fatalf("error body does not match the document: %v", err)
			}
			wantCode(t, res, 400, "validation_failed")
			var structured struct {
				Problems []struct{ Path, Code, Message string }
			}
			_ = json.Unmarshal(res.body, &structured)
			for _, p := range structured.Problems {
				if p.Path == "" || !strings.HasPrefix(p.Message, p.Path+" ") || p.Code == "" {
					t.Fatalf("problem %+v does not name its path and code", p)
				}
			}
		})
	}
	wantCode(t, do(t, req{"POST", gw("/organizer/events/search"), map[string]string{"Authorization": "Bearer " + demo.SecretAll.Key, "Content-Type": "text/plain"}, "limit=5"}),
		415, "unsupported_media_type")
	wantError(t, do(t, req{"POST", gw("/organizer/events/search"), map[string]string{"Authorization": "Bearer " + demo.SecretAll.Key, "Content-Type": "text/plain"}, "limit=5"}),
		415, "application/json")
}

func opFor(path string) string {
	switch path {
	case "/organizer/events/search":
		return "organizerSearchEvents"
	case "/organizer/registrations":
		return "organizerCreateRegistration"
	}
	return "browserLookupReceipts"
}
