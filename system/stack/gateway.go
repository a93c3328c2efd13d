package stack

import (
	"context"
	"strconv"
)

// AddGateway starts one more gateway instance in front of the same services, with env added
// after the stack's gateway settings (so that one test can run it with other rate limits).
// It returns the new gateway's base URL; Stop stops it with the rest.
func (s *Stack) AddGateway(ctx context.Context, env ...string) (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	name := "gateway-" + strconv.Itoa(len(s.GatewayURLs)+1)
	if err := s.startService(ctx, name, "gateway", port, env...); err != nil {
		return "", err
	}
	return s.GatewayURLs[len(s.GatewayURLs)-1], nil
}
