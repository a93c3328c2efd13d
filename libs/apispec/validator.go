package apispec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/podiumhq/podium/libs/fault"
)

// documentURL is the address under which the document is registered with
// the schema compiler. It is never fetched.
const documentURL = "https://podium.invalid/external/v1/openapi.json"

// ErrUndocumentedStatus is returned by ValidateResponse for a status code the
// operation does not document.
var ErrUndocumentedStatus = errors.New("apispec: undocumented response status")

// ValidationError reports why a body does not match its schema.
type ValidationError struct {
	// Problems lists one problem per broken rule, each with its field path (for example
	// "athletes[0].phone"), code and sentence, sorted by path.
	Problems []fault.Problem
}

// Error joins the problems into one line.
func (e *ValidationError) Error() string {
	return "invalid body: " + strings.Join(e.Messages(), "; ")
}

// Messages returns the sentences of the problems.
func (e *ValidationError) Messages() []string { return fault.Messages(e.Problems) }

// invalid is a ValidationError with one problem about the body as a whole.
func invalid(code, message string) *ValidationError {
	return &ValidationError{Problems: []fault.Problem{{Code: code, Message: message}}}
}

// Validator checks request and response bodies against the schemas of the
// document. Its schemas are compiled once by NewValidator; a Validator is
// safe for concurrent use.
type Validator struct {
	requests  map[string]requestSchema
	errorBody *jsonschema.Schema
	// codeStatuses are the statuses each error code is answered with ("4XX": any client error).
	codeStatuses map[string][]string
	responses    map[string]responseSchemas
	// webhooks are the body schemas of the webhooks section, by type.
	webhooks map[string]*jsonschema.Schema
	messages map[string]string
}

// requestSchema is the compiled request body schema of one operation.
type requestSchema struct {
	// schema is nil when the operation takes no body.
	schema *jsonschema.Schema
	// check is the schema compiled into the checks ValidateRequest runs.
	check *valueCheck
	// required reports that an empty body is refused rather than read as {}.
	required bool
}

// responseSchemas holds the compiled response body schemas of one operation.
type responseSchemas struct {
	exact    map[int]*jsonschema.Schema
	ranges   map[int]*jsonschema.Schema // keyed by the first digit of "5XX"
	fallback *jsonschema.Schema
}

// lookup returns the schema documented for status, preferring an exact code
// over a range over the default response.
func (r responseSchemas) lookup(status int) *jsonschema.Schema {
	if s, ok := r.exact[status]; ok {
		return s
	}
	if s, ok := r.ranges[status/100]; ok && status >= 100 && status < 600 {
		return s
	}
	return r.fallback
}

// NewValidator compiles the request and response schemas of every operation
// of the document. Format assertion is enabled, so "date", "date-time" and
// "uri" are checked, not only annotated; e-mail addresses are checked by the
// pattern of the Email schema.
func NewValidator() (*Validator, error) {
	doc, err := decodeJSON(spec.json)
	if err != nil {
		return nil, fmt.Errorf("apispec: decode document: %w", err)
	}
	c := newSchemaCompiler()
	if err := c.AddResource(documentURL, doc); err != nil {
		return nil, fmt.Errorf("apispec: add document: %w", err)
	}
	v := &Validator{
		requests:  map[string]requestSchema{},
		responses: map[string]responseSchemas{},
		messages:  collectMessages(spec.tree),
	}
	checks := newRequestChecks(spec.tree)
	for _, op := range spec.operations {
		if err := v.compileOperation(c, checks, op); err != nil {
			return nil, fmt.Errorf("apispec: %s: %w", op.ID, err)
		}
	}
	if err := v.compileWebhooks(c); err != nil {
		return nil, fmt.Errorf("apispec: %w", err)
	}
	if v.errorBody, err = c.Compile(documentURL + "#/components/schemas/Error"); err != nil {
		return nil, fmt.Errorf("apispec: the Error schema: %w", err)
	}
	if v.codeStatuses, err = codeStatuses(spec.tree); err != nil {
		return nil, fmt.Errorf("apispec: the Error schema: %w", err)
	}
	return v, nil
}

