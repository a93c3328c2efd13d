package podium

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// APIPath is the path of the API under a deployment's base address, the document's server.
const APIPath = "/external/v1"

// New returns a client of the organizer API that authenticates with a secret key
// (`Authorization: Bearer pdm_sk_...`). baseURL is the deployment's address
// (`https://api.podium.example`, `http://localhost:8080`), with or without [APIPath]. Every
// answer with a status of 400 or more is returned as an error, an [*APIError]; opts are the
// generated client's ([WithHTTPClient], [WithRequestEditorFn]).
func New(baseURL, secretKey string, opts ...ClientOption) (*ClientWithResponses, error) {
	return newClient(baseURL, func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+secretKey)
		return nil
	}, opts)
}

// NewBrowser returns a client of the browser API that authenticates as a website's page does:
// a publishable key (`x-publishable-key: pdm_pk_...`) and the page's origin (`Origin`), one of
// the key's allowed origins. It sets the Origin header of every request whose parameters leave
// it empty, so the browser operations' params may omit it. Otherwise it is as [New].
func NewBrowser(baseURL, publishableKey, origin string, opts ...ClientOption) (*ClientWithResponses, error) {
	return newClient(baseURL, func(_ context.Context, req *http.Request) error {
		req.Header.Set("x-publishable-key", publishableKey)
		if req.Header.Get("Origin") == "" {
			req.Header.Set("Origin", origin)
		}
		return nil
	}, opts)
}

func newClient(baseURL string, auth RequestEditorFn, opts []ClientOption) (*ClientWithResponses, error) {
	if baseURL == "" {
		return nil, fmt.Errorf("podium: the base URL is empty")
	}
	server := strings.TrimSuffix(baseURL, "/")
	if !strings.HasSuffix(server, APIPath) {
		server += APIPath
	}
	c, err := NewClient(server, opts...)
	if err != nil {
		return nil, err
	}
	c.RequestEditors = append(c.RequestEditors, auth)
	c.Client = errorDoer{c.Client}
	return &ClientWithResponses{ClientInterface: c}, nil
}

// errorDoer returns an answer of status 400 or more as an *APIError.
type errorDoer struct{ next HttpRequestDoer }

func (d errorDoer) Do(req *http.Request) (*http.Response, error) {
	rsp, err := d.next.Do(req)
	if err != nil || rsp.StatusCode < 400 {
		return rsp, err
	}
	defer rsp.Body.Close()
	return nil, readAPIError(rsp)
}
