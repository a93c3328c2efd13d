package bench

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"

	"github.com/podiumhq/podium/system/stack"
)

// BareProxy is system/cmd/bareproxy in front of one owner: fasthttp's server and client, which
// the gateway is built on, forwarding with the owner's identity headers set statically. It is
// the baseline of what proxying alone costs in Go on this machine.
type BareProxy struct {
	URL string
	cmd *exec.Cmd
}

// StartBareProxy runs bareproxy (make bench builds it into bin/tools) proxying to upstream
// (host:port), adding headers to every request, until Close.
func StartBareProxy(ctx context.Context, upstream string, headers map[string]string) (*BareProxy, error) {
	bin, err := exec.LookPath("bareproxy")
	if err != nil {
		return nil, errors.New("bench: bareproxy is not built (make bench builds it into bin/tools)")
	}
	port, err := stack.FreePort()
	if err != nil {
		return nil, err
	}
	listen := "127.0.0.1:" + strconv.Itoa(port)
	args := []string{"-listen", listen, "-upstream", upstream}
	for name, value := range headers {
		args = append(args, "-header", name+": "+value)
	}
	p := &BareProxy{URL: "http://" + listen, cmd: exec.CommandContext(ctx, bin, args...)}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: bareproxy: %w", err)
	}
	if err := stack.AwaitListen(ctx, listen, nil); err != nil {
		p.Close()
		return nil, fmt.Errorf("bench: bareproxy %w", err)
	}
	return p, nil
}

// PID is the proxy's process, for CPU accounting.
func (p *BareProxy) PID() int { return p.cmd.Process.Pid }

// Close stops the proxy.
func (p *BareProxy) Close() {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}
