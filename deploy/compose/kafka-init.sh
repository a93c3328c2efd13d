#!/bin/sh
# Creates each service's Kafka principal on the Compose stack's broker (docker-compose.yml,
# kafka-init): a SCRAM-SHA-512 user with the password the service is given, and exactly the ACLs
# of what it produces and consumes, as deploy/kafkaacl declares and broker.Access.Grants derives
# them (the deploy tests check these lines against both). It talks to the ADMIN listener on the
# broker's loopback, whose principal is the super user; running it again changes nothing.
set -eu
admin=127.0.0.1:9094
bin=/opt/kafka/bin

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

user podium-auth "$AUTH_KAFKA_PASSWORD"
allow podium-auth topic literal auth.keys.v1 Create Write

user podium-catalog "$CATALOG_KAFKA_PASSWORD"
allow podium-catalog group prefixed catalog- Read
allow podium-catalog topic literal catalog.catalog.events.v1.dead-letter Create Read Write
allow podium-catalog topic literal catalog.events.v1 Create Read Write
allow podium-catalog topic literal catalog.registration.places.v1.dead-letter Create Read Write
allow podium-catalog topic literal catalog.replays Create Read Write
allow podium-catalog topic literal registration.places.v1 Create Read

user podium-registration "$REGISTRATION_KAFKA_PASSWORD"
allow podium-registration group prefixed registration- Read
allow podium-registration topic literal checkout.payments.v1 Create Read
allow podium-registration topic literal registration.checkout.payments.v1.dead-letter Create Read Write
allow podium-registration topic literal registration.orders.v1 Create Write
allow podium-registration topic literal registration.places.v1 Create Write
allow podium-registration topic literal registration.replays Create Read Write

user podium-checkout "$CHECKOUT_KAFKA_PASSWORD"
allow podium-checkout group prefixed checkout- Read
allow podium-checkout topic literal checkout.payments.v1 Create Write
allow podium-checkout topic literal checkout.registration.orders.v1.dead-letter Create Read Write
allow podium-checkout topic literal checkout.replays Create Read Write
allow podium-checkout topic literal registration.orders.v1 Create Read

user podium-gateway "$GATEWAY_KAFKA_PASSWORD"
allow podium-gateway group prefixed gateway- Read
allow podium-gateway topic literal auth.keys.v1 Create Read
allow podium-gateway topic literal catalog.events.v1 Create Read
allow podium-gateway topic literal gateway.auth.keys.v1.dead-letter Create Read Write
allow podium-gateway topic literal gateway.catalog.events.v1.dead-letter Create Read Write
allow podium-gateway topic literal gateway.replays Create Read Write
