package main

import (
	"net"
	"testing"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
)

// TestHandlerForwardsWithHeaders: the upstream sees the client's method, path and body with
// the added headers, and the client gets the upstream's status and body.
func TestHandlerForwardsWithHeaders(t *testing.T) {
	upstream := fasthttputil.NewInmemoryListener()
	defer upstream.Close()
	go func() {
		_ = fasthttp.Serve(upstream, func(ctx *fasthttp.RequestCtx) {
			ctx.SetStatusCode(fasthttp.StatusTeapot)
			ctx.SetBodyString(string(ctx.Method()) + " " + string(ctx.RequestURI()) + " " +
				string(ctx.Request.Header.Peek("X-Identity")) + " " + string(ctx.PostBody()))
		})
	}()
	var add headers
	if err := add.Set("X-Identity: token-1"); err != nil {
		t.Fatal(err)
	}
	up := &fasthttp.HostClient{Addr: "upstream", Dial: func(string) (net.Conn, error) { return upstream.Dial() }}
	proxy := fasthttputil.NewInmemoryListener()
	defer proxy.Close()
	go func() { _ = fasthttp.Serve(proxy, handler(up, add)) }()

	client := &fasthttp.Client{Dial: func(string) (net.Conn, error) { return proxy.Dial() }}
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI("http://proxy/external/v1/organizer/events/evt_1?x=1")
	req.Header.SetMethod(fasthttp.MethodPost)
	req.SetBodyString("{}")
	if err := client.Do(req, res); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode() != fasthttp.StatusTeapot {
		t.Fatalf("status %d, want 418", res.StatusCode())
	}
	if got, want := string(res.Body()), "POST /external/v1/organizer/events/evt_1?x=1 token-1 {}"; got != want {
		t.Fatalf("upstream saw %q, want %q", got, want)
	}
}

func TestHeaderFlagNeedsAName(t *testing.T) {
	var h headers
	for _, bad := range []string{"no colon", ": value"} {
		if err := h.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}
