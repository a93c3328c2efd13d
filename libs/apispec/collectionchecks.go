package apispec

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// maxRequired is the most members an object's rules may require together (objectCheck.required
// is read as the bits of a uint64).
const maxRequired = 64

// object merges what the rules say of an object; reached are the rules and every rule their
// parts reach.
func (b *checkBuilder) object(rules, reached []*rule) (*objectCheck, error) {
	active, problems, bodyProblems := applying(rules, typeObject)
	c := &objectCheck{problems: problems, bodyProblems: bodyProblems, fewest: math.MaxInt, members: map[string]*memberCheck{}}
	for _, r := range reached {
		if r.maxMembers >= 0 {
			c.maxMembers = append(c.maxMembers, countBound{r.maxMembers, r.maxMembersProblem})
			c.fewest = min(c.fewest, r.maxMembers)
		}
	}
	err := checkCuts(reached, active, func(r *rule) bool { return r.describesObjectParts },
		func(r *rule) int { return r.maxMembers }, c.fewest)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, r := range active {
		if r.minMembers >= 0 {
			c.minMembers = append(c.minMembers, countBound{r.minMembers, r.minMembersProblem})
		}
		for name := range r.properties {
			names[name] = true
		}
		for _, name := range r.required {
			names[name] = true
			if !slices.Contains(c.required, name) {
				c.required = append(c.required, name)
			}
		}
	}
	if len(c.required) > maxRequired {
		return nil, fmt.Errorf("an object requires %d members, more than %d", len(c.required), maxRequired)
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		if c.members[name], err = b.member(active, name, true); err != nil {
			return nil, err
		}
	}
	if c.others, err = b.member(active, "", false); err != nil {
		return nil, err
	}
	for i, name := range c.required {
		c.members[name].required = i
	}
	if len(c.members) <= fewMembers {
		for _, name := range slices.Sorted(maps.Keys(c.members)) {
			c.few = append(c.few, namedMember{name, c.members[name]})
		}
	}
	return c, nil
}

// member merges what the rules say of the member named name, or of a member none of them
// names when known is false.
func (b *checkBuilder) member(active []*rule, name string, known bool) (*memberCheck, error) {
	var children []*rule
	notAllowed := false
	for _, r := range active {
		if p, ok := r.properties[name]; ok && known {
			children = append(children, p)
		} else if r.additional != nil {
			children = append(children, r.additional)
		} else if r.noAdditional {
			notAllowed = true
		}
	}
	value, err := b.value(children)
	return &memberCheck{value: value, notAllowed: notAllowed, required: -1}, err
}

// array merges what the rules say of an array; reached as for object.
func (b *checkBuilder) array(rules, reached []*rule) (*arrayCheck, error) {
	active, problems, bodyProblems := applying(rules, typeArray)
	c := &arrayCheck{problems: problems, bodyProblems: bodyProblems, fewest: math.MaxInt}
	for _, r := range reached {
		if r.maxItems >= 0 {
			c.maxItems = append(c.maxItems, countBound{r.maxItems, r.maxItemsProblem})
			c.fewest = min(c.fewest, r.maxItems)
		}
	}
	err := checkCuts(reached, active, func(r *rule) bool { return r.describesArrayParts },
		func(r *rule) int { return r.maxItems }, c.fewest)
	if err != nil {
		return nil, err
	}
	var items []*rule
	for _, r := range active {
		if r.minItems >= 0 {
			c.minItems = append(c.minItems, countBound{r.minItems, r.minItemsProblem})
		}
		if r.items != nil {
			items = append(items, r.items)
		}
	}
	c.items, err = b.value(items)
	return c, err
}

// jsonTypes is a set of JSON types; the bits are in the order in which the library words them.
type jsonTypes uint8

// The JSON types of a schema's type keyword.
const (
	typeNull jsonTypes = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

// typeNames are the names of the types, in the order of their bits.
var typeNames = []string{"null", "boolean", "number", "integer", "string", "array", "object"}

// typesOf reads a type keyword: a type name or an array of them.
func typesOf(value any) (jsonTypes, error) {
	list, ok := value.([]any)
	if !ok {
		list = []any{value}
	}
	var types jsonTypes
	for _, v := range list {
		name, _ := v.(string)
		i := slices.Index(typeNames, name)
		if i < 0 {
			return 0, fmt.Errorf("unknown type %v", v)
		}
		types |= 1 << i
	}
	if types == 0 {
		return 0, errors.New("an empty type")
	}
	return types, nil
}

// names returns the names of the types, in the order of their bits.
func (t jsonTypes) names() []string {
	var out []string
	for i, name := range typeNames {
		if t&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}
