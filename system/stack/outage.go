package stack

import (
	"context"
	"fmt"
	"time"
)

// StopService stops one of the stack's services ("auth", "catalog", ...) as an outage would;
// StartService starts it again where it was.
func (s *Stack) StopService(name string) error {
	i := s.procIndex(name)
	if i < 0 {
		return fmt.Errorf("stack: no running service %q", name)
	}
	return s.procs[i].stop(20 * time.Second)
}

// StartService starts a service StopService stopped, on the same port, so that the services
// calling it find it again.
func (s *Stack) StartService(ctx context.Context, name string) error {
	i := s.procIndex(name)
	if i < 0 {
		return fmt.Errorf("stack: %q was never started", name)
	}
	old := s.procs[i]
	if !old.exited() {
		return fmt.Errorf("stack: %s is still running", name)
	}
	if err := s.startService(ctx, name, old.svc, old.port); err != nil {
		return err
	}
	// The new process takes the old one's place, so Stop keeps stopping services in order.
	last := len(s.procs) - 1
	s.procs[i] = s.procs[last]
	s.procs = s.procs[:last]
	return nil
}

func (s *Stack) procIndex(name string) int {
	for i, p := range s.procs {
		if p.name == name {
			return i
		}
	}
	return -1
}
