package testkit

import (
	"context"
	"os"
	"testing"

	"github.com/redis/go-redis/v9"
)

// RedisURL is the Redis server tests use (TEST_REDIS_URL).
func RedisURL() string {
	if u := os.Getenv("TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}

// Redis returns a client and a key prefix of the test's own; keys under the prefix are deleted
// when the test ends.
func Redis(t testing.TB) (*redis.Client, string) {
	t.Helper()
	opt, err := redis.ParseURL(RedisURL())
	if err != nil {
		t.Fatalf("testkit: TEST_REDIS_URL: %v", err)
	}
	rdb := redis.NewClient(opt)
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("testkit: Redis at %s: %v", RedisURL(), err)
	}
	prefix := "test:" + randomHex(6) + ":"
	t.Cleanup(func() {
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, prefix+"*", 500).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
		_ = rdb.Close()
	})
	return rdb, prefix
}
