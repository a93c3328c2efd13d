package apispec

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// A valueCheck holds every check on one value of a body. Strings, numbers, booleans and null
// are checked by each of its rules in turn; objects and arrays by one objectCheck and one
// arrayCheck that merge what the rules say of them, so that the body is read once.
type valueCheck struct {
	rules []*rule
	// maxLength are the maxLength bounds of every rule the value reaches through $ref and allOf,
	// whatever the rule's type: a longer string is cut (sizes.go) and nothing else is said of it.
	maxLength []countBound
	// shortest is the smallest of them, math.MaxInt when there are none.
	shortest int
	object   *objectCheck
	array    *arrayCheck
}

// A countBound is a maximum on the characters of a string or the members or items of a
// collection, with the problem of a value past it.
type countBound struct {
	limit   int
	problem *wording
}

// An objectCheck is what the rules of a value say of it when it is an object.
type objectCheck struct {
	// problems are said of any object by the rules that refuse one (its type, const or enum);
	// bodyProblems are the same problems worded for the body itself.
	problems, bodyProblems []*wording
	// maxMembers are the maxProperties of every rule reached (see valueCheck.maxLength), fewest
	// the smallest of them: an object with more members is cut.
	maxMembers []countBound
	fewest     int
	minMembers []countBound
	// members checks the members the rules name, others every other member; few lists members
	// when they are few, where a look-up is faster than in the map.
	members map[string]*memberCheck
	few     []namedMember
	others  *memberCheck
	// required names the members that must be present; members[required[i]].required is i.
	required []string
}

// A namedMember is a member's check with its name.
type namedMember struct {
	name  string
	check *memberCheck
}

// fewMembers is the most members objectCheck.few lists.
const fewMembers = 8

// member returns the check of the member named name.
func (c *objectCheck) member(name []byte) *memberCheck {
	if c.few != nil || len(c.members) == 0 {
		for _, m := range c.few {
			if m.name == string(name) {
				return m.check
			}
		}
		return c.others
	}
	if m, ok := c.members[string(name)]; ok {
		return m
	}
	return c.others
}

// A memberCheck is what the rules of an object say of one of its members.
type memberCheck struct {
	value      *valueCheck // nil: nothing is checked
	notAllowed bool        // an additionalProperties: false refuses it
	required   int         // its index in objectCheck.required, -1 when optional
}

// An arrayCheck is what the rules of a value say of it when it is an array.
type arrayCheck struct {
	problems, bodyProblems []*wording
	maxItems               []countBound
	fewest                 int
	minItems               []countBound
	items                  *valueCheck
}

// falseWording is the problem of a value a false schema refuses.
var falseWording = kindWording(&kind.FalseSchema{})

// checkBuilder merges rules into checks, each set of rules once.
type checkBuilder struct {
	ids    map[*rule]int
	values map[string]*valueCheck
}

// value returns the check of a value the rules apply to, nil when there are none.
func (b *checkBuilder) value(rules []*rule) (*valueCheck, error) {
	rules = b.distinct(rules)
	if len(rules) == 0 {
		return nil, nil
	}
	var key strings.Builder
	for _, r := range rules {
		key.WriteString(strconv.Itoa(b.ids[r]))
		key.WriteByte(',')
	}
	if c, ok := b.values[key.String()]; ok {
		return c, nil
	}
	c := &valueCheck{rules: rules, shortest: math.MaxInt}
	b.values[key.String()] = c
	reached, err := reach(rules)
	if err != nil {
		return nil, err
	}
	for _, r := range reached {
		if r.maxLength >= 0 {
			c.maxLength = append(c.maxLength, countBound{r.maxLength, r.maxLengthProblem})
			c.shortest = min(c.shortest, r.maxLength)
		}
	}
	if c.object, err = b.object(rules, reached); err != nil {
		return nil, err
	}
	c.array, err = b.array(rules, reached)
	return c, err
}

// distinct returns the rules in the order they were first seen, each once.
func (b *checkBuilder) distinct(rules []*rule) []*rule {
	for _, r := range rules {
		if _, ok := b.ids[r]; !ok {
			b.ids[r] = len(b.ids)
		}
	}
	out := slices.Clone(rules)
	slices.SortFunc(out, func(x, y *rule) int { return b.ids[x] - b.ids[y] })
	return slices.Compact(out)
}

