package stack

import (
	"context"
	"fmt"
	"strconv"
	"syscall"
	"time"
)

// AddInstance starts one more instance of an owner service ("registration", ...) behind its
// front (Options.Faults), named "<svc>-2", "<svc>-3", ..., and returns its name.
func (s *Stack) AddInstance(ctx context.Context, svc string) (string, error) {
	if s.front(svc) == nil {
		return "", fmt.Errorf("stack: %s has no front: AddInstance needs Options.Faults and an owner service", svc)
	}
	port, err := FreePort()
	if err != nil {
		return "", err
	}
	name := svc + "-" + strconv.Itoa(len(s.Instances(svc))+1)
	return name, s.startService(ctx, name, svc, port)
}

// Instances returns the names of the instances of service svc, in start order.
func (s *Stack) Instances(svc string) []string {
	var out []string
	for _, p := range s.procs {
		if p.svc == svc {
			out = append(out, p.name)
		}
	}
	return out
}

// RestartInstance restarts one instance as a rolling deployment does: it is taken out of its
// front (no new connections reach it), asked to shut down (it finishes what it has in flight),
// started again on its port and put back once ready.
func (s *Stack) RestartInstance(ctx context.Context, name string) error {
	i := s.procIndex(name)
	if i < 0 {
		return fmt.Errorf("stack: no instance %q", name)
	}
	p := s.procs[i]
	if f := s.front(p.svc); f != nil {
		f.remove(fmt.Sprintf("127.0.0.1:%d", p.port))
	}
	if err := p.stop(20 * time.Second); err != nil {
		return err
	}
	return s.StartService(ctx, name)
}

// KillInstance kills an instance at once (SIGKILL), as a crash or a lost machine would: what it
// had in flight is cut. Its front keeps it in rotation, so callers meet a refused connection
// there and go to another instance. StartService starts it again.
func (s *Stack) KillInstance(name string) error {
	i := s.procIndex(name)
	if i < 0 {
		return fmt.Errorf("stack: no instance %q", name)
	}
	p := s.procs[i]
	if p.exited() {
		return nil
	}
	if err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("stack: kill %s: %w", name, err)
	}
	<-p.done
	return nil
}

// InstanceURL is the base URL of one instance itself ("registration-2", "gateway"), not of its
// front.
func (s *Stack) InstanceURL(name string) string {
	i := s.procIndex(name)
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("http://127.0.0.1:%d", s.procs[i].port)
}
