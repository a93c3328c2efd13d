// Package kafkaacl declares what each service does on Kafka, the topics it produces and the
// topics it consumes, and every topic with its settings (Topics). Each service authenticates as
// its own principal (Principal), granted what follows from its Access (broker.Access.Grants) and
// nothing more, creating no topic: the KafkaUsers and KafkaTopics of the Kubernetes manifests
// (k8s/<svc>/kafkauser.yaml, kafkatopics.yaml) and the ACLs and topics of the Compose stack
// (compose/kafka-init.sh) declare exactly that (the deploy tests check both), and each service's
// tests check that its wiring produces and consumes what is declared here.
package kafkaacl

import (
	"slices"

	"github.com/podiumhq/podium/libs/broker"
)

// Services is the access of every service.
var Services = []broker.Access{
	{Service: "auth", Produces: []string{"auth.keys.v1"}},
	{Service: "catalog", Produces: []string{"catalog.events.v1"}, Consumes: []string{"catalog.events.v1", "registration.places.v1"}},
	{Service: "registration", Produces: []string{"registration.orders.v1", "registration.places.v1", "registration.registrations.v1", "registration.waitlist.v1"}, Consumes: []string{"checkout.payments.v1"}},
	{Service: "checkout", Produces: []string{"checkout.payments.v1"}, Consumes: []string{"registration.orders.v1"}},
	{Service: "gateway", Consumes: []string{"auth.keys.v1", "catalog.events.v1"}},
	{Service: "webhooks", Consumes: []string{"catalog.events.v1", "checkout.payments.v1", "registration.orders.v1", "registration.registrations.v1", "registration.waitlist.v1"}},
}

// Of returns the access declared for service.
func Of(service string) (broker.Access, bool) {
	i := slices.IndexFunc(Services, func(a broker.Access) bool { return a.Service == service })
	if i < 0 {
		return broker.Access{}, false
	}
	return Services[i], true
}

// Principal is the SCRAM user name of service.
func Principal(service string) string { return "podium-" + service }
