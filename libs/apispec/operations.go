package apispec

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Surface names one of the two external API surfaces.
type Surface string

// The two surfaces of the external API.
const (
	// Organizer is the server-to-server surface authenticated by a secret key with scopes.
	Organizer Surface = "organizer"
	// Browser is the public surface authenticated by a publishable key and an allowed Origin.
	Browser Surface = "browser"
)

// Security scheme names used by the document.
const (
	schemeSecretBearer = "secretKeyBearer"
	schemeSecretHeader = "secretKeyHeader"
	schemePublishable  = "publishableKey"
)

// Operation describes one operation of the document.
type Operation struct {
	// ID is the stable operationId, for example "organizerGetEvent".
	ID string
	// Method is the upper-case HTTP method.
	Method string
	// Path is the OpenAPI path template relative to /external/v1, for
	// example "/organizer/events/{eventId}".
	Path string
	// Surface is Organizer or Browser, taken from the security requirement.
	Surface Surface
	// Scope is the key scope an organizer operation requires; it is empty
	// for browser operations.
	Scope string
	// SuccessStatus is the single 2xx status the operation answers with.
	SuccessStatus int
	// HasBody reports whether the operation takes a JSON request body.
	HasBody bool
	// MaxBodyBytes is the largest request body the operation accepts (its request body's
	// x-max-body-bytes), zero when it takes none.
	MaxBodyBytes int
	// TestOnly marks an operation that works on test data only (x-test-mode-only): a live key
	// is refused.
	TestOnly bool
}

// ErrUnknownOperation is returned for an operationId the document does not declare.
var ErrUnknownOperation = errors.New("apispec: unknown operation")

// httpMethods are the path-item keys that hold operations, in the order
// used to sort operations that share a path.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// Operations returns the operations declared by the document, sorted by path
// and then by method. The slice is a fresh copy on each call.
func Operations() []Operation {
	return slices.Clone(spec.operations)
}

// deriveOperations reads every operation of the paths object.
func deriveOperations(doc map[string]any) ([]Operation, error) {
	paths, ok := doc["paths"].(map[string]any)
	if !ok {
		return nil, errors.New("document has no paths object")
	}
	var ops []Operation
	seen := map[string]bool{}
	for path, item := range paths {
		pathItem, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("path %s is not an object", path)
		}
		for _, method := range httpMethods {
			raw, ok := pathItem[method].(map[string]any)
			if !ok {
				continue
			}
			op, err := readOperation(path, method, raw)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", strings.ToUpper(method), path, err)
			}
			if seen[op.ID] {
				return nil, fmt.Errorf("duplicate operationId %q", op.ID)
			}
			seen[op.ID] = true
			ops = append(ops, op)
		}
	}
	slices.SortFunc(ops, func(a, b Operation) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path),
			cmp.Compare(slices.Index(httpMethods, strings.ToLower(a.Method)),
				slices.Index(httpMethods, strings.ToLower(b.Method))))
	})
	return ops, nil
}

// readOperation builds one Operation from its operation object.
func readOperation(path, method string, raw map[string]any) (Operation, error) {
	id, _ := raw["operationId"].(string)
	if id == "" {
		return Operation{}, errors.New("missing operationId")
	}
	surface, scope, err := readSecurity(raw["security"])
	if err != nil {
		return Operation{}, err
	}
	status, err := successStatus(raw["responses"])
	if err != nil {
		return Operation{}, err
	}
	testOnly, _ := raw["x-test-mode-only"].(bool)
	body, hasBody := raw["requestBody"].(map[string]any)
	var maxBody int
	if hasBody {
		if maxBody, err = bodyLimit(body); err != nil {
			return Operation{}, err
		}
	}
	return Operation{
		ID:            id,
		Method:        strings.ToUpper(method),
		Path:          path,
		Surface:       surface,
		Scope:         scope,
		SuccessStatus: status,
		HasBody:       hasBody,
		MaxBodyBytes:  maxBody,
		TestOnly:      testOnly,
	}, nil
}

// bodyLimit reads the x-max-body-bytes extension every request body carries.
func bodyLimit(body map[string]any) (int, error) {
	n, ok := body["x-max-body-bytes"].(json.Number)
	if !ok {
		return 0, errors.New("request body lacks x-max-body-bytes")
	}
	limit, err := strconv.Atoi(string(n))
	if err != nil || limit <= 0 {
		return 0, fmt.Errorf("x-max-body-bytes %q is not a positive integer", n)
	}
	return limit, nil
}

// MaxBodyBytes is the largest body any operation accepts.
func MaxBodyBytes() int {
	largest := 0
	for _, op := range spec.operations {
		largest = max(largest, op.MaxBodyBytes)
	}
	return largest
}

// readSecurity derives the surface and the scope from the operation's
// security requirements: secret-key schemes mean the organizer surface, and
// all of them must ask for the same single scope; the publishable-key scheme
// means the browser surface.
func readSecurity(v any) (Surface, string, error) {
	reqs, _ := v.([]any)
	if len(reqs) == 0 {
		return "", "", errors.New("missing security requirement")
	}
	var surface Surface
	var scope string
	for _, r := range reqs {
		req, _ := r.(map[string]any)
		for name, scopes := range req {
			list, _ := scopes.([]any)
			var s Surface
			switch name {
			case schemeSecretBearer, schemeSecretHeader:
				s = Organizer
				if len(list) != 1 {
					return "", "", fmt.Errorf("scheme %s must name exactly one scope", name)
				}
				got, _ := list[0].(string)
				if scope != "" && got != scope {
					return "", "", fmt.Errorf("scopes %q and %q differ", scope, got)
				}
				scope = got
			case schemePublishable:
				s = Browser
				if len(list) != 0 {
					return "", "", errors.New("publishable key takes no scopes")
				}
			default:
				return "", "", fmt.Errorf("unknown security scheme %q", name)
			}
			if surface != "" && surface != s {
				return "", "", errors.New("security mixes organizer and browser schemes")
			}
			surface = s
		}
	}
	if surface == "" {
		return "", "", errors.New("empty security requirement")
	}
	return surface, scope, nil
}

// successStatus returns the single 2xx status code of a responses object.
func successStatus(v any) (int, error) {
	responses, _ := v.(map[string]any)
	status := 0
	for code := range responses {
		n, err := strconv.Atoi(code)
		if err != nil || n < 200 || n > 299 {
			continue
		}
		if status != 0 {
			return 0, fmt.Errorf("several success statuses (%d and %d)", status, n)
		}
		status = n
	}
	if status == 0 {
		return 0, errors.New("no success status")
	}
	return status, nil
}
