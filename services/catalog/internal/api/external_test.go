package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/catalog/internal/catalogtest"
	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

func TestRoutesRequireTheGatewayIdentity(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	ev := env.Import(t, orgA, catalogtest.Demo(t, "summer-throwdown")).Body["id"].(string)
	for _, op := range append(organizerOps(ev), browserOps(ev)...) {
		t.Run(op.id, func(t *testing.T) {
			r := env.Do(t, op.method, op.path, nil, nil)
			wantError(t, r, http.StatusUnauthorized, "this service is reached through the gateway only")
			checkContract(t, op.id, r)
			wantError(t, env.Do(t, op.method, op.path, nil, map[string]string{identity.Header: "forged"}), http.StatusUnauthorized, nil)
			r = env.Do(t, op.method, op.path, nil, map[string]string{identity.Header: env.Token(t, identity.Principal{KeyID: "stripe-webhook", KeyType: identity.Service})})
			wantError(t, r, http.StatusForbidden, "this route does not accept service credentials")
			checkContract(t, op.id, r)
			if r.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("refusal Cache-Control %q", r.Header.Get("Cache-Control"))
			}
		})
	}
	for _, op := range organizerOps(ev) {
		wantError(t, env.Do(t, op.method, op.path, nil, env.Publishable(t, orgA)), http.StatusForbidden, "this route does not accept publishable credentials")
	}
	for _, op := range browserOps(ev) {
		wantError(t, env.Do(t, op.method, op.path, nil, allScopes(t, env, orgA)), http.StatusForbidden, "this route does not accept secret credentials")
	}
	ops := organizerOps(ev)
	wantError(t, env.Do(t, ops[0].method, ops[0].path, nil, env.Secret(t, orgA, "pricing:read")), http.StatusForbidden, "the API key lacks the events:read scope")
	wantError(t, env.Do(t, ops[1].method, ops[1].path, nil, env.Secret(t, orgA, "pricing:read")), http.StatusForbidden, "the API key lacks the events:read scope")
	wantError(t, env.Do(t, ops[2].method, ops[2].path, nil, env.Secret(t, orgA, "events:read")), http.StatusForbidden, "the API key lacks the pricing:read scope")
}

// TestVisibilityOfEveryStatusAndFlag imports one event per status and private flag and checks
// what each surface shows of it: the organizer sees all of them; the browser only published,
// non-private ones.
func TestVisibilityOfEveryStatusAndFlag(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	events := map[string]domain.Event{}
	for _, s := range domain.Statuses {
		for _, private := range []bool{false, true} {
			ext := fmt.Sprintf("%s-%t", strings.ToLower(string(s)), private)
			r := env.Import(t, orgA, catalogtest.Event(ext, "Event "+ext, string(s), private, "categories: [{key: a, name: A, basePrice: 100}]"))
			events[r.Body["id"].(string)] = domain.Event{Status: s, Private: private, ExternalID: ext}
		}
	}
	org, pub := allScopes(t, env, orgA), env.Publishable(t, orgA)
	for id, e := range events {
		t.Run(e.ExternalID, func(t *testing.T) {
			for _, op := range organizerOps(id)[1:] {
				r := env.Do(t, op.method, op.path, nil, org)
				if r.Status != http.StatusOK {
					t.Fatalf("organizer %s: %d %s", op.id, r.Status, r.Raw)
				}
				checkContract(t, op.id, r)
			}
			for _, op := range browserOps(id)[1:] {
				r := env.Do(t, op.method, op.path, nil, pub)
				if e.Public() {
					if r.Status != http.StatusOK {
						t.Fatalf("browser %s of a public event: %d %s", op.id, r.Status, r.Raw)
					}
					checkContract(t, op.id, r)
					continue
				}
				wantError(t, r, http.StatusNotFound, "event "+id+" not found")
				checkContract(t, op.id, r)
			}
		})
	}
	search := env.Do(t, http.MethodPost, "/external/v1/browser/events/search", nil, pub)
	checkContract(t, "browserSearchEvents", search)
	if search.Status != http.StatusCreated || search.Body["total"] != 1.0 || search.Body["data"].([]any)[0].(map[string]any)["status"] != "PUBLISHED" {
		t.Fatalf("browser search: %s", search.Raw)
	}
	for _, field := range []string{"private", "externalId"} {
		if _, leaked := search.Body["data"].([]any)[0].(map[string]any)[field]; leaked {
			t.Fatalf("browser search shows %s", field)
		}
	}
	all := env.Do(t, http.MethodPost, "/external/v1/organizer/events/search", map[string]any{"limit": 100}, org)
	checkContract(t, "organizerSearchEvents", all)
	if all.Body["total"] != 14.0 || len(all.Body["data"].([]any)) != 14 {
		t.Fatalf("organizer search: %s", all.Raw)
	}
	drafts := env.Do(t, http.MethodPost, "/external/v1/organizer/events/search", map[string]any{"status": "DRAFT"}, org)
	if drafts.Body["total"] != 2.0 {
		t.Fatalf("status filter: %s", drafts.Raw)
	}
}

