package brokertest

import (
	"slices"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/broker"
)

// CheckAccess checks a service's wiring against the access declared for it, which its Kafka
// principal is granted alone (deploy/kafkaacl): the topics it publishes on are those of its
// contracts (nil for a service that publishes nothing), its consumers read exactly the topics
// it consumes, in groups of its own, and its dead-letters command covers them (a service that
// consumes nothing has none: the zero DeadLetters).
func CheckAccess(t testing.TB, declared broker.Access, contracts *Contracts, consumers []broker.ConsumerConfig, deadLetters broker.DeadLetters) {
	t.Helper()
	var produced []string
	if contracts != nil {
		produced = contracts.Topics()
	}
	if want := sorted(declared.Produces); !slices.Equal(produced, want) {
		t.Errorf("%s publishes on %v, its declared access %v", declared.Service, produced, want)
	}
	var consumed []string
	for _, c := range consumers {
		consumed = append(consumed, c.Topics...)
		if !strings.HasPrefix(c.Group, declared.Service+"-") {
			t.Errorf("%s: consumer group %q is not one of %s-*, which its principal may use", declared.Service, c.Group, declared.Service)
		}
	}
	if got, want := sorted(consumed), sorted(declared.Consumes); !slices.Equal(got, want) {
		t.Errorf("%s consumes %v, its declared access %v", declared.Service, got, want)
	}
	if len(declared.Consumes) == 0 && deadLetters.Service == "" {
		return
	}
	if got, want := sorted(deadLetters.Topics), sorted(declared.Consumes); deadLetters.Service != declared.Service || !slices.Equal(got, want) {
		t.Errorf("%s: its dead-letters command is %s's of %v, want its own of %v", declared.Service, deadLetters.Service, got, want)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
