package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// benchCreate measures organizer creates over HTTP on a real listener against real Postgres,
// with the outbox relay publishing to a Kafka-protocol broker, 64 concurrent clients;
// categories is how many categories they spread over (1: one hot category). Reports
// creates/s. The load generator shares the machine with the service and Postgres.
func benchCreate(b *testing.B, categories int) {
	env := regtest.Start(b, regtest.Options{MaxConns: 32, CatalogTTL: 2 * time.Second, Kafka: true})
	e := regtest.Event(evtA, orgA)
	e.Categories = nil
	for i := range categories {
		e.Categories = append(e.Categories, domain.Category{ID: fmt.Sprintf("cat_%03d", i), Name: "Open", TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderOpen, Published: true})
	}
	e.FormFields = nil
	env.Catalog.Put(e)
	tok := env.Secret(b, orgA)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	var n atomic.Int64
	b.SetParallelism(32) // 32 x GOMAXPROCS (2) = 64 concurrent clients
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			body, _ := json.Marshal(map[string]any{
				"eventId": evtA, "categoryId": fmt.Sprintf("cat_%03d", i%int64(categories)), "teamName": fmt.Sprintf("T%d", i),
				"athletes": []any{athlete(fmt.Sprintf("Bench %d", i), "MALE", "1990-01-01")},
			})
			req, _ := http.NewRequestWithContext(b.Context(), "POST", env.URL+"/external/v1/organizer/registrations", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(identity.Header, tok)
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 201 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
}

func BenchmarkCreateOneCategory(b *testing.B)    { benchCreate(b, 1) }
func BenchmarkCreateManyCategories(b *testing.B) { benchCreate(b, 200) }
