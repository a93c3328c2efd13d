package api_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/podiumhq/podium/services/registration/internal/domain"
	"github.com/podiumhq/podium/services/registration/internal/regtest"
)

// TestRegistrationEventsCarryTheAPIsAnswer: the registration an organizer's create and update
// answer with is the object of the event each writes, member for member.
func TestRegistrationEventsCarryTheAPIsAnswer(t *testing.T) {
	env := start(t, regtest.Options{})
	body := createBody("Ana Lopez")
	body["club"] = "Box Norte"
	body["selectedSupplementIds"] = []string{"sup_tee"}
	reg := create(t, env, body)
	id := reg["registrationId"].(string)
	if got := lastObject(t, env, domain.EventRegCreated, id); !reflect.DeepEqual(got, reg) {
		t.Fatalf("created event's object\n%v\nthe API's answer\n%v", got, reg)
	}
	r := env.Do(t, "PATCH", "/external/v1/organizer/registrations/"+ticketOf(reg, 0), map[string]any{"teamName": "Renamed", "note": "front row"}, env.Secret(t, orgA))
	if r.Status != 200 {
		t.Fatalf("update: %d %s", r.Status, r.Raw)
	}
	if got := lastObject(t, env, domain.EventRegUpdated, id); !reflect.DeepEqual(got, r.Body) {
		t.Fatalf("updated event's object\n%v\nthe API's answer\n%v", got, r.Body)
	}
}

// lastObject returns the object of the last event of type typ about registration id in the
// outbox, decoded as a client decodes the API's answer.
func lastObject(t *testing.T, env *regtest.Env, typ, id string) map[string]any {
	t.Helper()
	var payload []byte
	err := env.Pool.QueryRow(t.Context(), `SELECT payload FROM outbox WHERE topic = $1 AND key = $2 AND headers->>'ce_type' = $3 ORDER BY id DESC LIMIT 1`,
		domain.RegistrationsTopic, id, typ).Scan(&payload)
	if err != nil {
		t.Fatalf("%s of %s: %v", typ, id, err)
	}
	var data struct {
		Object map[string]any `json:"object"`
	}
	if err := json.Unmarshal(payload, &data); err != nil {
		t.Fatal(err)
	}
	return data.Object
}
