package broker

import (
	"cmp"
	"slices"
)

// Access is what one service does on Kafka: the topics it publishes to and the topics it
// consumes, in consumer groups named "<Service>-...". Its principal needs the Grants that follow
// from it, and no more: a service writes no topic it does not produce.
type Access struct {
	Service  string
	Produces []string
	Consumes []string
}

// Kafka ACL resource types and operations the grants use (Describe is implied by Read and
// Write: Kafka grants it with either). No grant is Create: the platform declares every topic
// with fixed settings, so no service can make one another service uses, with settings of its
// own (a min.insync.replicas above the replication factor fails every publish).
const (
	ResourceTopic = "topic"
	ResourceGroup = "group"
	OpRead        = "Read"
	OpWrite       = "Write"
)

// Grant allows operations on the resource of a type named Name, or on every one whose name
// starts with Name when Prefix is set.
type Grant struct {
	Resource   string
	Name       string
	Prefix     bool
	Operations []string
}

// Grants returns the ACLs a's principal needs, sorted by resource and name, each with its
// operations sorted:
//
//   - a topic it produces: Write;
//   - a topic it consumes: Read;
//   - its own dead-letter topic of each (DeadLetterTopic), which no other principal writes:
//     Write (poison messages) and Read (the dead-letters command);
//   - its replay topic, when it consumes: Read (its consumers and the dead-letters command,
//     which finds there what was replayed) and Write (the dead-letters command);
//   - the consumer groups "<Service>-*", when it consumes: Read (joining, committing), with the
//     Describe it implies (listing and describing its own groups).
//
// It has no Create: every topic exists before the service starts, so EnsureTopics finds it and
// asks for nothing.
func (a Access) Grants() []Grant {
	type resource struct {
		kind, name string
		prefix     bool
	}
	ops := map[resource]map[string]bool{}
	grant := func(kind, name string, prefix bool, operations ...string) {
		k := resource{kind, name, prefix}
		if ops[k] == nil {
			ops[k] = map[string]bool{}
		}
		for _, op := range operations {
			ops[k][op] = true
		}
	}
	for _, t := range a.Produces {
		grant(ResourceTopic, t, false, OpWrite)
	}
	for _, t := range a.Consumes {
		grant(ResourceTopic, t, false, OpRead)
		grant(ResourceTopic, DeadLetterTopic(a.Service, t), false, OpRead, OpWrite)
	}
	if len(a.Consumes) > 0 {
		grant(ResourceTopic, ReplayTopic(a.Service), false, OpRead, OpWrite)
		grant(ResourceGroup, a.Service+"-", true, OpRead)
	}
	out := make([]Grant, 0, len(ops))
	for r, set := range ops {
		g := Grant{Resource: r.kind, Name: r.name, Prefix: r.prefix}
		for op := range set {
			g.Operations = append(g.Operations, op)
		}
		slices.Sort(g.Operations)
		out = append(out, g)
	}
	slices.SortFunc(out, func(x, y Grant) int {
		return cmp.Or(cmp.Compare(x.Resource, y.Resource), cmp.Compare(x.Name, y.Name))
	})
	return out
}