func TestBrowserHidesPrivateAndUnpublishedCategories(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	file := catalogtest.Event("e", "E", "PUBLISHED", false, `categories:
  - {key: open, name: Open, basePrice: 100}
  - {key: secret, name: Secret, basePrice: 100, private: true}
  - {key: later, name: Later, basePrice: 100, published: false}
formFields:
  - {key: all, label: All, type: text}
  - {key: secret-only, label: Secret only, type: text, categories: [secret, later]}
  - {key: both, label: Both, type: text, categories: [secret, open]}
promocodes:
  - {key: p, code: HIDDEN, amount: 100}
fees:
  - {key: f, name: Fee, amount: 50}`)
	created := env.Import(t, orgA, file)
	id := created.Body["id"].(string)
	cats := created.Body["categories"].([]any)
	open, secret := cats[0].(map[string]any)["id"].(string), cats[1].(map[string]any)["id"].(string)

	detail := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id, nil, env.Publishable(t, orgA))
	checkContract(t, "browserGetEvent", detail)
	if got := ids(detail.Body["categories"]); !slices.Equal(got, []string{open}) {
		t.Fatalf("browser categories %v, want only %s", got, open)
	}
	fields := detail.Body["formFields"].([]any)
	if len(fields) != 2 || fmt.Sprint(fields[1].(map[string]any)["categoryIds"]) != "["+open+"]" {
		t.Fatalf("browser form fields %v", fields)
	}
	for _, leak := range []string{secret, "HIDDEN", "internalNotes", "previewToken", "promocodes", "fees", `"private"`, `"published"`, "version", "createdAt"} {
		if strings.Contains(string(detail.Raw), leak) {
			t.Fatalf("the browser detail shows %s: %s", leak, detail.Raw)
		}
	}
	cards := env.Do(t, http.MethodGet, "/external/v1/browser/events/"+id+"/pricing-cards", nil, env.Publishable(t, orgA))
	checkContract(t, "browserGetPricingCards", cards)
	if got := ids(cards.Body["cards"]); !slices.Equal(got, []string{open}) {
		t.Fatalf("browser cards %v", got)
	}
	orgDetail := env.Do(t, http.MethodGet, "/external/v1/organizer/events/"+id, nil, allScopes(t, env, orgA))
	checkContract(t, "organizerGetEvent", orgDetail)
	if len(ids(orgDetail.Body["categories"])) != 3 || len(orgDetail.Body["formFields"].([]any)) != 3 ||
		len(orgDetail.Body["promocodes"].([]any)) != 1 || len(orgDetail.Body["fees"].([]any)) != 1 {
		t.Fatalf("organizer detail %s", orgDetail.Raw)
	}
	orgCards := env.Do(t, http.MethodGet, "/external/v1/organizer/events/"+id+"/pricing-cards", nil, allScopes(t, env, orgA))
	checkContract(t, "organizerGetPricingCards", orgCards)
	if len(ids(orgCards.Body["cards"])) != 3 || orgCards.Body["cards"].([]any)[2].(map[string]any)["published"] != false {
		t.Fatalf("organizer cards %s", orgCards.Raw)
	}
}

