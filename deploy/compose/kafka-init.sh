#!/bin/sh
# Declares the Compose stack's Kafka (docker-compose.yml, kafka-init): every topic with its fixed
# settings, and each service's principal, a SCRAM-SHA-512 user with the password the service is
# given and exactly the ACLs of what it produces and consumes; as deploy/kafkaacl declares them
# (Topics, on one broker) and broker.Access.Grants derives them (the deploy tests check these lines
# against both). No principal may create a topic. It talks to the ADMIN listener on the broker's
# loopback, whose principal is the super user; running it again changes nothing, and sets the
# settings of a topic that exists back to these.
set -eu
admin=127.0.0.1:9094
bin=/opt/kafka/bin

# topic <name> <partitions> <replication factor> <config>=<value>...: made when missing, and its
# configuration set to these either way.
topic() {
  name=$1 partitions=$2 replicas=$3
  shift 3
  configs=$(IFS=,; echo "$*")
  for c in "$@"; do set -- "$@" --config "$c"; shift; done
  "$bin/kafka-topics.sh" --bootstrap-server "$admin" --create --if-not-exists --topic "$name" \
    --partitions "$partitions" --replication-factor "$replicas" "$@"
  "$bin/kafka-configs.sh" --bootstrap-server "$admin" --alter --entity-type topics --entity-name "$name" \
    --add-config "$configs"
}

# user <name> <password>
user() {
  "$bin/kafka-configs.sh" --bootstrap-server "$admin" --alter --entity-type users --entity-name "$1" \
    --add-config "SCRAM-SHA-512=[iterations=8192,password=$2]"
}

# allow <user> <topic|group> <literal|prefixed> <name> <operation>...
allow() {
  principal=$1 type=$2 pattern=$3 name=$4
  shift 4
  for op in "$@"; do set -- "$@" --operation "$op"; shift; done
  "$bin/kafka-acls.sh" --bootstrap-server "$admin" --add --allow-principal "User:$principal" \
    --resource-pattern-type "$pattern" "--$type" "$name" "$@"
}

# Event topics, kept a week; each consuming service's dead-letter and replay topics, kept forever.
topic auth.keys.v1 3 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=604800000
topic catalog.events.v1 3 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=604800000
topic checkout.payments.v1 3 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=604800000
topic registration.orders.v1 3 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=604800000
topic registration.places.v1 3 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=604800000
topic registration.registrations.v1 3 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=604800000
topic registration.waitlist.v1 3 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=604800000
topic catalog.catalog.events.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic catalog.registration.places.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic catalog.replays 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic checkout.registration.orders.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic checkout.replays 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic gateway.auth.keys.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic gateway.catalog.events.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic gateway.replays 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic registration.checkout.payments.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic registration.replays 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic webhooks.catalog.events.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic webhooks.checkout.payments.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic webhooks.registration.orders.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic webhooks.registration.registrations.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic webhooks.registration.waitlist.v1.dead-letter 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1
topic webhooks.replays 1 1 cleanup.policy=delete min.insync.replicas=1 retention.bytes=-1 retention.ms=-1

user podium-auth "$AUTH_KAFKA_PASSWORD"
allow podium-auth topic literal auth.keys.v1 Write

user podium-catalog "$CATALOG_KAFKA_PASSWORD"
allow podium-catalog group prefixed catalog- Read
allow podium-catalog topic literal catalog.catalog.events.v1.dead-letter Read Write
allow podium-catalog topic literal catalog.events.v1 Read Write
allow podium-catalog topic literal catalog.registration.places.v1.dead-letter Read Write
allow podium-catalog topic literal catalog.replays Read Write
allow podium-catalog topic literal registration.places.v1 Read

user podium-registration "$REGISTRATION_KAFKA_PASSWORD"
allow podium-registration group prefixed registration- Read
allow podium-registration topic literal checkout.payments.v1 Read
allow podium-registration topic literal registration.checkout.payments.v1.dead-letter Read Write
allow podium-registration topic literal registration.orders.v1 Write
allow podium-registration topic literal registration.places.v1 Write
allow podium-registration topic literal registration.registrations.v1 Write
allow podium-registration topic literal registration.waitlist.v1 Write
allow podium-registration topic literal registration.replays Read Write

user podium-checkout "$CHECKOUT_KAFKA_PASSWORD"
allow podium-checkout group prefixed checkout- Read
allow podium-checkout topic literal checkout.payments.v1 Write
allow podium-checkout topic literal checkout.registration.orders.v1.dead-letter Read Write
allow podium-checkout topic literal checkout.replays Read Write
allow podium-checkout topic literal registration.orders.v1 Read

user podium-gateway "$GATEWAY_KAFKA_PASSWORD"
allow podium-gateway group prefixed gateway- Read
allow podium-gateway topic literal auth.keys.v1 Read
allow podium-gateway topic literal catalog.events.v1 Read
allow podium-gateway topic literal gateway.auth.keys.v1.dead-letter Read Write
allow podium-gateway topic literal gateway.catalog.events.v1.dead-letter Read Write
allow podium-gateway topic literal gateway.replays Read Write

user podium-webhooks "$WEBHOOKS_KAFKA_PASSWORD"
allow podium-webhooks group prefixed webhooks- Read
allow podium-webhooks topic literal catalog.events.v1 Read
allow podium-webhooks topic literal webhooks.catalog.events.v1.dead-letter Read Write
allow podium-webhooks topic literal checkout.payments.v1 Read
allow podium-webhooks topic literal webhooks.checkout.payments.v1.dead-letter Read Write
allow podium-webhooks topic literal registration.orders.v1 Read
allow podium-webhooks topic literal webhooks.registration.orders.v1.dead-letter Read Write
allow podium-webhooks topic literal registration.registrations.v1 Read
allow podium-webhooks topic literal webhooks.registration.registrations.v1.dead-letter Read Write
allow podium-webhooks topic literal registration.waitlist.v1 Read
allow podium-webhooks topic literal webhooks.registration.waitlist.v1.dead-letter Read Write
allow podium-webhooks topic literal webhooks.replays Read Write
