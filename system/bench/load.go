// Package bench measures the running system: it drives HTTP load against a target with vegeta,
// records every latency in HDR histograms and reads the CPU time the services spent, so that a
// path can be compared with its baseline in the same run.
package bench

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Target is one request to repeat.
type Target struct {
	Name    string
	Method  string
	URL     string
	Headers map[string]string
	Body    []byte
	// NextBody, when set, gives each request its own body instead of Body; workers call it
	// concurrently.
	NextBody func() []byte
	// Status is the answer every request must get.
	Status int
	// Rate, when set, replaces the scenario's rate for this target (requests per second).
	Rate int
	// Refusals counts answers 429 and 503 carrying Retry-After as refusals, measured apart,
	// rather than as failures: the overload scenario expects them.
	Refusals bool
}

// Result is what one run measured.
type Result struct {
	Target string
	// Requests were answered with the target's Status, with the latencies in Latency.
	Requests int
	Latency  *hdrhistogram.Histogram
	// Refused were answered with a refusal (Target.Refusals), with the latencies in
	// RefusedLatency.
	Refused        int
	RefusedLatency *hdrhistogram.Histogram
	// Failed got another answer or none; a target without Refusals fails the run on the first.
	Failed  int
	Elapsed time.Duration
	// CPU is the CPU time each watched process spent during the run, and the whole machine's
	// under "machine" when any was watched.
	CPU map[string]time.Duration
	// Counters are what Options.Counters grew by during the run.
	Counters map[string]float64
}

// newHistogram holds latencies from 1 µs to a minute to 3 significant digits.
func newHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(int64(time.Microsecond), int64(time.Minute), 3)
}

// Quantile returns the q-quantile latency of the answered requests (0 < q <= 1).
func (r Result) Quantile(q float64) time.Duration { return quantileOf(r.Latency, q) }

// RefusedQuantile returns the q-quantile latency of the refusals.
func (r Result) RefusedQuantile(q float64) time.Duration { return quantileOf(r.RefusedLatency, q) }

func quantileOf(h *hdrhistogram.Histogram, q float64) time.Duration {
	if h == nil || h.TotalCount() == 0 {
		return 0
	}
	return time.Duration(h.ValueAtQuantile(100 * q))
}

// Throughput is the requests answered with the target's Status per second (the goodput).
func (r Result) Throughput() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// CPUPerRequest is the CPU time process name spent per answered request.
func (r Result) CPUPerRequest(name string) time.Duration {
	if r.Requests == 0 {
		return 0
	}
	return r.CPU[name] / time.Duration(r.Requests)
}

// Options shapes a run.
type Options struct {
	// Rate is requests per second, open loop; zero runs a closed loop, each client sending its
	// next request when its last is answered.
	Rate int
	// Workers are the clients: never more requests in flight.
	Workers  int
	Duration time.Duration
	// Timeout bounds each request (default 10 s).
	Timeout time.Duration
	// Processes are watched for CPU time, by name.
	Processes map[string]int
	// Counters, when set, are read before and after the run (a service's /metrics, say).
	Counters func() (map[string]float64, error)
}

// failureBody is how much of an answer a failure's message quotes.
const failureBody = 200

