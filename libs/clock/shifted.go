package clock

import (
	"os"
	"strings"
	"sync"
	"time"
)

// shiftReload is how often a shifted clock looks at its file again.
const shiftReload = 100 * time.Millisecond

// Shifted returns a clock running ahead of base by the duration written in the file at path
// (Go syntax, e.g. "26h"); a missing or empty file is no shift, and the file is read again at
// most every 100 ms, so a change is seen at once by every caller. Only local stacks and fault
// tests set it, to let days of a schedule pass in minutes; a file that does not parse keeps
// the last shift.
func Shifted(base Clock, path string) Clock {
	s := &shift{base: base, path: path}
	return s.now
}

type shift struct {
	base Clock
	path string

	mu     sync.Mutex
	by     time.Duration
	readAt time.Time
}

func (s *shift) now() time.Time {
	t := s.base()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readAt.IsZero() || t.Sub(s.readAt) >= shiftReload || t.Before(s.readAt) {
		s.readAt = t
		s.by = s.read()
	}
	return t.Add(s.by)
}

func (s *shift) read() time.Duration {
	b, err := os.ReadFile(s.path)
	if err != nil {
		return 0
	}
	text := strings.TrimSpace(string(b))
	if text == "" {
		return 0
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return s.by
	}
	return d
}
