package postgres

import (
	"context"
	"strings"
)

// spanName names a statement's span by what it does: the sqlc name of the query
// ("-- name: GetOrder :one" names it GetOrder), else its operation and the table it works on
// ("SELECT events", "INSERT outbox", "UPDATE orders"), else its operation alone ("BEGIN",
// "SELECT" of a function).
func spanName(_ context.Context, stmt string) string {
	if name := sqlcName(stmt); name != "" {
		return name
	}
	toks := topLevelTokens(stmt)
	if len(toks) == 0 {
		return "UNKNOWN"
	}
	op, rest := strings.ToUpper(toks[0]), toks[1:]
	if op == "WITH" { // the statement after the common table expressions
		for i, t := range rest {
			if u := strings.ToUpper(t); u == "SELECT" || u == "INSERT" || u == "UPDATE" || u == "DELETE" || u == "MERGE" {
				op, rest = u, rest[i+1:]
				break
			}
		}
	}
	if table := targetTable(op, rest); table != "" {
		return op + " " + table
	}
	return op
}

// sqlcName returns the name in the "-- name: <Name> :<kind>" comment sqlc puts before each
// query, or "".
func sqlcName(stmt string) string {
	for {
		stmt = strings.TrimLeft(stmt, " \t\r\n")
		line, rest, _ := strings.Cut(stmt, "\n")
		if !strings.HasPrefix(line, "--") {
			return ""
		}
		if after, ok := strings.CutPrefix(strings.TrimSpace(line[2:]), "name:"); ok {
			if f := strings.Fields(after); len(f) > 0 {
				return f[0]
			}
		}
		stmt = rest
	}
}

// targetTable returns the table an operation works on, given the tokens after it, or "".
func targetTable(op string, toks []string) string {
	switch op {
	case "UPDATE":
		return tableAt(toks, 0)
	case "INSERT", "MERGE":
		return tableAt(toks, afterKeyword(toks, "INTO"))
	case "SELECT", "DELETE":
		i := afterKeyword(toks, "FROM")
		if i+1 < len(toks) && toks[i+1] == "(" { // a function: FROM unnest($1)
			return ""
		}
		return tableAt(toks, i)
	}
	return ""
}

// afterKeyword returns the index after the first keyword kw in toks, or len(toks).
func afterKeyword(toks []string, kw string) int {
	for i, t := range toks {
		if strings.EqualFold(t, kw) {
			return i + 1
		}
	}
	return len(toks)
}

// tableAt returns the table named at toks[i], or "" when there is none or a subquery.
func tableAt(toks []string, i int) string {
	if i < len(toks) && strings.EqualFold(toks[i], "ONLY") {
		i++
	}
	if i >= len(toks) || toks[i] == "(" {
		return ""
	}
	return toks[i]
}

// topLevelTokens splits stmt into the words outside parentheses, each parenthesised group
// standing as one "(" token; string literals and comments are skipped and identifiers
// unquoted.
func topLevelTokens(stmt string) []string {
	var out []string
	depth := 0
	for i := 0; i < len(stmt); {
		c := stmt[i]
		switch {
		case c == '\'':
			end := strings.IndexByte(stmt[i+1:], '\'')
			if end < 0 {
				return out
			}
			i += end + 2
		case strings.HasPrefix(stmt[i:], "--"):
			end := strings.IndexByte(stmt[i:], '\n')
			if end < 0 {
				return out
			}
			i += end + 1
		case strings.HasPrefix(stmt[i:], "/*"):
			end := strings.Index(stmt[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '(':
			if depth == 0 {
				out = append(out, "(")
			}
			depth++
			i++
		case c == ')':
			depth = max(depth-1, 0)
			i++
		case isWordByte(c):
			j := i
			for j < len(stmt) && isWordByte(stmt[j]) {
				j++
			}
			if depth == 0 {
				out = append(out, strings.ReplaceAll(stmt[i:j], `"`, ""))
			}
			i = j
		default:
			i++
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '"' || c == '$' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
