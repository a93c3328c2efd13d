package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestEventSearchPagingDefaultsAndBounds checks the spec's limits on both surfaces: limit 1 to
// 100 (default 50), offset 0 to 9007199254740991 (default 0), search at most 100 characters.
func TestEventSearchPagingDefaultsAndBounds(t *testing.T) {
	tn := newTenant(t)
	for i := range 3 {
		tn.importEvent(t, catalogEvent(fmt.Sprintf("paging-%d", i), "PUBLISHED", false))
	}
	for _, sf := range tn.surfaces() {
		t.Run(sf.name, func(t *testing.T) {
			search := func(body any) response { return send(t, sf.call("POST", "/events/search", body)) }

			var page eventPage
			decodeOK(t, search(map[string]any{}), 201, sf.op("SearchEvents"), &page)
			if page.Limit != 50 || page.Offset != 0 || page.Total != 3 || len(page.Data) != 3 {
				t.Fatalf("defaults: %+v, want limit 50, offset 0 and the 3 events", page)
			}
			seen := map[string]bool{}
			for offset := range 3 {
				var one eventPage
				decodeOK(t, search(map[string]any{"limit": 1, "offset": offset}), 201, sf.op("SearchEvents"), &one)
				if one.Total != 3 || len(one.Data) != 1 || seen[one.Data[0].ID] {
					t.Fatalf("page at offset %d: %+v (seen %v)", offset, one, seen)
				}
				seen[one.Data[0].ID] = true
			}
			for _, body := range []any{
				map[string]any{"limit": 100}, map[string]any{"offset": 9007199254740991}, map[string]any{"search": strings.Repeat("a", 100)},
				`{"limit": 2.0, "offset": 1e0}`, // integers in the schema's sense
			} {
				decodeOK(t, search(body), 201, sf.op("SearchEvents"), nil)
			}

			for _, tc := range []struct {
				body    map[string]any
				problem string
			}{
				{map[string]any{"limit": 0}, "limit must be at least 1"},
				{map[string]any{"limit": 101}, "limit must be at most 100"},
				{map[string]any{"limit": 2.5}, "limit"},
				{map[string]any{"offset": -1}, "offset must be at least 0"},
				{map[string]any{"offset": 9007199254740992}, "offset must be at most 9007199254740991"},
				{map[string]any{"search": strings.Repeat("a", 101)}, "search"},
				// The services' decoder would read LIMIT for limit.
				{map[string]any{"limit": 10, "LIMIT": 100000}, "LIMIT is given more than once"},
			} {
				res := search(tc.body)
				wantError(t, res, 400, tc.problem)
				conforms(t, sf.op("SearchEvents"), res)
			}
		})
	}
	wantError(t, send(t, tn.organizer("POST", "/events/search", map[string]any{"status": "LIVE"})), 400, "status")
}
