package fault

// Problem is one problem of a request as a client reads it: the field path it is about (empty
// for the request as a whole), a stable code and the sentence, which starts with the path.
type Problem struct {
	Path    string `json:"path"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Messages returns the sentences of problems.
func Messages(problems []Problem) []string {
	out := make([]string, len(problems))
	for i, p := range problems {
		out[i] = p.Message
	}
	return out
}

// RootName is the word a problem about the request body as a whole starts with.
const RootName = "body"

// The codes of the problems a service's own rules find (those of the request schema are
// finer: libs/apispec).
const (
	// CodeInvalid is a value of the wrong shape.
	CodeInvalid = "invalid"
	// CodeRuleViolated is a well-formed value that breaks a business rule.
	CodeRuleViolated = "rule_violated"
)

// Details returns the problems of an Invalid or Unprocessable failure as a client reads them,
// each with the path its sentence starts with and the code of its category, or nil for
// failures of other categories.
func (e *Error) Details() []Problem {
	var code string
	switch e.Kind {
	case Invalid:
		code = CodeInvalid
	case Unprocessable:
		code = CodeRuleViolated
	default:
		return nil
	}
	out := make([]Problem, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = Problem{Path: PathOf(p), Code: code, Message: p}
	}
	return out
}

// PathOf returns the field path a problem's sentence starts with ("athletes[0].phone must
// be…", "registrations: a purchase…"), or "" when it starts with none or with RootName. A path
// is a name of letters, digits and '_' starting with a letter, then any of ".name", "[index]"
// and `["key"]`, followed by a space or a colon. It reads each byte at most once.
func PathOf(problem string) string {
	i := name(problem, 0)
	if i == 0 {
		return ""
	}
	for i < len(problem) {
		switch problem[i] {
		case '.':
			j := name(problem, i+1)
			if j == i+1 {
				return ""
			}
			i = j
		case '[':
			j := index(problem, i+1)
			if j < 0 {
				return ""
			}
			i = j
		case ' ', ':':
			if problem[:i] == RootName {
				return ""
			}
			return problem[:i]
		default:
			return ""
		}
	}
	return ""
}

// name returns the end of the name starting at s[i], or i when none starts there.
func name(s string, i int) int {
	if i >= len(s) || !letter(s[i]) {
		return i
	}
	i++
	for i < len(s) && (letter(s[i]) || s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
		i++
	}
	return i
}

// index returns the end of the index or quoted key whose '[' is just before s[i] (the byte
// after its ']'), or -1.
func index(s string, i int) int {
	if i < len(s) && s[i] == '"' {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				if j+1 < len(s) && s[j+1] == ']' {
					return j + 2
				}
				return -1
			}
		}
		return -1
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j >= len(s) || s[j] != ']' {
		return -1
	}
	return j + 1
}

func letter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
