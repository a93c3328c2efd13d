package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// PoisonError marks a message that can never be handled, however often it is tried: its data
// does not decode, its event version is unknown to the consumer, or a required field is
// missing. Consume moves such a message to the dead-letter topic at once; every other error is
// a failure of something the handler depends on and is retried until it succeeds.
type PoisonError struct{ Err error }

func (e *PoisonError) Error() string { return "poison message: " + e.Err.Error() }

func (e *PoisonError) Unwrap() error { return e.Err }

// Poison marks err as a reason the message can never be handled. Poison(nil) is nil.
func Poison(err error) error {
	if err == nil {
		return nil
	}
	return &PoisonError{Err: err}
}

// Poisonf is Poison of an error formatted like fmt.Errorf.
func Poisonf(format string, args ...any) error {
	return Poison(fmt.Errorf(format, args...))
}

// IsPoison reports whether err, or an error it wraps, is a PoisonError.
func IsPoison(err error) bool {
	var p *PoisonError
	return errors.As(err, &p)
}

// Decode unmarshals m's JSON value into v. A value that does not decode is poison.
func Decode(m Message, v any) error {
	if err := json.Unmarshal(m.Value, v); err != nil {
		return Poisonf("%s: undecodable data: %w", describe(m), err)
	}
	return nil
}

// Accepts reports whether m's ce_type is one of types, the ones the consumer handles, published
// to topic, the topic their producer owns. A type of the same family as one of them (the same
// name before ".v<N>") in another version is poison: the consumer does not know that version
// yet (a new release of it can handle the message once replayed); so is a message without a
// type, and one of these types found on another topic: only the producer's principal may
// write its topic, so an event elsewhere (a payment on a topic others may write) was not
// published by it. Any other type is not the consumer's concern (false, nil).
func Accepts(m Message, topic string, types ...string) (bool, error) {
	typ := m.Headers[HeaderType]
	if typ == "" {
		return false, Poisonf("%s: no %s header", describe(m), HeaderType)
	}
	handled := slices.Contains(types, typ)
	var known string // another version of typ, which the consumer handles
	if family := typeFamily(typ); !handled && family != "" {
		for _, t := range types {
			if typeFamily(t) == family {
				known = t
			}
		}
	}
	switch {
	case !handled && known == "":
		return false, nil
	case m.Topic != topic:
		return false, Poisonf("%s: accepted only from %s", describe(m), topic)
	case !handled:
		return false, Poisonf("%s: unsupported event version (handles %s)", describe(m), known)
	}
	return true, nil
}

// RequireID returns m's ce_id; a message without one cannot be deduplicated by an inbox and is
// poison.
func RequireID(m Message) (string, error) {
	if id := m.Headers[HeaderID]; id != "" {
		return id, nil
	}
	return "", Poisonf("%s: no %s header", describe(m), HeaderID)
}

// typeFamily returns a versioned type's name without its ".v<N>" suffix, or "" when the type
// carries no version.
func typeFamily(typ string) string {
	i := strings.LastIndex(typ, ".v")
	if i <= 0 || i+2 == len(typ) {
		return ""
	}
	for _, r := range typ[i+2:] {
		if r < '0' || r > '9' {
			return ""
		}
	}
	return typ[:i]
}

// describe names a message in errors: its type and position, never its data.
func describe(m Message) string {
	typ := m.Headers[HeaderType]
	if typ == "" {
		typ = "untyped message"
	}
	return fmt.Sprintf("%s at %s/%d/%d", typ, m.Topic, m.Partition, m.Offset)
}
