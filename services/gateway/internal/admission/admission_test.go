package admission

import (
	"errors"
	"testing"
)

// TestAFullOwnerRefusesAtOnce: a request that finds its owner's limit full is refused at once,
// without waiting for a place, and admitted again once a place was given back.
func TestAFullOwnerRefusesAtOnce(t *testing.T) {
	c := New([]string{"registration"}, Options{InitialLimit: 1, MaxLimit: 1})
	held, err := c.Admit(t.Context(), "registration", Writes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Admit(t.Context(), "registration", Payments); !errors.Is(err, ErrShed) {
		t.Fatalf("a request to a full owner: %v, want ErrShed", err)
	}
	held.Record()
	p, err := c.Admit(t.Context(), "registration", Writes)
	if err != nil {
		t.Fatalf("once the place was given back: %v", err)
	}
	p.Drop()
}

// TestAnOwnersPublicReadsAreShedBeforeItsOtherRequests: while the catalog keeps refusing
// organizer reads for want of room, its level climbs: after four calibrations it refuses every
// public read of the catalog but no organizer read (which its limit alone refuses), and no
// request to another owner; once the catalog refuses nothing, its level falls back and public
// reads are admitted again.
func TestAnOwnersPublicReadsAreShedBeforeItsOtherRequests(t *testing.T) {
	c := New([]string{"catalog", "registration"}, Options{InitialLimit: 1, MaxLimit: 1, Starved: func() bool { return false }})
	held, err := c.Admit(t.Context(), "catalog", Reads)
	if err != nil {
		t.Fatal(err)
	}
	for range band / raiseBy {
		if _, err := c.Admit(t.Context(), "catalog", Reads); !errors.Is(err, ErrShed) {
			t.Fatalf("a request to the full catalog: %v, want ErrShed", err)
		}
		c.calibrate()
	}
	if got := c.owners["catalog"].level.value.Load(); got != band {
		t.Fatalf("the catalog's level %d after four calibrations with it full, want %d", got, band)
	}
	held.Record()
	for range 100 {
		if _, err := c.Admit(t.Context(), "catalog", Public); !errors.Is(err, ErrShed) {
			t.Fatal("a public read of the catalog was admitted at its level past the public band")
		}
	}
	admitted(t, c, 100, "catalog", Reads)
	admitted(t, c, 100, "registration", Public)

	for range band / lowerBy {
		c.calibrate()
	}
	if got := c.owners["catalog"].level.value.Load(); got != 0 {
		t.Fatalf("the catalog's level %d after calibrations with it not full, want 0", got)
	}
	admitted(t, c, 1, "catalog", Public)
}

// TestAnOwnerSlowedByItsDependencySlowsNoOtherOwner: while checkout keeps refusing checkout
// sessions (Stripe answering slowly, say) and this instance has CPU to spare, checkout's level
// sheds its own summaries and nothing at the catalog or at registration.
func TestAnOwnerSlowedByItsDependencySlowsNoOtherOwner(t *testing.T) {
	c := New([]string{"catalog", "registration", "checkout"}, Options{InitialLimit: 1, MaxLimit: 1, Starved: func() bool { return false }})
	if got := overload(c, 10*band/raiseBy, "checkout", Payments); got != int32(Payments)*band {
		t.Fatalf("checkout's level %d after a long overload of sessions, want %d", got, int32(Payments)*band)
	}
	if got := c.gateway.value.Load(); got != 0 {
		t.Fatalf("gateway-wide level %d with CPU to spare, want 0", got)
	}
	if _, err := c.Admit(t.Context(), "checkout", Writes); !errors.Is(err, ErrShed) {
		t.Fatalf("a checkout summary while sessions find no room: %v, want ErrShed", err)
	}
	admitted(t, c, 100, "catalog", Public)
	admitted(t, c, 100, "registration", Writes)
}

// TestPublicReadsAreShedBeforePaymentsWhenShortOfCPU: while this instance is short of CPU and
// checkout keeps refusing sessions, the gateway-wide level climbs and refuses every public read,
// organizer read and write at every owner, while checkout sessions are refused only by their
// own owner's limit; once the instance has CPU again, the gateway-wide level falls back though
// checkout is still full, and the other owners serve everything again.
func TestPublicReadsAreShedBeforePaymentsWhenShortOfCPU(t *testing.T) {
	short := true
	c := New([]string{"catalog", "registration", "checkout"}, Options{InitialLimit: 1, MaxLimit: 1, Starved: func() bool { return short }})
	if got := overload(c, 10*band/raiseBy, "checkout", Payments); got != int32(Payments)*band {
		t.Fatalf("checkout's level %d after a long overload of sessions, want %d", got, int32(Payments)*band)
	}
	if got := c.gateway.value.Load(); got != int32(Payments)*band {
		t.Fatalf("gateway-wide level %d short of CPU, want %d", got, int32(Payments)*band)
	}
	for _, p := range []Priority{Public, Reads, Writes} {
		for _, owner := range []string{"catalog", "registration"} {
			if _, err := c.Admit(t.Context(), owner, p); !errors.Is(err, ErrShed) {
				t.Fatalf("a %s request to %s short of CPU while sessions find no room: %v, want ErrShed", names[p], owner, err)
			}
		}
	}
	admitted(t, c, 100, "checkout", Payments)

	short = false
	if got := overload(c, 10*band/lowerBy, "checkout", Payments); got != int32(Payments)*band {
		t.Fatalf("checkout's level %d while sessions still find no room, want %d", got, int32(Payments)*band)
	}
	if got := c.gateway.value.Load(); got != 0 {
		t.Fatalf("gateway-wide level %d once the instance has CPU again, want 0", got)
	}
	admitted(t, c, 100, "catalog", Public)
}

// TestPaymentsAreNeverShedByTheLevels: however long an owner stays full, short of CPU or not,
// the levels stop below the payments' band.
func TestPaymentsAreNeverShedByTheLevels(t *testing.T) {
	c := New([]string{"catalog"}, Options{InitialLimit: 1, MaxLimit: 1, Starved: func() bool { return true }})
	if got := overload(c, 10*band/raiseBy, "catalog", Payments); got != int32(Payments)*band {
		t.Fatalf("level %d after a long overload, want %d (the payments' band is never shed by it)", got, int32(Payments)*band)
	}
	if got := c.gateway.value.Load(); got != int32(Payments)*band {
		t.Fatalf("gateway-wide level %d after a long overload, want %d", got, int32(Payments)*band)
	}
	admitted(t, c, 1, "catalog", Payments)
}

// TestAPriorityIsNotShedByTheLevelForRoomOnlyItWants: while only writes find their owner full,
// the level sheds every organizer read but never a write, which the owner's limit alone
// refuses; a level raised for payments falls back to the writes' band once only writes are
// refused, and stays there while they are.
func TestAPriorityIsNotShedByTheLevelForRoomOnlyItWants(t *testing.T) {
	c := New([]string{"registration"}, Options{InitialLimit: 1, MaxLimit: 1, Starved: func() bool { return true }})
	if got := overload(c, 10*band/raiseBy, "registration", Writes); got != int32(Writes)*band {
		t.Fatalf("level %d after a long overload of writes, want %d", got, int32(Writes)*band)
	}
	admitted(t, c, 100, "registration", Writes)
	if _, err := c.Admit(t.Context(), "registration", Reads); !errors.Is(err, ErrShed) {
		t.Fatalf("an organizer read while writes find no room: %v, want ErrShed", err)
	}

	if got := overload(c, 10*band/raiseBy, "registration", Payments, Writes); got != int32(Payments)*band {
		t.Fatalf("level %d while payments find no room, want %d", got, int32(Payments)*band)
	}
	if got := overload(c, 10*band/lowerBy, "registration", Writes); got != int32(Writes)*band {
		t.Fatalf("level %d once only writes find no room, want %d", got, int32(Writes)*band)
	}
	if got := c.gateway.value.Load(); got != int32(Writes)*band {
		t.Fatalf("gateway-wide level %d once only writes find no room, want %d", got, int32(Writes)*band)
	}
}

// overload runs calibrations in which owner's limit refused requests of each of the
// priorities, and returns the level they leave it.
func overload(c *Controller, calibrations int, owner string, refused ...Priority) int32 {
	own := c.owners[owner]
	for range calibrations {
		for _, p := range refused {
			own.level.refused(p)
		}
		c.calibrate()
	}
	return own.level.value.Load()
}

// admitted asserts that n requests of priority p to owner are admitted in turn.
func admitted(t *testing.T, c *Controller, n int, owner string, p Priority) {
	t.Helper()
	for range n {
		permit, err := c.Admit(t.Context(), owner, p)
		if err != nil {
			t.Fatalf("a %s request to %s: %v, want admitted", names[p], owner, err)
		}
		permit.Record()
	}
}

// TestCheckTakesNoPlace: Check refuses what Admit would without taking a place, so any number of
// requests pass it while the owner has room; once Acquire took the last place, Check refuses
// and counts the owner as full.
func TestCheckTakesNoPlace(t *testing.T) {
	c := New([]string{"registration"}, Options{InitialLimit: 1, MaxLimit: 1})
	for range 10 {
		if err := c.Check(t.Context(), "registration", Writes); err != nil {
			t.Fatalf("check with the owner's place free: %v", err)
		}
	}
	held, err := c.Acquire(t.Context(), "registration", Writes)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(t.Context(), "registration", Writes); !errors.Is(err, ErrShed) {
		t.Fatalf("check with the owner full: %v, want ErrShed", err)
	}
	if got := c.owners["registration"].level.fullTop.Load(); got != int32(Writes)+1 {
		t.Fatalf("fullTop %d after a refused check, want the writes' %d", got, int32(Writes)+1)
	}
	held.Record()
	if err := c.Check(t.Context(), "registration", Writes); err != nil {
		t.Fatalf("check once the place was given back: %v", err)
	}
}
