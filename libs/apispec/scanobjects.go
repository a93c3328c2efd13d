package apispec

import (
	"bytes"
)

// A memberName is a distinct member name of an object being read, with the problems found in
// the value of its last occurrence: problems[problemsFrom:problemsTo] and
// shapes[shapesFrom:shapesTo]. The name is body[at:end], or decoded[at:end] when it had to be
// decoded (see scan.nameOf); hash is its folded form's once the object's names are indexed. An
// entry holds no pointer, so that the many names of a large object cost the collector nothing,
// and its offsets take 32 bits (a body is at most maxScanBytes), so that they cost little memory.
type memberName struct {
	at, end                  int32
	hash                     uint32
	problemsFrom, problemsTo int32
	shapesFrom, shapesTo     int32
	decoded, ascii           bool
}

// nameOf returns the bytes of n.
func (s *scan) nameOf(n memberName) []byte {
	if n.decoded {
		return s.decoded[n.at:n.end]
	}
	return s.body[n.at:n.end]
}

// objectReading is the state of an object being read.
type objectReading struct {
	// check is the object's check, nil once the object passed its fewest maxProperties (or
	// when it has none): its members are then read for their shape only.
	check        *objectCheck
	problemsMark int // where the problems of the object start
	base         int // where its names start in scan.names
	distinct     int
	present      uint64 // the bits of the required members present
	// long and nul are set by a member name longer than maxNameLength, or holding U+0000;
	// twin is the first (in byte order) of the names another repeats in a different case.
	long, nul bool
	twin      []byte
	// slots, when there are more than pairwiseNames names, index them by folded name in
	// scan.nameSlots[slotsFrom:slotsFrom+slots].
	slotsFrom, slots int
}

// enter goes one level deeper and reports whether that is within maxDepth.
func (s *scan) enter() bool {
	s.depth++
	s.tooDeep = s.depth > maxDepth
	return !s.tooDeep
}

// object reads an object and checks it (c nil: only its shape). It reports whether it was
// cut, past its fewest maxProperties.
func (s *scan) object(c *objectCheck) (cut bool) {
	s.pos++
	if !s.enter() {
		return false
	}
	r := objectReading{check: c, problemsMark: len(s.found.problems), base: len(s.names)}
	shapesMark := len(s.found.shapes)
	if c != nil {
		s.refusals(c.problems, c.bodyProblems)
	}
	s.readMembers(&r)
	s.names = s.names[:r.base]
	if r.slots > 0 {
		s.nameSlots = s.nameSlots[:r.slotsFrom]
	}
	s.depth--
	if s.broken || s.tooDeep {
		return false
	}
	switch {
	case r.long || r.nul:
		// Nothing is said of its members: their paths would show the long name or U+0000.
		s.found.shapes = s.found.shapes[:shapesMark]
		w := longNamesWording
		if !r.long {
			w = nulNamesWording
		}
		s.problem(&s.found.shapes, w)
	case r.twin != nil:
		s.found.shapes = append(s.found.shapes, foundProblem{node: s.found.child(s.node(), member(string(r.twin))), wording: twinWording})
	}
	if c == nil {
		return false
	}
	if r.distinct > c.fewest {
		for _, b := range c.maxMembers {
			if r.distinct > b.limit {
				s.problem(&s.found.problems, b.problem)
			}
		}
		return true
	}
	for i, name := range c.required {
		if r.present&(1<<i) == 0 {
			s.found.problems = append(s.found.problems, foundProblem{node: s.found.child(s.node(), member(name)), wording: requiredWording})
		}
	}
	for _, b := range c.minMembers {
		if r.distinct < b.limit {
			s.problem(&s.found.problems, b.problem)
		}
	}
	return false
}

// refusals records the problems a collection's rules say of any collection of its type.
func (s *scan) refusals(problems, bodyProblems []*wording) {
	if s.atBody() {
		problems = bodyProblems
	}
	for _, w := range problems {
		s.problem(&s.found.problems, w)
	}
}

