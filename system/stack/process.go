package stack

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// process is one running binary of the stack.
type process struct {
	name string
	// svc is the service it is an instance of and port the port it serves on.
	svc  string
	port int
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// startProcess runs bin with env in its own process group (so Ctrl-C reaches only the stack,
// which then stops services in order) and copies its output, prefixed with name, to out.
func startProcess(name, bin string, args, env []string, out io.Writer) (*process, error) {
	// Not tied to a context: the stack stops its processes in order with SIGTERM (stop).
	cmd := exec.Command(bin, args...) //nolint:noctx // see above
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("stack: start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, done: make(chan struct{})}
	var copied sync.WaitGroup
	copied.Add(1)
	go func() {
		defer copied.Done()
		prefixLines(out, pr, name)
	}()
	go func() {
		p.err = cmd.Wait()
		_ = pw.Close()
		copied.Wait()
		close(p.done)
	}()
	return p, nil
}

func prefixLines(out io.Writer, in io.Reader, name string) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		fmt.Fprintf(out, "%-12s %s\n", name, sc.Text())
	}
}

// exited reports whether the process has ended.
func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop asks the process to shut down and waits up to grace before killing it.
func (p *process) stop(grace time.Duration) error {
	if p.exited() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
		return fmt.Errorf("stack: %s did not stop within %v and was killed", p.name, grace)
	}
	return nil
}

// AwaitListen waits until something accepts connections on addr (host:port), for about 15
// seconds at most (a loaded machine starts stripe-mock slowly); exited, if set, reports that
// the process meant to listen there has ended, which ends the wait at once.
func AwaitListen(ctx context.Context, addr string, exited func() bool) error {
	for range 750 {
		if c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr); err == nil {
			c.Close()
			return nil
		}
		if exited != nil && exited() {
			return fmt.Errorf("exited before listening on %s", addr)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("did not listen on %s", addr)
}

// run runs a short command (a migration) to completion.
func run(ctx context.Context, name, bin string, args, env []string, out io.Writer) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	done := make(chan struct{})
	go func() { prefixLines(out, pr, name); close(done) }()
	err := cmd.Run()
	_ = pw.Close()
	<-done
	if err != nil {
		return fmt.Errorf("stack: %s: %w", name, err)
	}
	return nil
}
