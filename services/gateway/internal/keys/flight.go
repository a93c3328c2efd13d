package keys

import "errors"

// A lookup in auth is made once for concurrent callers of one key or origin. Only the caller
// that starts it is charged its admission (the per-address lookup limit): callers that join a
// lookup in flight pay nothing, so a page's first burst of requests costs one lookup, and a
// joiner never takes another caller's refusal as its own: when the lookup it joined was
// refused admission, it tries again on its own account.

// maxJoins bounds how often a caller joins lookups that other callers' refusals ended before
// it pays its own admission and looks up for itself.
const maxJoins = 3

// refusal is an admission refused to the caller that started a lookup, marked with it.
type refusal struct {
	by  *byte
	err error
}

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// once runs lookup for name once for concurrent callers, charging admit (when set) only when
// this caller starts it, and returns its result.
func (s *Store) once(name string, admit func() error, lookup func() (any, error)) (any, error) {
	for range maxJoins {
		me := new(byte)
		v, err, _ := s.flight.Do(name, func() (any, error) {
			if admit != nil {
				if err := admit(); err != nil {
					return nil, &refusal{by: me, err: err}
				}
			}
			return lookup()
		})
		var r *refusal
		if !errors.As(err, &r) {
			return v, err
		}
		if r.by == me {
			return nil, r.err
		}
	}
	if admit != nil {
		if err := admit(); err != nil {
			return nil, err
		}
	}
	v, err, _ := s.flight.Do(name, lookup)
	return v, err
}