// reach returns the rules and every rule their parts reach, each once. A rule that reaches
// itself through $ref and allOf alone is an error.
func reach(rules []*rule) ([]*rule, error) {
	var out []*rule
	state := map[*rule]int{} // 1: being walked, 2: done
	var walk func(r *rule) error
	walk = func(r *rule) error {
		switch state[r] {
		case 1:
			return errors.New("a schema refers to itself through $ref and allOf")
		case 2:
			return nil
		}
		state[r] = 1
		out = append(out, r)
		for _, p := range r.parts {
			if err := walk(p); err != nil {
				return err
			}
		}
		state[r] = 2
		return nil
	}
	for _, r := range rules {
		if err := walk(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// applying follows the rules as the library does on a collection of type t: a rule that
// refuses it (by its type, or by a const or enum, whose values are scalars) says so and goes
// no further; the others apply, and so do their parts.
func applying(rules []*rule, t jsonTypes) (active []*rule, problems, bodyProblems []*wording) {
	var walk func(r *rule)
	walk = func(r *rule) {
		var refusal, bodyRefusal *wording
		switch {
		case r.never:
			refusal, bodyRefusal = falseWording, falseWording
		case r.types != 0 && r.types&t == 0:
			refusal, bodyRefusal = r.typeProblem, r.bodyProblem
		case r.constant != nil:
			refusal, bodyRefusal = r.constProblem, r.constProblem
		case r.enum != nil:
			refusal, bodyRefusal = r.enumProblem, r.enumProblem
		}
		if refusal != nil {
			problems, bodyProblems = append(problems, refusal), append(bodyProblems, bodyRefusal)
			return
		}
		active = append(active, r)
		if r.notAny {
			problems, bodyProblems = append(problems, r.notProblem), append(bodyProblems, r.notProblem)
		}
		for _, p := range r.parts {
			walk(p)
		}
	}
	for _, r := range rules {
		walk(r)
	}
	return slices.Compact(active), slices.Compact(problems), slices.Compact(bodyProblems)
}

// checkCuts makes sure that cutting a collection past its bound, which checks nothing inside
// it, is what the bounds check of the library path does: that only rules applying to the
// collection describe its parts, and that a rule describing parts where a bound lies either
// carries the smallest bound on the collection or is cut with it.
func checkCuts(reached, active []*rule, describes func(*rule) bool, bound func(*rule) int, fewest int) error {
	for _, r := range reached {
		if !describes(r) {
			continue
		}
		if !slices.Contains(active, r) {
			return errors.New("a schema that refuses a collection describes its parts")
		}
		if fewest != math.MaxInt && bound(r) != fewest && maximumInside(r, map[*rule]bool{}) {
			return errors.New("a schema without the smallest bound of a collection bounds its parts")
		}
	}
	return nil
}

// maximumInside reports whether a value inside one r describes can meet a maximum.
func maximumInside(r *rule, seen map[*rule]bool) bool {
	var children []*rule
	for _, p := range r.properties {
		children = append(children, p)
	}
	children = append(children, r.additional, r.items)
	for _, c := range children {
		if c != nil && hasMaximum(c, seen) {
			return true
		}
	}
	return false
}

// hasMaximum reports whether r, or a rule it reaches, has a maximum.
func hasMaximum(r *rule, seen map[*rule]bool) bool {
	if seen[r] {
		return false
	}
	seen[r] = true
	if r.maxLength >= 0 || r.maxItems >= 0 || r.maxMembers >= 0 || maximumInside(r, seen) {
		return true
	}
	return slices.ContainsFunc(r.parts, func(p *rule) bool { return hasMaximum(p, seen) })
}

// checkError places an error of the checks of the schema at ptr.
func checkError(ptr string, err error) error {
	return fmt.Errorf("compile the request checks of %s: %w", ptr, err)
}

// requestChecks compiles request body schemas into checks; the schemas they share are
// compiled once.
type requestChecks struct {
	rules  ruleCompiler
	checks checkBuilder
}

// newRequestChecks returns a compiler of the schemas of the document tree.
func newRequestChecks(tree map[string]any) *requestChecks {
	return &requestChecks{
		rules:  ruleCompiler{tree: tree, rules: map[string]*rule{}},
		checks: checkBuilder{ids: map[*rule]int{}, values: map[string]*valueCheck{}},
	}
}

// compile returns the check of a body of the schema at ptr. It fails on a keyword or a use of
// one that the checks do not support.
func (rc *requestChecks) compile(ptr string) (*valueCheck, error) {
	node, err := lookupPointer(rc.rules.tree, ptr)
	if err != nil {
		return nil, checkError(ptr, err)
	}
	r, err := rc.rules.compile(node, ptr)
	if err != nil {
		return nil, checkError(ptr, err)
	}
	c, err := rc.checks.value([]*rule{r})
	if err != nil {
		return nil, checkError(ptr, err)
	}
	return c, nil
}
