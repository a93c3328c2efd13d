package e2e

import "testing"

// TestRefusalsNameTheirCode checks the codes of refusals no other test asserts, through the
// gateway and the owners (every answer of the suite is also held to the document's list of
// codes by do).
func TestRefusalsNameTheirCode(t *testing.T) {
	s := newShop(t, "PUBLISHED")
	offSite := s.purchase("Team Elsewhere")
	offSite["successUrl"] = "https://elsewhere.example/thanks"
	terms := s.purchase("Team Terms")
	terms["termsAccepted"] = false
	cases := []struct {
		name   string
		res    response
		status int
		code   string
	}{
		{"a redirect off the key's origins", s.post(t, "session", offSite), 400, "redirect_not_allowed"},
		{"terms not accepted", s.post(t, "session", terms), 422, "rule_violated"},
		{"no such operation", send(t, s.organizer("GET", "/nowhere", nil)), 404, "route_not_found"},
		{"an operation's path with another method", send(t, s.organizer("DELETE", "/events/search", nil)), 405, "method_not_allowed"},
		{"an unknown event", send(t, s.organizer("GET", "/events/evt_nowhere", nil)), 404, "not_found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { wantCode(t, tc.res, tc.status, tc.code) })
	}
}
