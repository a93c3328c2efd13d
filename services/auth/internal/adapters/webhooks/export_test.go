package webhooks

// The bodies, for the contract test of package webhooks_test (which imports authtest, which
// imports this package).
type (
	EndpointRequest   = endpointRequest
	EnabledRequest    = enabledRequest
	RecoverRequest    = recoverRequest
	EndpointList      = listDoc[endpointDoc]
	DeliveryList      = listDoc[deliveryDoc]
	EndpointDoc       = endpointDoc
	CreatedDoc        = createdDoc
	RotatedDoc        = rotatedDoc
	DeliveryDoc       = deliveryDoc
	DeliveryDetailDoc = deliveryDetailDoc
)
