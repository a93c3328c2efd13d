package store_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/outbox"
	"github.com/podiumhq/podium/libs/testkit"
	"github.com/podiumhq/podium/services/webhooks/internal/adapters/store"
	"github.com/podiumhq/podium/services/webhooks/internal/app"
	"github.com/podiumhq/podium/services/webhooks/internal/domain"
	"github.com/podiumhq/podium/services/webhooks/migrations"
)

// Creates racing for an organization's last endpoints never exceed the limit; another
// organization's creates are not counted.
func TestConcurrentCreatesKeepTheLimit(t *testing.T) {
	repo := store.New(testkit.Pool(t, migrations.Set(), outbox.Migrations()))
	const limit, racers = 3, 8
	var wg sync.WaitGroup
	errs := make(chan error, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ep := domain.Endpoint{ID: fmt.Sprintf("we_race%d", i), OrganizerID: "org_1", Livemode: true, URL: "https://h.example/",
				EventTypes: []string{domain.OrderCompleted}, Status: domain.StatusEnabled, CreatedAt: time.Now().Add(time.Duration(i))}
			errs <- repo.CreateEndpoint(t.Context(), ep, []byte("sealed"), limit)
		}()
	}
	wg.Wait()
	close(errs)
	created, refused := 0, 0
	for err := range errs {
		var f *fault.Error
		switch {
		case err == nil:
			created++
		case errors.As(err, &f) && f.Code == domain.CodeEndpointLimit:
			refused++
		default:
			t.Fatal(err)
		}
	}
	if created != limit || refused != racers-limit {
		t.Fatalf("created %d, refused %d; want %d and %d", created, refused, limit, racers-limit)
	}
	if _, total, err := repo.Endpoints(t.Context(), app.Owner{OrganizerID: "org_1", Livemode: true}, domain.Page{Limit: 10}); err != nil || total != limit {
		t.Fatalf("stored %d: %v", total, err)
	}
	other := domain.Endpoint{ID: "we_other", OrganizerID: "org_2", Livemode: true, URL: "https://h.example/",
		EventTypes: []string{domain.OrderCompleted}, Status: domain.StatusEnabled, CreatedAt: time.Now()}
	if err := repo.CreateEndpoint(t.Context(), other, []byte("sealed"), limit); err != nil {
		t.Fatalf("another organization's endpoint: %v", err)
	}
}
