package edge

// The codes the gateway answers beside libs/httpserver's own, each listed in the OpenAPI
// document's Error schema.
const (
	codeKeyMissing         = "key_missing"
	codeKeyMalformed       = "key_malformed"
	codeKeyUnknown         = "key_unknown"
	codeKeyRevoked         = "key_revoked"
	codeKeyExpired         = "key_expired"
	codeKeyWrongSurface    = "key_wrong_surface"
	codeScopeMissing       = "scope_missing"
	codeTestKeyRequired    = "test_key_required"
	codeOriginMissing      = "origin_missing"
	codeOriginNotAllowed   = "origin_not_allowed"
	codeRedirectNotAllowed = "redirect_not_allowed"
)
