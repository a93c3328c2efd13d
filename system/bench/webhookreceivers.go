package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// receivers are loopback HTTP servers, one per webhook endpoint, that answer 204 at once and
// time each webhook from its event's commit (sent, by object id) to its arrival in the handler.
type receivers struct {
	servers []*http.Server
	urls    []string

	mu      sync.Mutex
	sent    map[string]time.Time
	lat     *hdrhistogram.Histogram
	got     int
	doubled int
	last    time.Time
	arrived chan struct{}
}

// startReceivers starts n receivers on free loopback ports.
func startReceivers(n int) (*receivers, error) {
	// A backlog's webhooks arrive minutes after their commit.
	r := &receivers{sent: map[string]time.Time{}, lat: hdrhistogram.New(int64(time.Microsecond), int64(time.Hour), 3), arrived: make(chan struct{}, 1)}
	for range n {
		ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
		if err != nil {
			r.close()
			return nil, err
		}
		srv := &http.Server{Handler: http.HandlerFunc(r.take), ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		r.servers = append(r.servers, srv)
		r.urls = append(r.urls, "http://"+ln.Addr().String()+"/hooks")
	}
	return r, nil
}

func (r *receivers) close() {
	for _, s := range r.servers {
		_ = s.Close()
	}
}

// committing records that the event of objectID commits now; call it before the commit.
func (r *receivers) committing(objectID string, at time.Time) {
	r.mu.Lock()
	r.sent[objectID] = at
	r.mu.Unlock()
}

func (r *receivers) take(w http.ResponseWriter, req *http.Request) {
	at := time.Now()
	var body struct {
		Data struct {
			ObjectID string `json:"objectId"`
		} `json:"data"`
	}
	err := json.NewDecoder(io.LimitReader(req.Body, 1<<20)).Decode(&body)
	w.WriteHeader(http.StatusNoContent)
	if err != nil {
		return
	}
	r.mu.Lock()
	if sent, ok := r.sent[body.Data.ObjectID]; ok {
		delete(r.sent, body.Data.ObjectID)
		_ = r.lat.RecordValue(int64(at.Sub(sent)))
		r.got++
		r.last = at
	} else {
		r.doubled++
	}
	r.mu.Unlock()
	select {
	case r.arrived <- struct{}{}:
	default:
	}
}

// reset forgets the latencies recorded so far.
func (r *receivers) reset() {
	r.mu.Lock()
	r.lat.Reset()
	r.got = 0
	r.mu.Unlock()
}

// received is how many webhooks arrived, each object's first only, since the last reset.
func (r *receivers) received() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got
}

// wait returns the latencies, the last first arrival and the count of second arrivals once n
// webhooks arrived, or fails after 60 s without one.
func (r *receivers) wait(ctx context.Context, n int) (*hdrhistogram.Histogram, time.Time, int, error) {
	for {
		r.mu.Lock()
		got := r.got
		if got >= n {
			defer r.mu.Unlock()
			return hdrhistogram.Import(r.lat.Export()), r.last, r.doubled, nil
		}
		r.mu.Unlock()
		select {
		case <-r.arrived:
		case <-time.After(60 * time.Second):
			return nil, time.Time{}, 0, fmt.Errorf("bench: %d of %d webhooks received, none in the last 60s", got, n)
		case <-ctx.Done():
			return nil, time.Time{}, 0, ctx.Err()
		}
	}
}
