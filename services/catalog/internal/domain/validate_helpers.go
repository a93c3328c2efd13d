package domain

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// uniqueKeys checks that the n items of the list at path have well-formed keys, unique within
// the list, and returns the set of keys.
func uniqueKeys(p *problems, path string, n int, key func(int) string) map[string]bool {
	seen := make(map[string]int, n)
	out := make(map[string]bool, n)
	for i := range n {
		k := key(i)
		switch j, dup := seen[k]; {
		case !keyPattern.MatchString(k):
			p.add(fmt.Sprintf("%s[%d].key must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", path, i))
		case dup:
			p.add(fmt.Sprintf("%s[%d].key %q is already used by %s[%d]", path, i, k, path, j))
		default:
			seen[k] = i
		}
		out[k] = true
	}
	return out
}

func requireName(p *problems, path, s string) {
	if strings.TrimSpace(s) == "" {
		p.add(path + " is required")
		return
	}
	maxName(p, path, s)
}

func maxName(p *problems, path, s string) {
	if utf8.RuneCountInString(s) > MaxNameLength {
		p.add(fmt.Sprintf("%s must be at most %d characters long", path, MaxNameLength))
	}
}

func maxText(p *problems, path, s string) {
	if utf8.RuneCountInString(s) > MaxTextLength {
		p.add(fmt.Sprintf("%s must be at most %d characters long", path, MaxTextLength))
	}
}

func bounded(p *problems, path string, v *int, lo, hi int) {
	if v != nil && (*v < lo || *v > hi) {
		p.add(fmt.Sprintf("%s must be an integer from %d to %d", path, lo, hi))
	}
}

func amount(p *problems, path string, v int64) {
	if v < 0 || v > MaxAmount {
		p.add(path + " must be an amount in minor units of the event currency, from 0 to 9007199254740991")
	}
}

// adjustment checks a discount or fee: PERCENT from 0.01 to 100 %, FIXED from minAmount.
func adjustment(p *problems, path string, a Adjustment, minAmount int64) {
	switch a.Type {
	case Percent:
		if a.BasisPoints < 1 || a.BasisPoints > MaxBasisPoints {
			p.add(path + ".percent must be greater than 0 and at most 100")
		}
	case Fixed:
		if a.Amount < minAmount || a.Amount > MaxAmount {
			p.add(fmt.Sprintf("%s.amount must be an amount in minor units of the event currency, from %d to 9007199254740991", path, minAmount))
		}
	default:
		p.add(path + " must have either percent or amount")
	}
}

func knownCategories(p *problems, path string, keys []string, categories map[string]bool) {
	for j, k := range keys {
		if !categories[k] {
			p.add(fmt.Sprintf("%s[%d] %q is not the key of a category of the event", path, j, k))
		}
	}
}

// webURL checks an optional absolute http(s) URL.
func webURL(p *problems, path, s string) {
	if s == "" {
		return
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(s) > 2000 {
		p.add(path + " must be an absolute http or https URL")
	}
}
