package e2e

import (
	"encoding/json"
	"testing"
)

// waiverTicket is the part of a signing's answer the tests read: the ticket's pending and signed waivers.
type waiverTicket struct {
	Tickets []struct {
		ticket
		PendingWaivers []struct {
			WaiverID string `json:"waiverId"`
		} `json:"pendingWaivers"`
		SignedWaivers []struct {
			WaiverID string `json:"waiverId"`
			Title    string `json:"title"`
			SignedAt string `json:"signedAt"`
		} `json:"signedWaivers"`
	} `json:"tickets"`
}

// signWaivers signs the waivers of accepted on ticketID with key through the gateway; the
// answer conforms to the document.
func signWaivers(t testing.TB, key, ticketID string, accepted map[string]any) response {
	t.Helper()
	res := send(t, req{"POST", gw("/organizer/registrations/" + ticketID + "/waivers"), secret(key), map[string]any{"waiversAccepted": accepted}})
	conforms(t, "organizerSignRegistrationWaivers", res)
	return res
}

func TestSigningTheWaiverATransferLeftPending(t *testing.T) {
	a, b := newTenant(t), newTenant(t)
	receiver, _ := startReceiver(t, a.secret.Key)
	ev := importEvent(t, a.org, transferEvent(nil))
	reg := createRegistration(t, a.secret.Key, registrationBody(ev, "women", "Ana's place", athlete("Ana Giver", "FEMALE", "1990-01-01")))
	id := reg.Tickets[0].TicketID
	res := transfer(t, a.secret.Key, id, athlete("Bea Taker", "FEMALE", "1992-03-04"))
	pending := decode[transferred](t, res).Tickets[0].PendingWaivers
	if res.status != 200 || len(pending) != 1 || pending[0].Title != "Liability" {
		t.Fatalf("transfer: %d %s", res.status, res.body)
	}
	liability := pending[0].WaiverID

	t.Run("refusals", func(t *testing.T) {
		wantCode(t, signWaivers(t, a.secret.Key, id, map[string]any{liability: false}), 422, "waiver_refused")
		wantCode(t, signWaivers(t, a.secret.Key, id, map[string]any{"wvr_unknown": true}), 422, "waiver_not_pending")
		wantCode(t, signWaivers(t, a.secret.Key, id, map[string]any{}), 400, "validation_failed")
		wantError(t, signWaivers(t, b.secret.Key, id, map[string]any{liability: true}), 404, "ticket "+id+" not found")
	})

	res = signWaivers(t, a.secret.Key, id, map[string]any{liability: true})
	got := decode[waiverTicket](t, res).Tickets[0]
	if res.status != 200 || len(got.PendingWaivers) != 0 || len(got.SignedWaivers) != 1 || got.SignedWaivers[0].WaiverID != liability || got.SignedWaivers[0].SignedAt == "" {
		t.Fatalf("sign: %d %s", res.status, res.body)
	}
	again := signWaivers(t, a.secret.Key, id, map[string]any{liability: true})
	if again.status != 200 || string(again.body) != string(res.body) {
		t.Fatalf("a retry answers otherwise: %d %s\nfirst %s", again.status, again.body, res.body)
	}

	_, h := waitHook(t, receiver, "registration.updated", reg.RegistrationID)
	var obj waiverTicket
	if err := json.Unmarshal(h.Data.Object, &obj); err != nil || len(obj.Tickets[0].PendingWaivers) != 0 || len(obj.Tickets[0].SignedWaivers) != 1 {
		t.Fatalf("registration.updated object %s (%v)", h.Data.Object, err)
	}

	if del := send(t, req{"DELETE", gw("/organizer/registrations/" + id), secret(a.secret.Key), nil}); del.status != 200 {
		t.Fatalf("cancel: %d %s", del.status, del.body)
	}
	wantCode(t, signWaivers(t, a.secret.Key, id, map[string]any{liability: true}), 409, "ticket_cancelled")
}

func TestTransferSignsTheWaiverAcceptedWithIt(t *testing.T) {
	a := newTenant(t)
	ev := importEvent(t, a.org, transferEvent(nil))
	reg := createRegistration(t, a.secret.Key, registrationBody(ev, "women", "Cy's place", athlete("Cy Giver", "FEMALE", "1990-01-01")))
	id := reg.Tickets[0].TicketID
	first := decode[transferred](t, transfer(t, a.secret.Key, id, athlete("Dee Taker", "FEMALE", "1991-01-01"))).Tickets[0].PendingWaivers
	liability := first[0].WaiverID
	transferWith := func(body map[string]any) response {
		res := send(t, req{"POST", gw("/organizer/registrations/" + id + "/transfer"), secret(a.secret.Key), body})
		conforms(t, "organizerTransferRegistration", res)
		return res
	}
	wantCode(t, transferWith(map[string]any{"athlete": athlete("Eve Taker", "FEMALE", "1991-01-01"), "waiversAccepted": map[string]any{"wvr_unknown": true}}), 422, "waiver_not_pending")
	res := transferWith(map[string]any{"athlete": athlete("Eve Taker", "FEMALE", "1991-01-01"), "waiversAccepted": map[string]any{liability: true}})
	got := decode[waiverTicket](t, res).Tickets[0]
	if res.status != 200 || len(got.PendingWaivers) != 0 || len(got.SignedWaivers) != 1 {
		t.Fatalf("transfer signing the waiver: %d %s", res.status, res.body)
	}
}
