package apispec

// The rules check a string, number, boolean or null as the library does: a rule that refuses
// the value by its type, its const, its enum or its format says only that; otherwise its
// parts, then its other keywords, check it too. A string's maximum lengths are checked before
// (stringValue), so they are not checked again.

// admits reports whether r's type admits a value of type t (integer: a number without a
// fractional part), and records the problem of a value it refuses.
func (s *scan) admits(r *rule, t jsonTypes, integer bool) bool {
	switch {
	case r.never:
		s.problem(&s.found.problems, falseWording)
		return false
	case r.types == 0 || r.types&t != 0 || (integer && r.types&typeInteger != 0):
		return true
	case s.atBody():
		s.problem(&s.found.problems, r.bodyProblem)
	default:
		s.problem(&s.found.problems, r.typeProblem)
	}
	return false
}

// stringRule checks a string of runes characters against r.
func (s *scan) stringRule(r *rule, str []byte, runes int) {
	if !s.admits(r, typeString, false) {
		return
	}
	switch {
	case r.constant != nil && (r.constant.kind != typeString || r.constant.text != string(str)):
		s.problem(&s.found.problems, r.constProblem)
		return
	case r.enum != nil && !hasScalar(r.enum, typeString, str, false):
		s.problem(&s.found.problems, r.enumProblem)
		return
	case r.format != nil && !r.format(str):
		s.problem(&s.found.problems, r.formatProblem)
		return
	}
	for _, p := range r.parts {
		s.stringRule(p, str, runes)
	}
	if runes < r.minLength {
		s.problem(&s.found.problems, r.minLengthProblem)
	}
	if r.pattern != nil && !r.pattern(str) {
		s.problem(&s.found.problems, r.patternProblem)
	}
	if r.notAny {
		s.problem(&s.found.problems, r.notProblem)
	}
}

// checkNumber checks a number against the rules.
func (s *scan) checkNumber(rules []*rule, d decimal) {
	for _, r := range rules {
		s.numberRule(r, &d, d.isInteger())
	}
}

// numberRule checks a number against r.
func (s *scan) numberRule(r *rule, d *decimal, integer bool) {
	if !s.admits(r, typeNumber, integer) {
		return
	}
	switch {
	case r.constant != nil:
		s.problem(&s.found.problems, r.constProblem)
		return
	case r.enum != nil:
		s.problem(&s.found.problems, r.enumProblem)
		return
	}
	for _, p := range r.parts {
		s.numberRule(p, d, integer)
	}
	for _, b := range r.numberBounds {
		if b.refuses(compareDecimals(d, &b.limit)) {
			s.problem(&s.found.problems, b.problem)
		}
	}
	if r.notAny {
		s.problem(&s.found.problems, r.notProblem)
	}
}

// checkLiteral checks true, false (t typeBoolean, with flag) or null (t typeNull) against c.
func (s *scan) checkLiteral(c *valueCheck, t jsonTypes, flag bool) {
	if c == nil {
		return
	}
	for _, r := range c.rules {
		s.literalRule(r, t, flag)
	}
}

// literalRule checks true, false or null against r.
func (s *scan) literalRule(r *rule, t jsonTypes, flag bool) {
	if !s.admits(r, t, false) {
		return
	}
	switch {
	case r.constant != nil && (r.constant.kind != t || r.constant.flag != flag):
		s.problem(&s.found.problems, r.constProblem)
		return
	case r.enum != nil && !hasScalar(r.enum, t, nil, flag):
		s.problem(&s.found.problems, r.enumProblem)
		return
	}
	for _, p := range r.parts {
		s.literalRule(p, t, flag)
	}
	if r.notAny {
		s.problem(&s.found.problems, r.notProblem)
	}
}

// hasScalar reports whether list holds the value of type t that is str (a string) or flag (a
// boolean).
func hasScalar(list []scalar, t jsonTypes, str []byte, flag bool) bool {
	for _, v := range list {
		if v.kind == t && (t == typeNull || (t == typeString && v.text == string(str)) || (t == typeBoolean && v.flag == flag)) {
			return true
		}
	}
	return false
}
