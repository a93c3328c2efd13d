package httpserver

import (
	"net/http"

	"github.com/podiumhq/podium/libs/fault"
)

// The codes every service may answer; a service or the gateway names finer ones where a client
// can act on the difference (key_revoked, quota_exhausted). Every code is listed in the OpenAPI
// document's Error schema.
const (
	CodeValidationFailed     = "validation_failed"
	CodeBadRequest           = "bad_request"
	CodeUnauthorized         = "unauthorized"
	CodeForbidden            = "forbidden"
	CodeNotFound             = "not_found"
	CodeRouteNotFound        = "route_not_found"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodeConflict             = "conflict"
	CodeBodyTooLarge         = "body_too_large"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeHeadersTooLarge      = "headers_too_large"
	CodeRuleViolated         = fault.CodeRuleViolated
	CodeRateLimited          = "rate_limited"
	CodeInternal             = "internal_error"
	CodeServiceUnavailable   = "service_unavailable"
	CodeTimeout              = "timeout"
)

// defaultCodes are the codes of the statuses answered without a finer one.
var defaultCodes = map[int]string{
	http.StatusBadRequest:                  CodeValidationFailed,
	http.StatusUnauthorized:                CodeUnauthorized,
	http.StatusForbidden:                   CodeForbidden,
	http.StatusNotFound:                    CodeNotFound,
	http.StatusMethodNotAllowed:            CodeMethodNotAllowed,
	http.StatusConflict:                    CodeConflict,
	http.StatusRequestEntityTooLarge:       CodeBodyTooLarge,
	http.StatusUnsupportedMediaType:        CodeUnsupportedMediaType,
	http.StatusRequestHeaderFieldsTooLarge: CodeHeadersTooLarge,
	http.StatusUnprocessableEntity:         CodeRuleViolated,
	http.StatusTooManyRequests:             CodeRateLimited,
	http.StatusServiceUnavailable:          CodeServiceUnavailable,
	http.StatusGatewayTimeout:              CodeTimeout,
}

// DefaultCode is the code of an answer with status that names no finer one: the status's own,
// else bad_request for a client error and internal_error for ours.
func DefaultCode(status int) string {
	if c, ok := defaultCodes[status]; ok {
		return c
	}
	if status < http.StatusInternalServerError {
		return CodeBadRequest
	}
	return CodeInternal
}