// readMembers reads the members of an object after its opening brace, and its closing brace.
func (s *scan) readMembers(r *objectReading) {
	if s.skipSpace(); s.pos < len(s.body) && s.body[s.pos] == '}' {
		s.pos++
		return
	}
	for {
		if s.skipSpace(); s.pos >= len(s.body) || s.body[s.pos] != '"' {
			s.broken = true
			return
		}
		raw, ok := s.readString()
		if !ok {
			return
		}
		if s.skipSpace(); s.pos >= len(s.body) || s.body[s.pos] != ':' {
			s.broken = true
			return
		}
		s.pos++
		s.member(r, raw)
		if s.broken || s.tooDeep {
			return
		}
		if s.skipSpace(); s.pos < len(s.body) {
			s.pos++
			switch s.body[s.pos-1] {
			case ',':
				continue
			case '}':
				return
			}
		}
		s.broken = true
		return
	}
}

// member reads the value of the member named raw and checks it.
func (s *scan) member(r *objectReading, raw rawString) {
	before := len(s.decoded)
	name := decode(raw, &s.decoded)
	entry := memberName{at: int32(raw.at), end: int32(raw.at + len(name))} //nolint:gosec // a body is at most maxScanBytes
	if len(s.decoded) > before {
		entry = memberName{at: int32(before), end: int32(len(s.decoded)), decoded: true} //nolint:gosec // and so is what was decoded of it
	}
	ascii := raw.ascii && !raw.escaped
	if !ascii {
		ascii = countRunes(name) == len(name)
	}
	r.long = r.long || (len(name) > maxNameLength && countRunes(name) > maxNameLength)
	r.nul = r.nul || (raw.escaped && bytes.IndexByte(name, 0) >= 0)
	i, hash := s.sameName(r, name, ascii)
	if i >= 0 {
		// encoding/json keeps the last value of a name: the earlier one is not read.
		prev := s.names[i]
		drop(s.found.problems, prev.problemsFrom, prev.problemsTo)
		drop(s.found.shapes, prev.shapesFrom, prev.shapesTo)
	} else {
		i = len(s.names)
		entry.ascii, entry.hash = ascii, hash
		s.names = append(s.names, entry)
		if r.distinct++; r.check != nil && r.distinct > r.check.fewest {
			// Cut: nothing the schemas say at or inside the object counts.
			s.found.problems = s.found.problems[:r.problemsMark]
			r.check = nil
		}
	}
	var m *memberCheck
	if r.check != nil {
		m = r.check.member(name)
	}
	s.names[i].problemsFrom, s.names[i].shapesFrom = s.found.counts()
	var value *valueCheck
	if m != nil {
		value = m.value
	}
	s.enterMember(i)
	if cut := s.value(value); m != nil && m.notAllowed && !cut {
		s.problem(&s.found.problems, notAllowedWording)
	}
	s.leave()
	if m != nil && m.required >= 0 {
		r.present |= 1 << m.required
	}
	s.names[i].problemsTo, s.names[i].shapesTo = s.found.counts()
}

// array reads an array and checks it (c nil: only its shape). It reports whether it was cut,
// past its fewest maxItems: its items past that bound are read for their shape only.
func (s *scan) array(c *arrayCheck) (cut bool) {
	s.pos++
	if !s.enter() {
		return false
	}
	mark := len(s.found.problems)
	if c != nil {
		s.refusals(c.problems, c.bodyProblems)
	}
	check, n := c, 0
	if s.skipSpace(); s.pos < len(s.body) && s.body[s.pos] == ']' {
		s.pos++
	} else {
		for ; ; n++ {
			if check != nil && n >= check.fewest {
				s.found.problems = s.found.problems[:mark]
				check = nil
			}
			var item *valueCheck
			if check != nil {
				item = check.items
			}
			s.enterItem(n)
			s.value(item)
			s.leave()
			if s.broken || s.tooDeep {
				return false
			}
			if s.skipSpace(); s.pos < len(s.body) && (s.body[s.pos] == ',' || s.body[s.pos] == ']') {
				if s.pos++; s.body[s.pos-1] == ',' {
					continue
				}
				n++
				break
			}
			s.broken = true
			return false
		}
	}
	s.depth--
	if c == nil {
		return false
	}
	if n > c.fewest {
		for _, b := range c.maxItems {
			if n > b.limit {
				s.problem(&s.found.problems, b.problem)
			}
		}
		return true
	}
	for _, b := range c.minItems {
		if n < b.limit {
			s.problem(&s.found.problems, b.problem)
		}
	}
	return false
}
