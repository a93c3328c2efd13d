package apispec

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/podiumhq/podium/libs/fault"
)

// maxProblems caps the problems reported for one body; the rest are counted.
const maxProblems = 100

// problem is one broken rule: the path of the value it is about (empty for the body itself)
// and the words that follow the path.
type problem struct {
	at     []step
	node   nodeID // the node of the path (found.go), for a problem the compiled checks found
	code   string
	text   string
	isType bool
}

// compareProblems orders problems by path, then by text.
func compareProblems(a, b problem) int {
	if c := comparePaths(a.at, b.at); c != 0 {
		return c
	}
	return cmp.Compare(a.text, b.text)
}

// problems turns the error tree of the schema library into the problems it names.
func (v *Validator) problems(inst any, root *jsonschema.ValidationError) []problem {
	var found []problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf, *kind.PropertyNames:
			// Worded as a whole: the causes of anyOf and oneOf describe the
			// alternatives, those of propertyNames the key. The library
			// reports propertyNames at the body, so the document avoids it.
		default:
			if len(e.Causes) > 0 {
				for _, c := range e.Causes {
					walk(c)
				}
				return
			}
		}
		found = append(found, v.phrase(e, locate(inst, e.InstanceLocation))...)
	}
	walk(root)
	return found
}

// finish drops problems hidden by a type mismatch and duplicates, and words the first
// maxProblems by path (array indexes in numeric order), then by text, counting the rest. It
// takes time linear in the problems: it picks the first ones instead of sorting them all.
func finish(found []problem) []fault.Problem {
	var typed map[string]bool
	for _, p := range found {
		if p.isType {
			if typed == nil {
				typed = map[string]bool{}
			}
			typed[pathKey(p.at)] = true
		}
	}
	type seenKey struct{ path, text string }
	seen := make(map[seenKey]bool, len(found))
	var first firstProblems
	for _, p := range found {
		key := pathKey(p.at)
		if (typed[key] && !p.isType) || seen[seenKey{key, p.text}] {
			continue
		}
		seen[seenKey{key, p.text}] = true
		first.offer(p)
	}
	return first.words()
}

// firstProblems keeps the maxProblems first problems offered to it, by compareProblems, and
// counts them all.
type firstProblems struct {
	heap    []problem // a max-heap: heap[0] is the last problem kept
	offered int
}

// admits reports whether offering p would keep it, so that a caller can offer a copy of p and
// copy only the problems kept.
func (f *firstProblems) admits(p problem) bool {
	return len(f.heap) < maxProblems || compareProblems(p, f.heap[0]) < 0
}

// offer counts p and keeps it if it is among the first so far.
func (f *firstProblems) offer(p problem) {
	f.offered++
	if len(f.heap) < maxProblems {
		if f.heap == nil {
			f.heap = make([]problem, 0, maxProblems)
		}
		f.heap = append(f.heap, p)
		for i := len(f.heap) - 1; i > 0; {
			parent := (i - 1) / 2
			if compareProblems(f.heap[i], f.heap[parent]) <= 0 {
				break
			}
			f.heap[i], f.heap[parent] = f.heap[parent], f.heap[i]
			i = parent
		}
		return
	}
	if compareProblems(p, f.heap[0]) >= 0 {
		return
	}
	f.heap[0] = p
	for i := 0; ; {
		last, left, right := i, 2*i+1, 2*i+2
		if left < len(f.heap) && compareProblems(f.heap[left], f.heap[last]) > 0 {
			last = left
		}
		if right < len(f.heap) && compareProblems(f.heap[right], f.heap[last]) > 0 {
			last = right
		}
		if last == i {
			return
		}
		f.heap[i], f.heap[last] = f.heap[last], f.heap[i]
		i = last
	}
}

// words returns the problems kept, in order and each worded with its path, and a last line
// counting the others; nil when none was offered.
func (f *firstProblems) words() []fault.Problem {
	if len(f.heap) == 0 {
		return nil
	}
	kept := slices.SortedFunc(slices.Values(f.heap), compareProblems)
	out := make([]fault.Problem, 0, len(kept)+1)
	var paths pathWriter
	for _, p := range kept {
		path := paths.show(p.at)
		words := path + " " + p.text
		if len(p.at) == 0 {
			path = ""
		}
		out = append(out, fault.Problem{Path: path, Code: p.code, Message: words})
	}
	if rest := f.offered - len(kept); rest > 0 {
		out = append(out, fault.Problem{Code: codeMoreProblems, Message: fmt.Sprintf("and %d more %s", rest, plural(rest, "problem"))})
	}
	return out
}

// locate turns an instance location into steps, telling array indexes from
// object keys by walking the instance.
func locate(inst any, loc []string) []step {
	at := make([]step, 0, len(loc))
	cur := inst
	for _, tok := range loc {
		if node, ok := cur.([]any); ok {
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(node) {
				at = append(at, item(i))
				cur = node[i]
				continue
			}
		}
		at = append(at, member(tok))
		obj, _ := cur.(map[string]any)
		cur = obj[tok]
	}
	return at
}

// under returns the path of the member name inside the value at at, without sharing at's array.
func under(at []step, name string) []step {
	return append(slices.Clip(at), member(name))
}
