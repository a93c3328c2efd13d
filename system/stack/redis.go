package stack

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"
)

// StartRedis starts the stack's own redis-server (Options.OwnRedis) on its port.
func (s *Stack) StartRedis(ctx context.Context) error {
	p, err := startProcess("redis", "redis-server", []string{
		"--port", strconv.Itoa(s.redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
	}, nil, s.opts.Output)
	if err != nil {
		return err
	}
	s.redis = p
	for range 100 {
		if c, err := (&net.Dialer{}).DialContext(ctx, "tcp", fmt.Sprintf("127.0.0.1:%d", s.redisPort)); err == nil {
			c.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("stack: redis-server did not listen on %d", s.redisPort)
}

// StopRedis stops the stack's own redis-server, as an outage would.
func (s *Stack) StopRedis() error {
	if s.redis == nil {
		return fmt.Errorf("stack: StopRedis needs Options.OwnRedis")
	}
	return s.redis.stop(5 * time.Second)
}