// newSchemaCompiler returns a compiler of the schema library for the document: draft 2020-12
// with format assertion.
func newSchemaCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	// The e-mail rule of the contract is the pattern of the Email schema;
	// "format: email" stays an annotation so that limits the contract does
	// not set (RFC 5321 lengths, quoted local parts) are not enforced twice.
	c.RegisterFormat(&jsonschema.Format{Name: "email", Validate: func(any) error { return nil }})
	return c
}

// ValidateError checks an answer of status against the standard error body (the Error schema):
// its code and problem codes must be among those the document lists, and status among the
// statuses the document gives its code (x-statuses). It returns nil, a *ValidationError, or an
// error naming the status the code is not answered with.
func (v *Validator) ValidateError(status int, body []byte) error {
	if err := v.validate(v.errorBody, body); err != nil {
		return err
	}
	var b struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return err
	}
	for _, s := range v.codeStatuses[b.Code] {
		if s == strconv.Itoa(status) || s == strconv.Itoa(status/100)+"XX" {
			return nil
		}
	}
	return fmt.Errorf("apispec: code %s answered with %d; the document gives it %v", b.Code, status, v.codeStatuses[b.Code])
}

// ValidateRequest checks a request body of the operation. It returns nil, a
// *ValidationError listing the problems, or an error wrapping
// ErrUnknownOperation. An empty body is read as {} when the operation's body
// is optional; the body of an operation that takes none is not read.
func (v *Validator) ValidateRequest(operationID string, body []byte) error {
	rs, body, err := v.requestBody(operationID, body)
	if err != nil || body == nil {
		return err
	}
	return validateBody(rs.check, body)
}

// validateRequestWithLibrary checks a request body as ValidateRequest does, with the schema
// library in place of the compiled checks: the reference the checks are tested and measured
// against.
func (v *Validator) validateRequestWithLibrary(operationID string, body []byte) error {
	rs, body, err := v.requestBody(operationID, body)
	if err != nil || body == nil {
		return err
	}
	return v.validate(rs.schema, body)
}

// requestBody returns the request schema of the operation and the body to check: nil, with a
// nil error, when there is nothing to check.
func (v *Validator) requestBody(operationID string, body []byte) (requestSchema, []byte, error) {
	rs, ok := v.requests[operationID]
	if !ok {
		return rs, nil, fmt.Errorf("%w: %q", ErrUnknownOperation, operationID)
	}
	if rs.schema == nil {
		return rs, nil, nil
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		if rs.required {
			return rs, nil, invalid(codeRequired, "body is required: send a JSON object")
		}
		body = emptyObject
	}
	return rs, body, nil
}

// ValidateResponse checks a response body of the operation against the
// schema documented for status (an exact code, a range such as 5XX, or the
// default response), including the standard error body. It returns nil, a
// *ValidationError, or an error wrapping ErrUnknownOperation or
// ErrUndocumentedStatus.
func (v *Validator) ValidateResponse(operationID string, status int, body []byte) error {
	rs, ok := v.responses[operationID]
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownOperation, operationID)
	}
	schema := rs.lookup(status)
	if schema == nil {
		return fmt.Errorf("%w: %d for %s", ErrUndocumentedStatus, status, operationID)
	}
	return v.validate(schema, body)
}

// emptyObject is the body an empty optional request body stands for.
var emptyObject = []byte("{}")

// validate checks body against schema, each check in time linear in the body: its nesting
// (before decoding), its shape (numbers, member names), the bounds of the schema, then the
// schema itself, each on a body that passed the ones before.
func (v *Validator) validate(schema *jsonschema.Schema, body []byte) error {
	if nestsTooDeep(body) {
		return invalid(codeTooDeep, tooDeepProblem)
	}
	inst, err := decodeJSON(body)
	if err != nil {
		return invalid(codeInvalidJSON, "body must be valid JSON")
	}
	if problems := shapeProblems(inst); problems != nil {
		return &ValidationError{Problems: problems}
	}
	cut, whole := cutOversized(schema, inst)
	if whole {
		return &ValidationError{Problems: finish(cut)}
	}
	var found []problem
	err = schema.Validate(inst)
	var verr *jsonschema.ValidationError
	switch {
	case errors.As(err, &verr):
		found = outsideCuts(v.problems(inst, verr), cut)
	case err != nil:
		return fmt.Errorf("apispec: validate: %w", err)
	}
	if found = append(found, cut...); len(found) == 0 {
		return nil
	}
	return &ValidationError{Problems: finish(found)}
}
