// Package edgecache keeps the answers owners mark as shareable, so the gateway serves hot public
// reads without the hop to the owner. An owner opts an answer in with `Surrogate-Control:
// max-age=N` (the W3C Edge Architecture header meant for surrogates such as this one; it never
// reaches clients); the gateway keeps it for N seconds, at most its own maximum. Answers are
// kept under a Key, a digest the caller computes of everything the answer depends on,
// including the current Generation of its scope (an organizer): Purge moves the generation on,
// so every answer of the scope becomes unreachable at once, those being fetched while it runs
// included. Memory is bounded by a number of answers and by their bytes.
package edgecache

import (
	"bytes"
	"crypto/sha256"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/valyala/fasthttp"
)

// HeaderSurrogateControl is the owner's permission to keep an answer at the edge.
const HeaderSurrogateControl = "Surrogate-Control"

// headers are the answer headers kept with the body.
var headers = []string{
	fasthttp.HeaderContentType, fasthttp.HeaderCacheControl, fasthttp.HeaderETag,
	fasthttp.HeaderLastModified, fasthttp.HeaderContentLanguage,
}

// entryOverhead approximates what an entry costs besides its body and headers.
const entryOverhead = 128

// Key names an answer: a SHA-256 of everything it depends on.
type Key [sha256.Size]byte

// Entry is a kept answer.
type Entry struct {
	Status  int
	Body    []byte
	Headers [][2][]byte
	Expires time.Time
	size    int
}

// Cache is a bounded set of answers, each kept until it expires or is evicted (least recently
// used first). The generations are apart from the answers' lock: every request reads one, and
// reading it takes no lock.
type Cache struct {
	mu       sync.Mutex
	lru      *simplelru.LRU[Key, *Entry]
	bytes    int
	maxBytes int
	gens     sync.Map      // scope -> *atomic.Uint64, moved on by Purge
	all      atomic.Uint64 // moved on by PurgeAll, part of every scope's generation
	maxTTL   time.Duration
	now      func() time.Time
}

// New returns a cache of up to size answers and maxBytes bytes, none kept longer than maxTTL.
func New(size, maxBytes int, maxTTL time.Duration, now func() time.Time) *Cache {
	c := &Cache{maxBytes: maxBytes, maxTTL: maxTTL, now: now}
	l, err := simplelru.NewLRU[Key, *Entry](size, func(_ Key, e *Entry) { c.bytes -= e.size })
	if err != nil {
		panic(err) // only for size <= 0, which the configuration refuses
	}
	c.lru = l
	return c
}

// Generation is the generation of a scope, to be part of the keys of its answers: how many
// times PurgeAll and Purge of the scope have run. Both only grow.
type Generation struct{ All, Scope uint64 }

// Generation is the current generation of scope. Its two counts are read apart: when a purge
// runs in between, the pair holds a count read after it, and the answer the caller fetches
// after both reads is no older than the purge.
func (c *Cache) Generation(scope string) Generation {
	var gen uint64
	if g, ok := c.gens.Load(scope); ok {
		gen = g.(*atomic.Uint64).Load()
	}
	return Generation{All: c.all.Load(), Scope: gen}
}

// Purge makes every answer of scope unreachable; they leave as the least recently used.
func (c *Cache) Purge(scope string) {
	g, _ := c.gens.LoadOrStore(scope, new(atomic.Uint64))
	g.(*atomic.Uint64).Add(1)
}

// PurgeAll makes every answer unreachable.
func (c *Cache) PurgeAll() { c.all.Add(1) }

// Get returns the live answer under key.
func (c *Cache) Get(key Key) (*Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Get(key)
	if !ok {
		return nil, false
	}
	if !c.now().Before(e.Expires) {
		c.lru.Remove(key)
		return nil, false
	}
	return e, true
}

// Put keeps res under key when it is a success the owner allowed to share (ShareFor) and not
// larger than a sixteenth of the byte budget. The Surrogate-Control header is removed from res
// in every case: it is meant for the edge only.
func (c *Cache) Put(key Key, res *fasthttp.Response) {
	ttl := min(ShareFor(&res.Header), c.maxTTL)
	res.Header.Del(HeaderSurrogateControl)
	if ttl <= 0 || (res.StatusCode() != fasthttp.StatusOK && res.StatusCode() != fasthttp.StatusCreated) {
		return
	}
	e := &Entry{Status: res.StatusCode(), Body: bytes.Clone(res.Body()), Expires: c.now().Add(ttl)}
	e.size = entryOverhead + len(e.Body)
	for _, h := range headers {
		if v := res.Header.Peek(h); len(v) > 0 {
			e.Headers = append(e.Headers, [2][]byte{[]byte(h), bytes.Clone(v)})
			e.size += len(h) + len(v)
		}
	}
	if e.size > c.maxBytes/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.lru.Peek(key); ok { // a replaced entry is not evicted: give its bytes back
		c.bytes -= old.size
	}
	c.lru.Add(key, e)
	c.bytes += e.size
	for c.bytes > c.maxBytes {
		c.lru.RemoveOldest()
	}
}

// Len is the number of answers held, expired ones included until they are looked up.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Bytes is what the answers held take, roughly.
func (c *Cache) Bytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// ShareFor is how long the owner allows the edge to keep the answer: Surrogate-Control's
// max-age, or zero when it is absent, malformed or says no-store.
func ShareFor(h *fasthttp.ResponseHeader) time.Duration {
	v := h.Peek(HeaderSurrogateControl)
	var ttl time.Duration
	for len(v) > 0 {
		var d []byte
		d, v, _ = bytes.Cut(v, []byte(","))
		d = bytes.TrimSpace(d)
		if bytes.EqualFold(d, []byte("no-store")) {
			return 0
		}
		if name, val, ok := bytes.Cut(d, []byte("=")); ok && bytes.EqualFold(name, []byte("max-age")) {
			n, err := strconv.Atoi(string(val))
			if err != nil || n < 0 {
				return 0
			}
			ttl = time.Duration(n) * time.Second
		}
	}
	return ttl
}
