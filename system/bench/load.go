// Package bench measures the running system: it drives HTTP load at a fixed rate against a
// target, records every latency and reads the CPU time the services spent, so that a path
// can be compared with its baseline in the same run.
package bench

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

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
}

// Result is what one run measured.
type Result struct {
	Target   string
	Requests int
	Errors   int
	Elapsed  time.Duration
	// Latencies are sorted ascending.
	Latencies []time.Duration
	// CPU is the CPU time each watched process spent during the run.
	CPU map[string]time.Duration
}

// Quantile returns the q-quantile latency (0 < q <= 1).
func (r Result) Quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := int(q*float64(len(r.Latencies))+0.5) - 1
	return r.Latencies[min(max(i, 0), len(r.Latencies)-1)]
}

// Throughput is the completed requests per second.
func (r Result) Throughput() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// CPUPerRequest is the CPU time process name spent per request.
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
	// Processes are watched for CPU time, by name.
	Processes map[string]int
}

// Run sends t for o.Duration and returns what it measured.
func Run(ctx context.Context, t Target, o Options) (Result, error) {
	client := &fasthttp.Client{MaxConnsPerHost: o.Workers * 2, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second}
	jobs := make(chan time.Time, o.Workers*4)
	var mu sync.Mutex
	res := Result{Target: t.Name, CPU: map[string]time.Duration{}}
	lat := make([][]time.Duration, o.Workers)
	errs := make([]int, o.Workers)
	var firstErr error
	var wg sync.WaitGroup
	for w := range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			for scheduled := range jobs {
				prepare(req, t)
				// Latency counts from when the schedule released the request (see schedule), so
				// a backlog shows as latency instead of silently lowering the rate (no
				// coordinated omission). Closed-loop runs have no schedule to fall behind: their
				// latency is the request's own.
				from := scheduled
				if o.Rate <= 0 {
					from = time.Now()
				}
				err := client.Do(req, resp)
				lat[w] = append(lat[w], time.Since(from))
				if err != nil || resp.StatusCode() != t.Status {
					errs[w]++
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s: status %d: %.200s", t.Name, resp.StatusCode(), resp.Body())
						if err != nil {
							firstErr = fmt.Errorf("%s: %w", t.Name, err)
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	before, err := cpuTimes(o.Processes)
	if err != nil {
		return res, err
	}
	start := time.Now()
	schedule(ctx, jobs, o, start)
	wg.Wait()
	res.Elapsed = time.Since(start)
	after, err := cpuTimes(o.Processes)
	if err != nil {
		return res, err
	}
	for name := range o.Processes {
		res.CPU[name] = after[name] - before[name]
	}
	for w := range o.Workers {
		res.Latencies = append(res.Latencies, lat[w]...)
		res.Errors += errs[w]
	}
	slices.Sort(res.Latencies)
	res.Requests = len(res.Latencies)
	if res.Errors > 0 {
		return res, fmt.Errorf("bench: %d of %d requests failed; first: %w", res.Errors, res.Requests, firstErr)
	}
	return res, nil
}

// schedule feeds release times to the workers at o.Rate (or as fast as they take them) until
// o.Duration has passed, then closes jobs. A request is released at its slot; when the
// schedule had to sleep for it and woke late, at the wake-up instead: that lateness is the
// load generator's own timer on a busy or idle virtual machine, not the system's, while a slot
// missed because the workers were all busy keeps its time and counts.
func schedule(ctx context.Context, jobs chan<- time.Time, o Options, start time.Time) {
	defer close(jobs)
	end := start.Add(o.Duration)
	if o.Rate <= 0 {
		for time.Now().Before(end) && ctx.Err() == nil {
			jobs <- time.Now()
		}
		return
	}
	interval := time.Second / time.Duration(o.Rate)
	for i := 0; ; i++ {
		at := start.Add(time.Duration(i) * interval)
		if !at.Before(end) || ctx.Err() != nil {
			return
		}
		released := at
		if d := time.Until(at); d > 0 {
			time.Sleep(d)
			released = time.Now()
		}
		jobs <- released
	}
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

func sortDurations(d []time.Duration) { slices.Sort(d) }
