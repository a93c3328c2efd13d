// Package redisconn opens go-redis clients with short timeouts and tracing, so a slow or absent
// Redis costs callers milliseconds rather than seconds.
package redisconn

import (
	"fmt"
	"time"

	"github.com/redis/go-redis/extra/redisotel/v9"
	"github.com/redis/go-redis/v9"
)

// Open parses url (redis://host:port/db, timeouts settable as query parameters) and returns a
// client. It does not connect: callers decide whether an absent Redis is fatal.
func Open(url string, tracing bool) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisconn: %w", err)
	}
	setDefault(&opt.DialTimeout, 250*time.Millisecond)
	setDefault(&opt.ReadTimeout, 200*time.Millisecond)
	setDefault(&opt.WriteTimeout, 200*time.Millisecond)
	setDefault(&opt.PoolTimeout, 250*time.Millisecond)
	if opt.MaxRetries == 0 {
		opt.MaxRetries = 1
	}
	if opt.DialerRetries == 0 {
		// One attempt per command: a caller with a fallback (the gateway) should learn at once.
		opt.DialerRetries = 1
	}
	rdb := redis.NewClient(opt)
	if tracing {
		if err := redisotel.InstrumentTracing(rdb, redisotel.WithCallerEnabled(false), redisotel.WithDBStatement(false)); err != nil {
			return nil, fmt.Errorf("redisconn: tracing: %w", err)
		}
	}
	return rdb, nil
}

func setDefault(d *time.Duration, v time.Duration) {
	if *d == 0 {
		*d = v
	}
}
