package console_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/services/auth/internal/authtest"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// TestAMemberWhoStaysSignedInStaysAKnownBrowser: the console remembers a member's browser from
// its last use, not from its sign-in alone. A member who signed in 29 days ago and used the
// console yesterday is still a known browser 40 days after signing in; one who keeps using the
// session is remembered past the 180 days of memory counted from the sign-in; half a year after
// the last use the browser is forgotten. A known browser gets its link while a stranger keeps
// the address's links spent; a forgotten one is bound like any other.
func TestAMemberWhoStaysSignedInStaysAKnownBrowser(t *testing.T) {
	const day = 24 * time.Hour
	env := authtest.Start(t, authtest.Options{SignInPerEmail: 1, SessionTTL: 90 * day})
	signedIn := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	env.Clock.Set(signedIn)
	acme := newOrg(t, env, "Acme Races", "acme.test")
	laptop := newBrowser(t, env)
	laptop.signIn(acme.owner)
	binding := laptop.cookies["__Host-podium-browser"]

	// known reports whether, on day n after the sign-in and once the janitor swept, the laptop
	// gets a link for the owner after a stranger spent the address's link of the window.
	known := func(n int) bool {
		t.Helper()
		env.Clock.Set(signedIn.Add(time.Duration(n) * day))
		if _, err := env.Console.Sweep(t.Context()); err != nil {
			t.Fatal(err)
		}
		stranger := newBrowser(t, env)
		stranger.address = "198.51.100.9"
		stranger.ask(acme.owner)
		before := len(mailed(env, acme.owner))
		laptop.ask(acme.owner)
		return len(mailed(env, acme.owner)) > before
	}
	// use opens the API tab on day n after the sign-in.
	use := func(n int) page {
		t.Helper()
		env.Clock.Set(signedIn.Add(time.Duration(n) * day))
		p := laptop.get("/orgs/" + acme.id + "/api")
		if p.status != http.StatusOK {
			t.Fatalf("the owner's API tab on day %d: %d", n, p.status)
		}
		return p
	}

	yesterday := use(28)
	if again := use(28); again.set["__Host-podium-browser"] != nil {
		t.Fatal("a use within the minute of the last recorded one renewed the binding cookie again")
	}
	if !known(40) {
		t.Fatal("40 days after signing in, having used the console on day 28, the owner's browser is treated as a stranger's")
	}
	renewed := yesterday.set["__Host-podium-browser"]
	if renewed == nil || renewed.Value != binding || renewed.MaxAge != int(180*day/time.Second) {
		t.Fatalf("using the console renewed the browser's binding cookie as %+v, want its value %q for 180 days", renewed, binding)
	}
	marker := yesterday.set["__Host-podium-known"]
	if marker == nil || marker.MaxAge != int(180*day/time.Second) {
		t.Fatalf("using the console renewed the browser's marker as %+v, want it for 180 days", marker)
	}
	if _, ok := domain.KnownBrowser([]byte(authtest.CookieKey), marker.Value, domain.HashToken(binding), signedIn.Add(28*day+179*day)); !ok {
		t.Fatal("the marker renewed on day 28 does not vouch for the browser 179 days later")
	}

	use(89)
	if !known(89 + 179) {
		t.Fatal("179 days after the last use of its session (268 after signing in), the owner's browser is forgotten")
	}
	if known(89 + 181) {
		t.Fatal("181 days after the last use of its session, the owner's browser is still known")
	}
}

