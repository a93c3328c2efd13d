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

// TestPublicReadsAreShedBeforePayments: while an owner keeps refusing requests for want of
// room, the shedding level climbs: after eight calibrations it refuses every public read (and,
// a band further, every organizer read) at every owner, while checkout sessions are refused
// only by their own owner's limit; once no owner refuses, the level falls back and public
// reads are admitted again.
func TestPublicReadsAreShedBeforePayments(t *testing.T) {
	c := New([]string{"catalog", "checkout"}, Options{InitialLimit: 1, MaxLimit: 1})
	held, err := c.Admit(t.Context(), "catalog", Public)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 * band / raiseBy {
		// A payment: the level never refuses it, so it always reaches the full limit.
		if _, err := c.Admit(t.Context(), "catalog", Payments); !errors.Is(err, ErrShed) {
			t.Fatalf("a request to the full catalog: %v, want ErrShed", err)
		}
		c.calibrate()
	}
	if got := c.level.Load(); got != 2*band {
		t.Fatalf("level %d after eight calibrations with the catalog full, want %d", got, 2*band)
	}
	held.Record()
	for range 100 {
		if _, err := c.Admit(t.Context(), "catalog", Public); !errors.Is(err, ErrShed) {
			t.Fatal("a public read was admitted at the shedding level past the public band")
		}
	}
	for range 100 {
		p, err := c.Admit(t.Context(), "checkout", Payments)
		if err != nil {
			t.Fatalf("a checkout session while public reads are shed: %v", err)
		}
		p.Record()
	}

	for range 2 * band / lowerBy {
		c.calibrate()
	}
	if got := c.level.Load(); got != 0 {
		t.Fatalf("level %d after calibrations with no owner full, want 0", got)
	}
	p, err := c.Admit(t.Context(), "catalog", Public)
	if err != nil {
		t.Fatalf("a public read once shedding stopped: %v", err)
	}
	p.Record()
}

// TestPaymentsAreNeverShedByTheLevel: however long owners stay full, the level stops below the
// payments' band.
func TestPaymentsAreNeverShedByTheLevel(t *testing.T) {
	c := New([]string{"catalog"}, Options{InitialLimit: 1, MaxLimit: 1})
	if got := overload(c, 10*band/raiseBy, Payments); got != int32(Payments)*band {
		t.Fatalf("level %d after a long overload, want %d (the payments' band is never shed by it)", got, int32(Payments)*band)
	}
	p, err := c.Admit(t.Context(), "catalog", Payments)
	if err != nil {
		t.Fatalf("a payment at the highest level: %v", err)
	}
	p.Record()
}

// TestAPriorityIsNotShedByTheLevelForRoomOnlyItWants: while only writes find their owner full,
// the level sheds every organizer read but never a write, which the owner's limit alone
// refuses; a level raised for payments falls back to the writes' band once only writes are
// refused, and stays there while they are.
func TestAPriorityIsNotShedByTheLevelForRoomOnlyItWants(t *testing.T) {
	c := New([]string{"registration"}, Options{InitialLimit: 1, MaxLimit: 1})
	if got := overload(c, 10*band/raiseBy, Writes); got != int32(Writes)*band {
		t.Fatalf("level %d after a long overload of writes, want %d", got, int32(Writes)*band)
	}
	for range 100 {
		p, err := c.Admit(t.Context(), "registration", Writes)
		if err != nil {
			t.Fatalf("a write to an owner with room, at the writes' own overload: %v", err)
		}
		p.Record()
	}
	if _, err := c.Admit(t.Context(), "registration", Reads); !errors.Is(err, ErrShed) {
		t.Fatalf("an organizer read while writes find no room: %v, want ErrShed", err)
	}

	if got := overload(c, 10*band/raiseBy, Payments, Writes); got != int32(Payments)*band {
		t.Fatalf("level %d while payments find no room, want %d", got, int32(Payments)*band)
	}
	if got := overload(c, 10*band/lowerBy, Writes); got != int32(Writes)*band {
		t.Fatalf("level %d once only writes find no room, want %d", got, int32(Writes)*band)
	}
}

// overload runs calibrations in which owners' limits refused requests of each of the
// priorities, and returns the level they leave.
func overload(c *Controller, calibrations int, refused ...Priority) int32 {
	for range calibrations {
		for _, p := range refused {
			c.refusedFull(p)
		}
		c.calibrate()
	}
	return c.level.Load()
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
	if got := c.fullTop.Load(); got != int32(Writes)+1 {
		t.Fatalf("fullTop %d after a refused check, want the writes' %d", got, int32(Writes)+1)
	}
	held.Record()
	if err := c.Check(t.Context(), "registration", Writes); err != nil {
		t.Fatalf("check once the place was given back: %v", err)
	}
}
