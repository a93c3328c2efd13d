package apispec

import (
	"fmt"
	"sync"
)

// scan reads one request body in one pass over its bytes and runs the compiled checks of each
// value as it reads it, so that no tree of the body is built. It finds what the library path
// finds (validate): the same problems of nesting, JSON syntax, shape, bounds and schemas, with
// the same precedence, each check linear in the body; it reads no body past maxScanBytes.
type scan struct {
	body  []byte
	pos   int
	depth int
	// broken is set at the first byte that is not JSON, tooDeep when a value opens past
	// maxDepth; either ends the scan.
	broken, tooDeep bool
	found           found
	// names are the member names of the objects being read, innermost last (scanobjects.go);
	// decoded keeps the names that escapes or bad UTF-8 had to be decoded for.
	names     []memberName
	nameSlots []nameSlot
	decoded   []byte
	// folded holds the folded form of the name being hashed (scannames.go).
	folded []byte
	// text holds the string value being checked when it had to be decoded.
	text []byte
	// frames lead from the body (frames[0]) to the value being read.
	frames []frame
}

// A frame is a step on the way from the body to the value being read: into the member whose
// name is names[name], or (name -1) the item at index. Its path node is made for the first
// problem at or inside its value.
type frame struct {
	name, index int
	node        nodeID
}

// scans keeps scans for reuse: a body is usually checked without allocating.
var scans = sync.Pool{New: func() any { return new(scan) }}

// Bounds on what a pooled scan keeps of the buffers a large body made it grow.
const (
	keptNodes = 1 << 12
	keptBytes = 1 << 16
)

// maxScanBytes bounds the bodies a scan reads, far above any operation's byte limit, so that
// the offsets and counts it keeps fit in 32 bits.
const maxScanBytes = 1 << 26

// validateBody checks body against c and returns nil or a *ValidationError.
func validateBody(c *valueCheck, body []byte) error {
	if len(body) > maxScanBytes {
		return invalid(codeTooLarge, fmt.Sprintf("body must be at most %d bytes", maxScanBytes))
	}
	s := scans.Get().(*scan)
	defer s.release()
	s.body, s.pos, s.depth, s.broken, s.tooDeep = body, 0, 0, false, false
	s.found.reset()
	s.frames = append(s.frames[:0], frame{name: -1})
	s.value(c)
	if !s.broken && !s.tooDeep {
		s.skipSpace()
		s.broken = s.pos != len(s.body)
	}
	switch {
	case s.tooDeep || (s.broken && nestsTooDeep(body)):
		return invalid(codeTooDeep, tooDeepProblem)
	case s.broken:
		return invalid(codeInvalidJSON, "body must be valid JSON")
	case live(s.found.shapes):
		return &ValidationError{Problems: s.found.finish(s.found.shapes)}
	case live(s.found.problems):
		return &ValidationError{Problems: s.found.finish(s.found.problems)}
	}
	return nil
}

// release returns s to the pool without the body or anything taken from it, and without the
// buffers a large body made it grow.
func (s *scan) release() {
	s.body = nil
	s.names, s.nameSlots = s.names[:0], s.nameSlots[:0]
	s.decoded, s.text, s.folded = s.decoded[:0], s.text[:0], s.folded[:0]
	if cap(s.names) > keptNodes || cap(s.nameSlots) > keptNodes {
		s.names, s.nameSlots = nil, nil
	}
	if cap(s.found.nodes) > keptNodes || cap(s.found.keys) > keptNodes || cap(s.found.problems) > keptNodes || cap(s.found.shapes) > keptNodes ||
		cap(s.found.marks) > keptNodes || cap(s.found.earlier) > keptNodes {
		s.found = found{}
	}
	if cap(s.decoded) > keptBytes || cap(s.text) > keptBytes || cap(s.folded) > keptBytes {
		s.decoded, s.text, s.folded = nil, nil, nil
	}
	scans.Put(s)
}

