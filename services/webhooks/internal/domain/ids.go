package domain

// Prefixes of the ids the service issues.
const (
	EndpointPrefix = "we_"
	DeliveryPrefix = "wd_"
	MessagePrefix  = "msg_"
)
