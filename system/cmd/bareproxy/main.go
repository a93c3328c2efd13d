// Command bareproxy is make bench's Go baseline beside nginx: a fasthttp reverse proxy that
// forwards every request to one upstream with fixed headers added, and does nothing else (no
// keys, limits, validation, timeouts or telemetry). The gateway is built on the same server and
// client, so the gateway's CPU per request minus this one's is what the gateway's own work costs.
//
//	bareproxy -listen 127.0.0.1:9000 -upstream 127.0.0.1:8082 -header 'X-Name: value'
package main

import (
	"flag"
	"fmt"
	"log"
	"strings"

	"github.com/valyala/fasthttp"
)

// headers collects repeated -header flags.
type headers [][2]string

func (h *headers) String() string { return fmt.Sprint(*h) }

func (h *headers) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want 'Name: value', got %q", v)
	}
	*h = append(*h, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
	return nil
}

func main() {
	listen := flag.String("listen", "127.0.0.1:9000", "address to serve on")
	upstream := flag.String("upstream", "", "host:port every request is forwarded to")
	var add headers
	flag.Var(&add, "header", "'Name: value' added to every forwarded request (repeatable)")
	flag.Parse()
	if *upstream == "" {
		log.Fatal("bareproxy: -upstream is required")
	}
	server := &fasthttp.Server{Handler: handler(&fasthttp.HostClient{Addr: *upstream, MaxConns: 1024}, add)}
	log.Fatal(server.ListenAndServe(*listen))
}

// handler forwards the request as it came, with add set, and answers with the upstream's answer.
func handler(up *fasthttp.HostClient, add headers) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		for _, h := range add {
			ctx.Request.Header.Set(h[0], h[1])
		}
		if err := up.Do(&ctx.Request, &ctx.Response); err != nil {
			ctx.Error(err.Error(), fasthttp.StatusBadGateway)
		}
	}
}