// value reads the value at s.pos and checks it against c (nil: only the checks every body
// has). It reports whether the value was cut, past one of its bounds, so that its parent says
// nothing else of it.
func (s *scan) value(c *valueCheck) (cut bool) {
	s.skipSpace()
	if s.pos >= len(s.body) {
		s.broken = true
		return false
	}
	switch s.body[s.pos] {
	case '{':
		return s.object(c.objects())
	case '[':
		return s.array(c.arrays())
	case '"':
		return s.stringValue(c)
	case 't':
		if s.literal("true") {
			s.checkLiteral(c, typeBoolean, true)
		}
	case 'f':
		if s.literal("false") {
			s.checkLiteral(c, typeBoolean, false)
		}
	case 'n':
		if s.literal("null") {
			s.checkLiteral(c, typeNull, false)
		}
	default:
		s.number(c)
	}
	return false
}

// objects returns the check of c on an object, nil for none.
func (c *valueCheck) objects() *objectCheck {
	if c == nil {
		return nil
	}
	return c.object
}

// arrays returns the check of c on an array, nil for none.
func (c *valueCheck) arrays() *arrayCheck {
	if c == nil {
		return nil
	}
	return c.array
}

// skipSpace moves past JSON whitespace.
func (s *scan) skipSpace() {
	for s.pos < len(s.body) {
		switch s.body[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// literal reads the literal word and reports whether it was there; if not, the body is broken.
func (s *scan) literal(word string) bool {
	if len(s.body)-s.pos < len(word) || string(s.body[s.pos:s.pos+len(word)]) != word {
		s.broken = true
		return false
	}
	s.pos += len(word)
	return true
}

// number reads a number literal, with the JSON grammar encoding/json reads, and checks it.
func (s *scan) number(c *valueCheck) {
	start := s.pos
	neg := s.pos < len(s.body) && s.body[s.pos] == '-'
	if neg {
		s.pos++
	}
	whole := s.pos
	switch {
	case s.pos < len(s.body) && s.body[s.pos] == '0':
		s.pos++
	case s.pos < len(s.body) && s.body[s.pos] >= '1' && s.body[s.pos] <= '9':
		s.pos += digitRun(s.body[s.pos:])
	default:
		s.broken = true
		return
	}
	var fraction, exponent []byte
	end := s.pos
	if s.pos < len(s.body) && s.body[s.pos] == '.' {
		from := s.pos + 1
		if s.pos++; s.digits() == 0 {
			return
		}
		fraction = s.body[from:s.pos]
	}
	if s.pos < len(s.body) && (s.body[s.pos] == 'e' || s.body[s.pos] == 'E') {
		sign := s.pos + 1
		if s.pos++; s.pos < len(s.body) && (s.body[s.pos] == '+' || s.body[s.pos] == '-') {
			s.pos++
		}
		if s.digits(); s.broken {
			return
		}
		exponent = s.body[sign:s.pos]
	}
	if lit := s.body[start:s.pos]; len(lit) > maxNumberLength || (exponent != nil && isHugeNumber(lit)) {
		s.problem(&s.found.shapes, hugeNumberWording)
		return
	}
	if c != nil {
		s.checkNumber(c.rules, decimalOf(neg, s.body[whole:end], fraction, exponent))
	}
}

// digits moves past a run of digits and returns its length, marking the body broken when
// there are none.
func (s *scan) digits() int {
	n := digitRun(s.body[s.pos:])
	s.pos += n
	if n == 0 {
		s.broken = true
	}
	return n
}

// enterMember and enterItem move into a member or an item of the value being read; leave
// moves back out.
func (s *scan) enterMember(name int) { s.frames = append(s.frames, frame{name: name}) }
func (s *scan) enterItem(i int)      { s.frames = append(s.frames, frame{name: -1, index: i}) }
func (s *scan) leave()               { s.frames = s.frames[:len(s.frames)-1] }

// atBody reports whether the value being read is the body itself.
func (s *scan) atBody() bool { return len(s.frames) == 1 }

// node returns the path node of the value being read, making it and its parents' as needed.
func (s *scan) node() nodeID {
	made := len(s.frames) - 1
	for made > 0 && s.frames[made].node == 0 {
		made--
	}
	for i := made + 1; i < len(s.frames); i++ {
		f := &s.frames[i]
		step := item(f.index)
		if f.name >= 0 {
			step = member(string(s.nameOf(s.names[f.name])))
		}
		f.node = s.found.child(s.frames[i-1].node, step)
	}
	return s.frames[len(s.frames)-1].node
}

// problem records a problem of the value being read in list.
func (s *scan) problem(list *[]foundProblem, w *wording) {
	*list = append(*list, foundProblem{node: s.node(), wording: w})
}
