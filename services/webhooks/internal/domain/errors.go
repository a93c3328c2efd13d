package domain

import (
	"fmt"

	"github.com/podiumhq/podium/libs/fault"
)

// Codes of the failures a client can act on.
const (
	CodeEndpointLimit    = "endpoint_limit_reached"
	CodeEndpointDisabled = "endpoint_disabled"
)

// Failures the use cases return.
var (
	ErrEndpointNotFound = fault.NewNotFound("webhook endpoint")
	ErrDeliveryNotFound = fault.NewNotFound("delivery")
	// ErrEndpointDisabled refuses a test or a retry to a disabled endpoint.
	ErrEndpointDisabled = fault.NewConflict("the endpoint is disabled; enable it first").WithCode(CodeEndpointDisabled)
)

// EndpointLimitError refuses a create beyond max endpoints per organization and mode.
func EndpointLimitError(max int) error {
	return fault.NewUnprocessable(fmt.Sprintf("body: an organization may have at most %d webhook endpoints per mode", max)).WithCode(CodeEndpointLimit)
}
