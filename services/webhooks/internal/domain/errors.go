package domain

import (
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
)

// Codes of the failures a client can act on.
const (
	CodeEndpointLimit    = "webhook_endpoint_limit"
	CodeEndpointDisabled = "webhook_endpoint_disabled"
)

// Failures the use cases return.
var (
	ErrEndpointNotFound = fault.NewNotFound("webhook endpoint")
	ErrDeliveryNotFound = fault.NewNotFound("delivery")
	// ErrEndpointDisabled refuses a test or a retry to a disabled endpoint.
	ErrEndpointDisabled = fault.NewConflict("the webhook endpoint is disabled; enable it with an update first").WithCode(CodeEndpointDisabled)
)

// EndpointLimitError refuses a create beyond max endpoints per organization and mode.
func EndpointLimitError(max int) error {
	return fault.NewConflict(fmt.Sprintf("the organization has %d webhook endpoints, as many as it may; delete one first", max)).WithCode(CodeEndpointLimit)
}