func TestPreviewToken(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	draft := env.Import(t, orgA, catalogtest.Event("d", "Draft", "DRAFT", true,
		"categories: [{key: a, name: A, basePrice: 100}, {key: b, name: B, basePrice: 100, private: true}]"))
	other := env.Import(t, orgA, catalogtest.Event("p", "Public", "PUBLISHED", false))
	id, token := draft.Body["id"].(string), draft.Body["previewToken"].(string)
	pub := env.Publishable(t, orgA)
	for _, op := range browserOps(id)[1:] {
		r := env.Do(t, op.method, op.path+"?previewToken="+token, nil, pub)
		if r.Status != http.StatusOK || r.Header.Get("Cache-Control") != "private, no-store" || r.Header.Get("ETag") != "" {
			t.Fatalf("%s with the token: %d %v %s", op.id, r.Status, r.Header, r.Raw)
		}
		checkContract(t, op.id, r)
		list := r.Body["categories"]
		if list == nil {
			list = r.Body["cards"]
		}
		if len(list.([]any)) != 1 || strings.Contains(string(r.Raw), token) {
			t.Fatalf("%s preview is not the public subset: %s", op.id, r.Raw)
		}
		for _, bad := range []string{"prv_wrong", token + "x", other.Body["previewToken"].(string)} {
			wantError(t, env.Do(t, op.method, op.path+"?previewToken="+bad, nil, pub), http.StatusNotFound, "event "+id+" not found")
		}
		// The token of another organizer's event is no key to it either.
		wantError(t, env.Do(t, op.method, op.path+"?previewToken="+token, nil, env.Publishable(t, orgB)), http.StatusNotFound, nil)
		// A wrong token on a public event is a 404 too: the answer does not depend on the token's
		// correctness in any other way.
		oid := other.Body["id"].(string)
		wantError(t, env.Do(t, op.method, strings.Replace(op.path, id, oid, 1)+"?previewToken=prv_wrong", nil, pub), http.StatusNotFound, nil)
	}
	// Searches never use preview tokens.
	r := env.Do(t, http.MethodPost, "/external/v1/browser/events/search?previewToken="+token, nil, pub)
	if r.Body["total"] != 1.0 {
		t.Fatalf("search with a token: %s", r.Raw)
	}
}

func TestAnotherOrganizersEventIsNotFound(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	id := env.Import(t, orgA, catalogtest.Demo(t, "summer-throwdown")).Body["id"].(string)
	env.Import(t, orgB, catalogtest.Event("b", "Beta's", "PUBLISHED", false))
	for _, op := range organizerOps(id)[1:] {
		r := env.Do(t, op.method, op.path, nil, allScopes(t, env, orgB))
		wantError(t, r, http.StatusNotFound, "event "+id+" not found")
		checkContract(t, op.id, r)
		wantError(t, env.Do(t, op.method, strings.Replace(op.path, id, "evt_unknown", 1), nil, allScopes(t, env, orgA)),
			http.StatusNotFound, "event evt_unknown not found")
	}
	for _, op := range browserOps(id)[1:] {
		wantError(t, env.Do(t, op.method, op.path, nil, env.Publishable(t, orgB)), http.StatusNotFound, "event "+id+" not found")
	}
	for _, op := range []external{organizerOps(id)[0], browserOps(id)[0]} {
		h := allScopes(t, env, orgB)
		if strings.HasPrefix(op.id, "browser") {
			h = env.Publishable(t, orgB)
		}
		r := env.Do(t, op.method, op.path, map[string]any{"search": "summer"}, h)
		checkContract(t, op.id, r)
		if r.Status != http.StatusCreated || r.Body["total"] != 0.0 {
			t.Fatalf("%s of another organizer found %s", op.id, r.Raw)
		}
	}
}

