package e2e

import (
	"fmt"
	"testing"

	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/system/stack"
)

// TestTestEventIsLoggedAndRetriedWithTheSameID: the test call queues a ping that reaches the
// receiver, signed; the delivery log then shows it succeeded with the answer's status code
// and latency, and its one attempt. A retry sends the same message again, under the same
// webhook-id, and counts a second attempt.
func TestTestEventIsLoggedAndRetriedWithTheSameID(t *testing.T) {
	o := newTenant(t)
	r, ep := startReceiver(t, o.secret.Key)

	queued := sendPing(t, o.secret.Key, ep.ID)
	first, ping := waitMessage(t, r, queued.MessageID)
	p := object[struct {
		EndpointID string `json:"endpointId"`
		Message    string `json:"message"`
	}](t, ping)
	if ping.Type != "ping" || ping.Data.ObjectID != ep.ID || ping.Data.Sequence != 0 || p.EndpointID != ep.ID || p.Message == "" {
		t.Fatalf("ping %s, want one about endpoint %s", first.Body, ep.ID)
	}

	d := wantDelivery(t, o.secret.Key, ep.ID, queued.ID, 1)
	if *d.LastStatusCode != 200 || d.LastLatencyMs == nil || *d.LastLatencyMs < 0 || d.LastError != nil || d.FinishedAt == nil ||
		len(d.AttemptLog) != 1 || d.AttemptLog[0].N != 1 || d.AttemptLog[0].StatusCode == nil || *d.AttemptLog[0].StatusCode != 200 {
		t.Fatalf("the ping's delivery %+v, want succeeded with 200, a latency and one attempt", d)
	}
	res := send(t, req{"GET", endpoints(ep.ID, "deliveries") + "?status=succeeded", secret(o.secret.Key), nil})
	var list page[webhookDelivery]
	decodeOK(t, res, 200, "organizerListWebhookDeliveries", &list)
	if list.Total != 1 || list.Data[0].ID != queued.ID || list.Data[0].Type != "ping" || list.Data[0].LastLatencyMs == nil ||
		list.Data[0].LastStatusCode == nil || *list.Data[0].LastStatusCode != 200 {
		t.Fatalf("succeeded deliveries: %s", res.body)
	}

	res = send(t, req{"POST", endpoints(ep.ID, "deliveries", queued.ID, "retry"), secret(o.secret.Key), nil})
	var due webhookDelivery
	decodeOK(t, res, 202, "organizerRetryWebhookDelivery", &due)
	if due.ID != queued.ID || due.MessageID != queued.MessageID || due.Status != "pending" {
		t.Fatalf("retry answered %s", res.body)
	}
	var sent []stack.Webhook
	testkit.Eventually(t, eventTravel, func() string {
		if sent = withID(r.Webhooks(), queued.MessageID); len(sent) != 2 {
			return fmt.Sprintf("webhook-id %s reached the receiver %d times, want 2 (the ping and its retry):\n%s", queued.MessageID, len(sent), received(r))
		}
		return ""
	})
	if wantHook(t, sent[1]); string(sent[1].Body) != string(first.Body) {
		t.Fatalf("the retry sent %s, the first attempt %s", sent[1].Body, first.Body)
	}
	if d := wantDelivery(t, o.secret.Key, ep.ID, queued.ID, 2); len(d.AttemptLog) != 2 || d.AttemptLog[1].N != 2 {
		t.Fatalf("after the retry the delivery is %+v, want two attempts", d)
	}
}

// wantDelivery waits until the delivery read shows the delivery succeeded after attempts
// attempts, and returns it.
func wantDelivery(t *testing.T, key, endpointID, deliveryID string, attempts int) webhookDelivery {
	t.Helper()
	var d webhookDelivery
	testkit.Eventually(t, eventTravel, func() string {
		res := send(t, req{"GET", endpoints(endpointID, "deliveries", deliveryID), secret(key), nil})
		decodeOK(t, res, 200, "organizerGetWebhookDelivery", &d)
		if d.Status != "succeeded" || d.Attempts != attempts || d.LastStatusCode == nil {
			return fmt.Sprintf("delivery %s, want succeeded after %d attempts", res.body, attempts)
		}
		return ""
	})
	return d
}

// withID returns the webhooks whose webhook-id is messageID.
func withID(hooks []stack.Webhook, messageID string) []stack.Webhook {
	var out []stack.Webhook
	for _, w := range hooks {
		if w.ID == messageID {
			out = append(out, w)
		}
	}
	return out
}
