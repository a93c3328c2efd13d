// Package cli is the operator command line: an HTTP client of the auth admin API that creates
// organizers and creates, lists and revokes their API keys.
package cli

import (
	"context"
	"encoding/json"
	"time"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/identity"
	"github.com/podiumhq/podium/libs/peer"
)

// NewClient returns a client of the admin API at baseURL (for example http://127.0.0.1:8081)
// that sends the operator token as its bearer token and gives each call up to timeout.
func NewClient(baseURL, token string, timeout time.Duration) *peer.Client {
	return peer.New(peer.Options{Name: "admin API", BaseURL: baseURL, Bearer: token, Timeout: timeout})
}

// call sends body (when not nil) as JSON to method path and returns the JSON of the 2xx
// answer; a refusal is a *fault.Error (see Explain).
func call(ctx context.Context, c *peer.Client, method, path string, body any) ([]byte, error) {
	var answer json.RawMessage
	if err := c.Do(ctx, identity.Principal{}, method, path, body, &answer); err != nil {
		return nil, err
	}
	return answer, nil
}

// Explain says why a command failed, as an operator reads it: the request and the admin API's
// answer (its status and messages), or why the API could not be reached; escaped like the
// output (text), since the answer may quote what was sent.
func Explain(err error) string {
	f, ok := fault.Of(err)
	switch {
	case !ok || f.Err == nil:
		return text(err.Error())
	case f.Kind == fault.Unavailable:
		return text("the admin API is unavailable: " + f.Err.Error())
	}
	return text(f.Err.Error())
}
