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
	nodes    []pathNode // free of pointers, so that many cost the collector nothing
	keys     []string   // the member names of the nodes' steps
	problems []foundProblem
	shapes   []foundProblem
	// What finish keeps of the nodes and the problems, grown once for all bodies.
	marks   []nodeMark
	earlier []int32
}

// A nodeID is a path node's index in found.nodes. It and the other indexes the nodes and the
// problems keep take 32 bits (a body is at most maxScanBytes), so that the many problems of a
// large body cost little memory.
type nodeID int32

// A pathNode is a path: the step that leads to its value from the value of its parent node.
// Node 0 is the body itself.
type pathNode struct {
	parent nodeID
	depth  int32
	index  int32 // the step's item index; -1 for a member
	key    int32 // the step's member name in keys
}

// A foundProblem is one problem found at the value of a node. A dropped problem was found in
// a value that a later member of the same name replaced (encoding/json keeps the last).
type foundProblem struct {
	node    nodeID
	dropped bool
	wording *wording
}

// reset empties f for another body.
func (f *found) reset() {
	f.nodes = append(f.nodes[:0], pathNode{parent: -1})
	clear(f.keys)
	f.keys = f.keys[:0]
	f.problems = f.problems[:0]
	f.shapes = f.shapes[:0]
}

// child returns a new node for the step from the value of parent.
func (f *found) child(parent nodeID, s step) nodeID {
	n := pathNode{parent: parent, depth: f.nodes[parent].depth + 1, index: int32(s.index)} //nolint:gosec // see nodeID
	if s.index < 0 {
		n.key = int32(len(f.keys)) //nolint:gosec // see nodeID
		f.keys = append(f.keys, s.key)
	}
	f.nodes = append(f.nodes, n)
	return nodeID(len(f.nodes) - 1) //nolint:gosec // see nodeID
}

// step returns the step that leads to the value of node from its parent's.
func (f *found) step(node nodeID) step {
	n := f.nodes[node]
	if n.index >= 0 {
		return item(int(n.index))
	}
	return member(f.keys[n.key])
}

// counts returns how many problems and shapes were found so far: fewer than 2^31, since a
// body is at most maxScanBytes and each of its values yields a few at most.
func (f *found) counts() (problems, shapes int32) {
	return int32(len(f.problems)), int32(len(f.shapes)) //nolint:gosec // see above
}

// drop marks the problems list[from:to] dropped; to is past the end when the list was cut
// since.
func drop(list []foundProblem, from, to int32) {
	for i := int(from); i < min(int(to), len(list)); i++ {
		list[i].dropped = true
	}
}

// live reports whether list holds a problem that is not dropped.
func live(list []foundProblem) bool {
	return slices.ContainsFunc(list, func(p foundProblem) bool { return !p.dropped })
}

// finish is finish (problems.go) for the problems of list: a type mismatch hides the other
// problems of its value, duplicates are dropped, and the first maxProblems are worded. It
// takes constant time for a problem the kept ones already precede, whatever its depth: its
// node is compared with theirs in the tree of paths (see compareNodes), and only a problem
// that is kept has its path built.
func (f *found) finish(list []foundProblem) []fault.Problem {
	f.marks = slices.Grow(f.marks[:0], len(f.nodes))[:len(f.nodes)]
	clear(f.marks)
	f.earlier = slices.Grow(f.earlier[:0], len(list))[:len(list)]
	for _, p := range list {
		if p.wording.isType && !p.dropped {
			f.marks[p.node].typed = true
		}
	}
	var first firstProblems
	var at []step
	for i, p := range list {
		mark := &f.marks[p.node]
		if p.dropped || (mark.typed && !p.wording.isType) || f.repeats(list, mark.last, p.wording.text) {
			continue
		}
		f.earlier[i], mark.last = mark.last, int32(i+1) //nolint:gosec // see nodeID
		if len(first.heap) == maxProblems && f.follows(p, first.heap[0]) {
			first.offered++
			continue
		}
		at = f.path(at[:0], p.node)
		candidate := problem{at: at, node: p.node, code: p.wording.code, text: p.wording.text, isType: p.wording.isType}
		if first.admits(candidate) {
			candidate.at = slices.Clone(at)
		}
		first.offer(candidate)
	}
	return first.words()
}

// A nodeMark is what finish knows of a node: whether a type mismatch was found at its value,
// and the last problem kept there (its index in the list plus one; 0 for none).
type nodeMark struct {
	typed bool
	last  int32
}

// repeats reports whether a problem worded text is among those kept at a node, the last of
// which is list[last-1] (see nodeMark): a value has a few problems at most.
func (f *found) repeats(list []foundProblem, last int32, text string) bool {
	for ; last > 0; last = f.earlier[last-1] {
		if list[last-1].wording.text == text {
			return true
		}
	}
	return false
}

// follows reports whether p sorts after the kept problem k (compareProblems).
func (f *found) follows(p foundProblem, k problem) bool {
	if c := f.compareNodes(p.node, k); c != 0 {
		return c > 0
	}
	return p.wording.text > k.text
}

// compareNodes orders the path of node a against that of the kept problem k, by their nodes:
// the steps above the node the two share are the same, so the first that can differ is where
// their branches part. Two nodes of the same path (a member named again) compare by their
// paths.
func (f *found) compareNodes(node nodeID, k problem) int {
	a, b := node, k.node
	da, db := f.nodes[a].depth, f.nodes[b].depth
	for ; da > db; da-- {
		if a = f.nodes[a].parent; a == b {
			return 1
		}
	}
	for ; db > da; db-- {
		if b = f.nodes[b].parent; a == b {
			return -1
		}
	}
	if a == b {
		return 0
	}
	for f.nodes[a].parent != f.nodes[b].parent {
		a, b = f.nodes[a].parent, f.nodes[b].parent
		da--
	}
	if c := compareSteps(f.step(a), f.step(b), da == 1); c != 0 {
		return c
	}
	return comparePaths(f.path(nil, node), k.at)
}

// path appends the steps of the path of node to at.
func (f *found) path(at []step, node nodeID) []step {
	start := len(at)
	for ; node > 0; node = f.nodes[node].parent {
		at = append(at, f.step(node))
	}
	slices.Reverse(at[start:])
	return at
}