// TestARevokedSessionsBrowserIsForgotten: once the member's session in a browser is revoked
// (from another of their browsers, or by signing out there), the console no longer remembers
// that browser as theirs: while a stranger keeps the address's links spent, it gets none, like
// any stranger's, whoever holds it now. The member's other browser is still known.
func TestARevokedSessionsBrowserIsForgotten(t *testing.T) {
	env := authtest.Start(t, authtest.Options{SignInPerEmail: 1})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	laptop, phone := newBrowser(t, env), newBrowser(t, env)
	phone.address = "198.51.100.7"
	laptop.signIn(acme.owner)
	env.Clock.Advance(authtest.SignInWindow) // the address's link of the window is spent
	phone.signIn(acme.owner)
	// getsLink reports whether b gets a link for the owner in a new window, after a stranger spent
	// the address's link of that window.
	getsLink := func(b *browser) bool {
		t.Helper()
		env.Clock.Advance(authtest.SignInWindow)
		stranger := newBrowser(t, env)
		stranger.address = "192.0.2.99"
		stranger.ask(acme.owner)
		before := len(mailed(env, acme.owner))
		b.ask(acme.owner)
		return len(mailed(env, acme.owner)) > before
	}
	if !getsLink(laptop) || !getsLink(phone) {
		t.Fatal("a browser the owner signed in with is treated as a stranger's")
	}

	laptopSession := regexp1(t, phone.get("/sessions").body, `action="/sessions/(ses_[0-9A-Za-z]+)/revoke"`)
	if p := phone.post("/sessions/"+laptopSession+"/revoke", nil); p.status != http.StatusSeeOther {
		t.Fatalf("revoke the laptop's session: %d %s", p.status, p.body)
	}
	if getsLink(laptop) {
		t.Fatal("the browser whose session was revoked is still remembered as the owner's")
	}
	if !getsLink(phone) {
		t.Fatal("revoking the laptop's session forgot the phone")
	}

	phone.get("/sessions")
	if p := phone.post("/signout", nil); p.status != http.StatusSeeOther || p.set["__Host-podium-known"] == nil {
		t.Fatalf("sign out: %d, marker %+v, want it cleared", p.status, p.set["__Host-podium-known"])
	}
	if getsLink(phone) {
		t.Fatal("the browser that signed out is still remembered as the owner's")
	}
}

// TestARemovedMembersBrowsersAreForgotten: a member removed from their last organization has
// their browsers forgotten, and using the session still open in one does not bring it back: if
// the address becomes a member again, that browser gets no link while a stranger keeps the
// address's links spent. A member removed from one of two organizations stays known.
func TestARemovedMembersBrowsersAreForgotten(t *testing.T) {
	env := authtest.Start(t, authtest.Options{SignInPerEmail: 1})
	acme := newOrg(t, env, "Acme Races", "acme.test")
	other := env.Organizer(t, "Other Races")
	addMember(t, env, other, acme.admin, "member")
	memberLaptop, adminLaptop := newBrowser(t, env), newBrowser(t, env)
	memberLaptop.signIn(acme.member)
	adminLaptop.signIn(acme.admin)
	getsLink := func(b *browser, email string) bool {
		t.Helper()
		env.Clock.Advance(authtest.SignInWindow)
		stranger := newBrowser(t, env)
		stranger.address = "192.0.2.99"
		stranger.ask(email)
		before := len(mailed(env, email))
		b.ask(email)
		return len(mailed(env, email)) > before
	}

	for _, id := range []string{acme.memberID, acme.adminID} {
		if r := env.Admin(t, http.MethodDelete, "/admin/organizers/"+acme.id+"/members/"+id, nil); r.Status != http.StatusOK {
			t.Fatalf("remove member %s: %d %s", id, r.Status, r.Raw)
		}
	}
	env.Clock.Advance(time.Hour)
	if p := memberLaptop.get("/sessions"); p.status != http.StatusOK {
		t.Fatalf("the former member's open session: %d", p.status)
	}
	addMember(t, env, acme.id, acme.member, "member")
	if getsLink(memberLaptop, acme.member) {
		t.Fatal("the browser of a member removed from their last organization is still remembered")
	}
	if !getsLink(adminLaptop, acme.admin) {
		t.Fatal("a member removed from one of their two organizations was forgotten")
	}
}
