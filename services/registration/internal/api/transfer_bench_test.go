package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// BenchmarkTransferOneTicket measures transfers of one ticket back and forth between two
// athletes over HTTP on a real listener against real Postgres, one client at a time (each is a
// real transfer: a history entry and an outbox event). Reports transfers/s; the history grows
// with b.N, as it would not for a real ticket.
func BenchmarkTransferOneTicket(b *testing.B) {
	env := regtest.Start(b, regtest.Options{CatalogTTL: 2 * time.Second})
	env.Catalog.Put(regtest.Event(evtA, orgA))
	tok := env.Secret(b, orgA)
	reg := create(b, env, createBody("Bench"))
	url := env.URL + "/external/v1/organizer/registrations/" + ticketOf(reg, 0) + "/transfer"
	bodies := make([][]byte, 2)
	for i, name := range []string{"Bench One", "Bench Two"} {
		bodies[i], _ = json.Marshal(map[string]any{"athlete": athlete(name, "MALE", "1990-01-01")})
	}
	client := &http.Client{}
	b.ResetTimer()
	for i := range b.N {
		req, _ := http.NewRequestWithContext(b.Context(), "POST", url, bytes.NewReader(bodies[i%2]))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(identity.Header, tok)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "transfers/s")
}
