package apispec

import (
	"slices"

	"github.com/podiumhq/podium/libs/fault"
)

// found keeps the problems the compiled checks find in a body, in the order found: those of
// the schemas (with the bounds) and those of the body's shape, which take precedence. A problem
// names its value by a node of a tree of paths that the problems share, built only for values
// with a problem, so that a problem costs a few words however deep its value.
type found struct {
	nodes    []pathNode
	problems []foundProblem
	shapes   []foundProblem
}

// A pathNode is a path: the step that leads to its value from the value of its parent node.
// Node 0 is the body itself.
type pathNode struct {
	parent int
	step   step
}

// A foundProblem is one problem found at the value of a node. A dropped problem was found in
// a value that a later member of the same name replaced (encoding/json keeps the last).
type foundProblem struct {
	node    int
	dropped bool
	wording *wording
}

// reset empties f for another body.
func (f *found) reset() {
	f.nodes = append(f.nodes[:0], pathNode{parent: -1})
	f.problems = f.problems[:0]
	f.shapes = f.shapes[:0]
}

// child returns a new node for the step from the value of parent.
func (f *found) child(parent int, s step) int {
	f.nodes = append(f.nodes, pathNode{parent: parent, step: s})
	return len(f.nodes) - 1
}

// drop marks the problems list[from:to] dropped; to is past the end when the list was cut
// since.
func drop(list []foundProblem, from, to int) {
	for i := from; i < min(to, len(list)); i++ {
		list[i].dropped = true
	}
}

// live reports whether list holds a problem that is not dropped.
func live(list []foundProblem) bool {
	return slices.ContainsFunc(list, func(p foundProblem) bool { return !p.dropped })
}

// finish is finish (problems.go) for the problems of list: a type mismatch hides the other
// problems of its value, duplicates are dropped, and the first maxProblems are worded.
func (f *found) finish(list []foundProblem) []fault.Problem {
	var typed map[int]bool
	for _, p := range list {
		if p.wording.isType && !p.dropped {
			if typed == nil {
				typed = map[int]bool{}
			}
			typed[p.node] = true
		}
	}
	type seenKey struct {
		node int
		text string
	}
	seen := make(map[seenKey]bool, len(list))
	var first firstProblems
	var at []step
	for _, p := range list {
		key := seenKey{p.node, p.wording.text}
		if p.dropped || (typed[p.node] && !p.wording.isType) || seen[key] {
			continue
		}
		seen[key] = true
		at = f.path(at[:0], p.node)
		candidate := problem{at: at, code: p.wording.code, text: p.wording.text, isType: p.wording.isType}
		if first.admits(candidate) {
			candidate.at = slices.Clone(at)
		}
		first.offer(candidate)
	}
	return first.words()
}

// path appends the steps of the path of node to at.
func (f *found) path(at []step, node int) []step {
	start := len(at)
	for ; node > 0; node = f.nodes[node].parent {
		at = append(at, f.nodes[node].step)
	}
	slices.Reverse(at[start:])
	return at
}
