package stack

import (
	"context"
	"fmt"
	"time"
)

// AddGateway starts one more gateway instance in front of the same services, with env added
// after the stack's gateway settings (so that one test can run it with other rate limits). It
// is not one of GatewayURLs, whose instances share the stack's settings. It returns the new
// gateway's base URL and a function that stops it (Stop stops it too).
func (s *Stack) AddGateway(ctx context.Context, env ...string) (string, func() error, error) {
	port, err := FreePort()
	if err != nil {
		return "", nil, err
	}
	if err := s.startService(ctx, extraGateway+randomHex(2), "gateway", port, env...); err != nil {
		return "", nil, err
	}
	p := s.procs[len(s.procs)-1]
	return fmt.Sprintf("http://127.0.0.1:%d", port), func() error { return p.stop(20 * time.Second) }, nil
}

// extraGateway starts the names of the gateways AddGateway starts, which are not GatewayURLs.
const extraGateway = "gateway-extra-"