func TestSearchPaging(t *testing.T) {
	env := catalogtest.Start(t, catalogtest.Options{})
	for i := range 53 {
		file := strings.Replace(catalogtest.Event(fmt.Sprintf("e%02d", i), fmt.Sprintf("Event %02d", i), "PUBLISHED", false),
			"startDate: 2027-06-12\nendDate: 2027-06-13", fmt.Sprintf("startDate: 2027-01-%02d\nendDate: 2027-01-%02d", i%28+1, i%28+1), 1)
		env.Import(t, orgA, file)
	}
	for _, surface := range []struct {
		id, path string
		h        map[string]string
	}{
		{"organizerSearchEvents", "/external/v1/organizer/events/search", allScopes(t, env, orgA)},
		{"browserSearchEvents", "/external/v1/browser/events/search", env.Publishable(t, orgA)},
	} {
		t.Run(surface.id, func(t *testing.T) {
			def := env.Do(t, http.MethodPost, surface.path, "", surface.h)
			checkContract(t, surface.id, def)
			if def.Status != http.StatusCreated || def.Body["limit"] != 50.0 || def.Body["offset"] != 0.0 || def.Body["total"] != 53.0 ||
				len(def.Body["data"].([]any)) != 50 || def.Header.Get("Cache-Control") != "no-store" || def.Header.Get("ETag") != "" {
				t.Fatalf("defaults: %d limit %v offset %v total %v, %v", def.Status, def.Body["limit"], def.Body["offset"], def.Body["total"], def.Header)
			}
			last := env.Do(t, http.MethodPost, surface.path, map[string]any{"limit": 100, "offset": 50}, surface.h)
			if len(last.Body["data"].([]any)) != 3 || last.Body["limit"] != 100.0 {
				t.Fatalf("last page %s", last.Raw)
			}
			var seen []string
			for offset := 0; offset < 53; offset += 10 {
				page := env.Do(t, http.MethodPost, surface.path, map[string]any{"limit": 10, "offset": offset}, surface.h)
				for _, e := range page.Body["data"].([]any) {
					seen = append(seen, e.(map[string]any)["startDate"].(string)+"/"+e.(map[string]any)["id"].(string))
				}
			}
			if len(seen) != 53 || !slices.IsSorted(seen) {
				t.Fatalf("pages are not the events in start-date then id order: %v", seen)
			}
			beyond := env.Do(t, http.MethodPost, surface.path, map[string]any{"offset": 9007199254740991}, surface.h)
			if len(beyond.Body["data"].([]any)) != 0 || beyond.Body["total"] != 53.0 {
				t.Fatalf("offset at the bound: %s", beyond.Raw)
			}
			for body, want := range map[string]string{
				`{"limit":0}`:                 "limit must be an integer from 1 to 100",
				`{"limit":101}`:               "limit must be an integer from 1 to 100",
				`{"offset":-1}`:               "offset must be an integer from 0 to 9007199254740991",
				`{"offset":9007199254740992}`: "offset must be an integer from 0 to 9007199254740991",
				`{"search":"` + strings.Repeat("x", 101) + `"}`: "search must be at most 100 characters long",
			} {
				r := env.Do(t, http.MethodPost, surface.path, body, surface.h)
				wantError(t, r, http.StatusBadRequest, []any{want})
				checkContract(t, surface.id, r)
			}
			wantError(t, env.Do(t, http.MethodPost, surface.path, `{"limit":"ten"}`, surface.h), http.StatusBadRequest,
				[]any{"body must be a valid JSON object of the documented shape"})
		})
	}
	wantError(t, env.Do(t, http.MethodPost, "/external/v1/browser/events/search", `{"status":"DRAFT"}`, env.Publishable(t, orgA)),
		http.StatusBadRequest, []any{"status is not allowed"})
}
