package contracttest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/apispec"
	"github.com/podiumhq/podium/libs/apispec/contracttest"
)

func answer(status int, requestID, body string) contracttest.Answer {
	h := http.Header{}
	h.Set("X-Request-Id", requestID)
	return contracttest.Answer{Status: status, Header: h, Body: []byte(body)}
}

// TestCheckHasTeeth: the property refuses every way an answer can leave the contract.
func TestCheckHasTeeth(t *testing.T) {
	v, err := apispec.NewValidator()
	if err != nil {
		t.Fatal(err)
	}
	const op = "organizerSearchEvents"
	for _, tc := range []struct {
		name string
		a    contracttest.Answer
		ok   bool
	}{
		{"a page", answer(201, "", `{"data":[],"total":0,"limit":50,"offset":0}`), true},
		{"a refusal", answer(400, "req_1", `{"statusCode":400,"code":"validation_failed","message":["limit must be at most 100"],"problems":[{"path":"limit","code":"too_large","message":"limit must be at most 100"}],"error":"Bad Request","requestId":"req_1"}`), true},
		{"problems that are not the message", answer(400, "req_1", `{"statusCode":400,"code":"validation_failed","message":["limit must be at most 100"],"problems":[{"path":"limit","code":"too_large","message":"limit is big"}],"error":"Bad Request","requestId":"req_1"}`), false},
		{"a code the document does not list", answer(400, "req_1", `{"statusCode":400,"code":"bad_limit","message":"x","error":"Bad Request","requestId":"req_1"}`), false},
		{"no code", answer(400, "req_1", `{"statusCode":400,"message":"x","error":"Bad Request","requestId":"req_1"}`), false},
		{"a 5xx", answer(503, "req_1", `{"statusCode":503,"code":"service_unavailable","message":"later","error":"Service Unavailable","requestId":"req_1"}`), false},
		{"a success the document does not describe", answer(201, "", `{"data":{}}`), false},
		{"a status the operation does not have", answer(404, "req_1", `{"statusCode":404,"code":"not_found","message":"x","error":"Not Found","requestId":"req_1"}`), false},
		{"statusCode of another status", answer(400, "req_1", `{"statusCode":401,"code":"validation_failed","message":"x","error":"Bad Request","requestId":"req_1"}`), false},
		{"error not the reason phrase", answer(400, "req_1", `{"statusCode":400,"code":"validation_failed","message":"x","error":"bad","requestId":"req_1"}`), false},
		{"an empty message", answer(400, "req_1", `{"statusCode":400,"code":"validation_failed","message":[],"error":"Bad Request","requestId":"req_1"}`), false},
		{"a requestId not echoed", answer(400, "req_2", `{"statusCode":400,"code":"validation_failed","message":"x","error":"Bad Request","requestId":"req_1"}`), false},
		{"another member", answer(400, "req_1", `{"statusCode":400,"code":"validation_failed","message":"x","error":"Bad Request","requestId":"req_1","stack":"..."}`), false},
		{"not JSON", answer(400, "req_1", `Bad Request`), false},
	} {
		if err := contracttest.Check(v, op, tc.a); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

func TestServedAndPath(t *testing.T) {
	app := fiber.New()
	noop := func(*fiber.Ctx) error { return nil }
	app.Post("/external/v1/organizer/events/search", noop)
	app.Patch("/external/v1/organizer/registrations/:ticketId", noop)
	app.Get("/external/v1/organizer/events/:eventId", noop)
	var ids []string
	for _, op := range contracttest.WithBody(contracttest.Served(app)) {
		ids = append(ids, op.ID)
		if op.ID == "organizerUpdateRegistration" {
			if got := contracttest.Path(op, map[string]string{"ticketId": "tkt_1/x"}); got != "/external/v1/organizer/registrations/tkt_1%2Fx" {
				t.Errorf("path %s", got)
			}
		}
	}
	if got := strings.Join(ids, " "); got != "organizerSearchEvents organizerUpdateRegistration" {
		t.Fatalf("served operations with a body: %s", got)
	}
}
