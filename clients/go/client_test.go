package podium_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	podium "github.com/podiumhq/podium/clients/go"
)

// recorder answers every request with status and body and keeps the last request.
func recorder(t *testing.T, status int, body string) (*httptest.Server, *http.Request) {
	t.Helper()
	var last http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last = http.Request{Method: r.Method, URL: r.URL, Header: r.Header.Clone()}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req_header")
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &last
}

func TestNewSendsTheSecretKeyUnderTheAPIPath(t *testing.T) {
	srv, last := recorder(t, http.StatusCreated, `{"data":[],"total":0,"limit":20,"offset":0}`)
	c, err := podium.New(srv.URL+"/", "pdm_sk_test_x")
	if err != nil {
		t.Fatal(err)
	}
	rsp, err := c.OrganizerSearchEventsWithResponse(context.Background(), podium.OrganizerSearchEventsJSONRequestBody{})
	if err != nil {
		t.Fatal(err)
	}
	if rsp.JSON201 == nil || last.URL.Path != "/external/v1/organizer/events/search" ||
		last.Header.Get("Authorization") != "Bearer pdm_sk_test_x" {
		t.Fatalf("answer %+v to %s %v", rsp.JSON201, last.URL.Path, last.Header)
	}
}

func TestNewBrowserSendsThePublishableKeyAndOrigin(t *testing.T) {
	srv, last := recorder(t, http.StatusOK, `{}`)
	c, err := podium.NewBrowser(srv.URL+"/external/v1", "pdm_pk_test_x", "https://shop.example")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.BrowserGetPricingCardsWithResponse(ctx, "evt_1", &podium.BrowserGetPricingCardsParams{}); err != nil {
		t.Fatal(err)
	}
	if last.URL.Path != "/external/v1/browser/events/evt_1/pricing-cards" || last.Header.Get("x-publishable-key") != "pdm_pk_test_x" ||
		last.Header.Get("Origin") != "https://shop.example" || last.Header.Get("Authorization") != "" {
		t.Fatalf("sent %s %v", last.URL.Path, last.Header)
	}
	if _, err := c.BrowserGetPricingCardsWithResponse(ctx, "evt_1", &podium.BrowserGetPricingCardsParams{Origin: "https://other.example"}); err != nil {
		t.Fatal(err)
	}
	if last.Header.Get("Origin") != "https://other.example" {
		t.Fatalf("the params' origin was replaced by %q", last.Header.Get("Origin"))
	}
}

func TestAnErrorAnswerIsAnAPIError(t *testing.T) {
	srv, _ := recorder(t, http.StatusBadRequest, `{"statusCode":400,"code":"validation_failed","error":"Bad Request",`+
		`"message":["categoryId is required","limit must be at most 100"],`+
		`"problems":[{"path":"categoryId","code":"required","message":"categoryId is required"}],"requestId":"req_body"}`)
	c, err := podium.New(srv.URL, "pdm_sk_test_x")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.OrganizerCreateRegistrationWithResponse(context.Background(), podium.OrganizerCreateRegistrationJSONRequestBody{})
	var apiErr *podium.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error %T %v", err, err)
	}
	if apiErr.StatusCode != 400 || apiErr.Code != "validation_failed" || apiErr.RequestID != "req_body" ||
		apiErr.Message != "categoryId is required; limit must be at most 100" || len(apiErr.Problems) != 1 ||
		apiErr.Problems[0].Path != "categoryId" || apiErr.RetryAfter != 2*time.Second {
		t.Fatalf("%+v", apiErr)
	}
}

func TestAnErrorAnswerOfAnotherShapeIsAnAPIError(t *testing.T) {
	srv, _ := recorder(t, http.StatusBadGateway, `<html>bad gateway</html>`)
	c, err := podium.New(srv.URL, "pdm_sk_test_x")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.OrganizerGetEventWithResponse(context.Background(), "evt_1")
	var apiErr *podium.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 502 || apiErr.Code != "" ||
		apiErr.Message != "Bad Gateway" || apiErr.RequestID != "req_header" {
		t.Fatalf("error %T %+v", err, err)
	}
}
