// Package bench measures the running system: it drives HTTP load at a fixed rate against a
// target, records every latency in HDR histograms and reads the CPU time the services spent, so
// that a path can be compared with its baseline in the same run.
package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"
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
	// Rate is requests per second; zero runs closed-loop as fast as Workers allow.
	Rate     int
	Workers  int
	Duration time.Duration
	// Timeout bounds each request (default 10 s).
	Timeout time.Duration
	// Processes are watched for CPU time, by name.
	Processes map[string]int
	// Counters, when set, are read before and after the run (a service's /metrics, say).
	Counters func() (map[string]float64, error)
}

// Run sends t for o.Duration and returns what it measured.
func Run(ctx context.Context, t Target, o Options) (Result, error) {
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	client := &fasthttp.Client{MaxConnsPerHost: o.Workers * 2, ReadTimeout: timeout, WriteTimeout: timeout}
	jobs := make(chan time.Time, o.Workers*4)
	workers := make([]worker, o.Workers)
	var wg sync.WaitGroup
	for i := range workers {
		w := &workers[i]
		w.ok, w.refused = newHistogram(), newHistogram()
		wg.Go(func() { w.run(client, t, o.Rate <= 0, jobs) })
	}
	res := Result{Target: t.Name, Latency: newHistogram(), RefusedLatency: newHistogram(), CPU: map[string]time.Duration{}, Counters: map[string]float64{}}
	before, err := watchedTimes(o.Processes)
	if err != nil {
		return res, err
	}
	countersBefore, err := readCounters(o.Counters)
	if err != nil {
		return res, err
	}
	start := time.Now()
	schedule(ctx, jobs, o, start, time.Sleep)
	wg.Wait()
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
	var firstErr error
	for _, w := range workers {
		res.Latency.Merge(w.ok)
		res.RefusedLatency.Merge(w.refused)
		res.Failed += w.failed
		if firstErr == nil {
			firstErr = w.firstErr
		}
	}
	res.Requests, res.Refused = int(res.Latency.TotalCount()), int(res.RefusedLatency.TotalCount())
	if res.Failed > 0 && !t.Refusals {
		return res, fmt.Errorf("bench: %d of %d requests failed; first: %w", res.Failed, res.Requests+res.Failed, firstErr)
	}
	return res, nil
}

// singles sends the requests made one at a time (send), from as many goroutines as a sold-out
// rush has clients, each keeping its connection.
var singles = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: createWorkers}}

// send sends one request of t with body and returns the answer's status and body.
func send(ctx context.Context, t Target, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, t.Method, t.URL, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	for k, v := range t.Headers {
		req.Header.Set(k, v)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := singles.Do(req)
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

// worker sends requests as the schedule releases them and sorts their answers.
type worker struct {
	ok, refused *hdrhistogram.Histogram
	failed      int
	firstErr    error
}

func (w *worker) run(client *fasthttp.Client, t Target, closed bool, jobs <-chan time.Time) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	for scheduled := range jobs {
		prepare(req, t)
		// Latency counts from when the schedule released the request (see schedule), so a
		// backlog shows as latency instead of silently lowering the rate (no coordinated
		// omission). Closed-loop runs have no schedule to fall behind: their latency is the
		// request's own.
		from := scheduled
		if closed {
			from = time.Now()
		}
		err := client.Do(req, resp)
		took := int64(time.Since(from))
		switch status := resp.StatusCode(); {
		case err == nil && status == t.Status:
			_ = w.ok.RecordValue(took)
		case err == nil && t.Refusals && isRefusal(resp):
			_ = w.refused.RecordValue(took)
		default:
			w.failed++
			if w.firstErr == nil {
				w.firstErr = fmt.Errorf("%s: status %d: %.200s", t.Name, status, resp.Body())
				if err != nil {
					w.firstErr = fmt.Errorf("%s: %w", t.Name, err)
				}
			}
		}
	}
}

// isRefusal tells a refusal to come back later: 429 or 503 with Retry-After.
func isRefusal(resp *fasthttp.Response) bool {
	status := resp.StatusCode()
	return (status == fasthttp.StatusTooManyRequests || status == fasthttp.StatusServiceUnavailable) &&
		len(resp.Header.Peek(fasthttp.HeaderRetryAfter)) > 0
}

// schedule feeds release times to the workers at o.Rate (or as fast as they take them) until
// o.Duration has passed, then closes jobs. A request is released at its slot, or, when its slot
// passed while the schedule slept, at the wake-up: a timer waking late is the load generator's
// own lateness on a busy or idle virtual machine, not the system's. A slot missed because the
// workers were all busy keeps its time and counts. sleep waits (time.Sleep).
func schedule(ctx context.Context, jobs chan<- time.Time, o Options, start time.Time, sleep func(time.Duration)) {
	defer close(jobs)
	end := start.Add(o.Duration)
	if o.Rate <= 0 {
		for time.Now().Before(end) && ctx.Err() == nil {
			jobs <- time.Now()
		}
		return
	}
	interval := time.Second / time.Duration(o.Rate)
	var awake time.Time
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * interval)
		if !at.Before(end) || ctx.Err() != nil {
			return
		}
		if d := time.Until(at); d > 0 {
			sleep(d)
			awake = time.Now()
		}
		jobs <- later(at, awake)
	}
}

// later returns the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func prepare(req *fasthttp.Request, t Target) {
	req.Reset()
	req.Header.SetMethod(t.Method)
	req.SetRequestURI(t.URL)
	for k, v := range t.Headers {
		req.Header.Set(k, v)
	}
	body := t.Body
	if t.NextBody != nil {
		body = t.NextBody()
	}
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBodyRaw(body)
	}
}
