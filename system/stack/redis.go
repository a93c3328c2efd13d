package stack

import (
	"context"
	"fmt"
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
	if err := AwaitListen(ctx, "127.0.0.1:"+strconv.Itoa(s.redisPort), p.exited); err != nil {
		return fmt.Errorf("stack: redis-server: %w", err)
	}
	return nil
}

// StopRedis stops the stack's own redis-server, as an outage would.
func (s *Stack) StopRedis() error {
	if s.redis == nil {
		return fmt.Errorf("stack: StopRedis needs Options.OwnRedis")
	}
	return s.redis.stop(5 * time.Second)
}
