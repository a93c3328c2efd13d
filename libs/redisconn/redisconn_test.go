package redisconn_test

import (
	"testing"
	"time"

	"github.com/podiumhq/podium/libs/redisconn"
	"github.com/podiumhq/podium/libs/testkit"
)

func TestOpenTalksToRedis(t *testing.T) {
	_, prefix := testkit.Redis(t)
	rdb, err := redisconn.Open(testkit.RedisURL(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	ctx := t.Context()
	if err := rdb.Set(ctx, prefix+"k", "v", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if got := rdb.Get(ctx, prefix+"k").Val(); got != "v" {
		t.Fatalf("got %q", got)
	}
}

func TestShortTimeoutsUnlessTheURLSetsThem(t *testing.T) {
	rdb, err := redisconn.Open("redis://127.0.0.1:1/0", false) // nothing listens on port 1
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	if o := rdb.Options(); o.DialTimeout != 250*time.Millisecond || o.ReadTimeout != 200*time.Millisecond {
		t.Fatalf("timeouts dial %v read %v, want 250ms and 200ms", o.DialTimeout, o.ReadTimeout)
	}
	if err := rdb.Ping(t.Context()).Err(); err == nil {
		t.Fatal("ping to a closed port succeeded")
	}
	set, err := redisconn.Open("redis://127.0.0.1:6379/0?read_timeout=2s", false)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if got := set.Options().ReadTimeout; got != 2*time.Second {
		t.Fatalf("read timeout from the URL = %v, want 2s", got)
	}
}

func TestOpenRejectsBadURL(t *testing.T) {
	if _, err := redisconn.Open("http://nope", false); err == nil {
		t.Fatal("Open accepted a non-redis URL")
	}
}