// Run sends t for o.Duration and returns what it measured.
func Run(ctx context.Context, t Target, o Options) (Result, error) {
	if o.Duration <= 0 || o.Workers <= 0 {
		return Result{}, fmt.Errorf("bench: %s: a run needs a duration and workers, got %v and %d", t.Name, o.Duration, o.Workers)
	}
	workers := uint64(o.Workers)
	attacker := vegeta.NewAttacker(vegeta.Workers(workers), vegeta.MaxWorkers(workers),
		vegeta.Timeout(cmp.Or(o.Timeout, 10*time.Second)), vegeta.MaxBody(failureBody), vegeta.Redirects(vegeta.NoFollow))
	res := Result{Target: t.Name, Latency: newHistogram(), RefusedLatency: newHistogram(), CPU: map[string]time.Duration{}, Counters: map[string]float64{}}
	before, err := watchedTimes(o.Processes)
	if err != nil {
		return res, err
	}
	countersBefore, err := readCounters(o.Counters)
	if err != nil {
		return res, err
	}
	pacer := vegeta.ConstantPacer{Freq: o.Rate, Per: time.Second}
	start := time.Now()
	stop := context.AfterFunc(ctx, func() { attacker.Stop() })
	var firstErr error
	for hit := range attacker.Attack(targeter(t), pacer, o.Duration, t.Name) {
		took := fromSlot(hit, start, pacer)
		switch {
		case int(hit.Code) == t.Status:
			_ = res.Latency.RecordValue(int64(took))
		case t.Refusals && isRefusal(hit):
			_ = res.RefusedLatency.RecordValue(int64(took))
		default:
			res.Failed++
			firstErr = cmp.Or(firstErr, fmt.Errorf("%s: status %d: %s: %s", t.Name, hit.Code, hit.Error, hit.Body))
		}
	}
	stop()
	res.Elapsed = time.Since(start)
	after, err := watchedTimes(o.Processes)
	if err != nil {
		return res, err
	}
	for name := range after {
		res.CPU[name] = after[name] - before[name]
	}
	countersAfter, err := readCounters(o.Counters)
	if err != nil {
		return res, err
	}
	for name, v := range countersAfter {
		res.Counters[name] = v - countersBefore[name]
	}
	res.Requests, res.Refused = int(res.Latency.TotalCount()), int(res.RefusedLatency.TotalCount())
	if res.Failed > 0 && !t.Refusals {
		return res, fmt.Errorf("bench: %d of %d requests failed; first: %w", res.Failed, res.Requests+res.Failed, firstErr)
	}
	return res, ctx.Err()
}

// fromSlot is hit's latency counted from its slot in an open loop's schedule (the pacer sends
// the n-th request, from 0, at start + (n+1) intervals), so that the wait for a free client
// counts as latency rather than lowering the rate (no coordinated omission); in a closed
// loop, from when it was sent.
func fromSlot(hit *vegeta.Result, start time.Time, pacer vegeta.ConstantPacer) time.Duration {
	if pacer.Freq <= 0 {
		return hit.Latency
	}
	slot := start.Add(time.Duration(hit.Seq+1) * pacer.Per / time.Duration(pacer.Freq))
	return max(hit.Latency, hit.Timestamp.Add(hit.Latency).Sub(slot))
}

// targeter makes vegeta's requests of t, each with its own body when t has NextBody.
func targeter(t Target) vegeta.Targeter {
	header := headers(t)
	return func(tgt *vegeta.Target) error {
		tgt.Method, tgt.URL, tgt.Header, tgt.Body = t.Method, t.URL, header, t.Body
		if t.NextBody != nil {
			tgt.Body = t.NextBody()
		}
		return nil
	}
}

// headers are t's headers, with the content type of its JSON body when it has one.
func headers(t Target) http.Header {
	h := http.Header{}
	for k, v := range t.Headers {
		h.Set(k, v)
	}
	if t.Body != nil || t.NextBody != nil {
		h.Set("Content-Type", "application/json")
	}
	return h
}

// send sends one request of t with body and returns the answer's status and body.
func send(ctx context.Context, t Target, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, t.Method, t.URL, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header = headers(t)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("bench: %s %s: %w", t.Method, t.URL, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}

// readCounters reads counters, none when it is nil.
func readCounters(counters func() (map[string]float64, error)) (map[string]float64, error) {
	if counters == nil {
		return nil, nil
	}
	return counters()
}

// isRefusal tells a refusal to come back later: 429 or 503 with Retry-After.
func isRefusal(hit *vegeta.Result) bool {
	return (hit.Code == http.StatusTooManyRequests || hit.Code == http.StatusServiceUnavailable) &&
		hit.Headers.Get("Retry-After") != ""
}
