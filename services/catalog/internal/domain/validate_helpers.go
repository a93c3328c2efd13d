package domain

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/libs/safetext"
)

// uniqueKeys checks that the n items of the list at path have well-formed keys, unique within
// the list, and returns the set of keys.
func uniqueKeys(p *fault.Problems, path string, n int, key func(int) string) map[string]bool {
	seen := make(map[string]int, n)
	out := make(map[string]bool, n)
	for i := range n {
		k := key(i)
		switch j, dup := seen[k]; {
		case !keyPattern.MatchString(k):
			p.Addf("%s[%d].key must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", path, i)
		case dup:
			p.Addf("%s[%d].key %q is already used by %s[%d]", path, i, k, path, j)
		default:
			seen[k] = i
		}
		out[k] = true
	}
	return out
}

func requireName(p *fault.Problems, path, s string) {
	if strings.TrimSpace(s) == "" {
		p.Add(path + " is required")
		return
	}
	maxName(p, path, s)
}

// maxName checks a name, label or title: at most MaxNameLength characters, none of them a
// control character (safetext), since names are shown on terminals and pages.
func maxName(p *fault.Problems, path, s string) {
	switch {
	case utf8.RuneCountInString(s) > MaxNameLength:
		p.Addf("%s must be at most %d characters long", path, MaxNameLength)
	case !safetext.Valid(s):
		p.Add(path + " " + safetext.Rule)
	}
}

func maxText(p *fault.Problems, path, s string) {
	if utf8.RuneCountInString(s) > MaxTextLength {
		p.Addf("%s must be at most %d characters long", path, MaxTextLength)
	}
}

func bounded(p *fault.Problems, path string, v *int, lo, hi int) {
	if v != nil && (*v < lo || *v > hi) {
		p.Addf("%s must be an integer from %d to %d", path, lo, hi)
	}
}

func amount(p *fault.Problems, path string, v int64) {
	if v < 0 || v > MaxAmount {
		p.Add(path + " must be an amount in minor units of the event currency, from 0 to 9007199254740991")
	}
}

// adjustment checks a discount or fee: PERCENT from 0.01 to 100 %, FIXED from minAmount.
func adjustment(p *fault.Problems, path string, a Adjustment, minAmount int64) {
	switch a.Type {
	case Percent:
		if a.BasisPoints < 1 || a.BasisPoints > MaxBasisPoints {
			p.Add(path + ".percent must be greater than 0 and at most 100")
		}
	case Fixed:
		if a.Amount < minAmount || a.Amount > MaxAmount {
			p.Addf("%s.amount must be an amount in minor units of the event currency, from %d to 9007199254740991", path, minAmount)
		}
	default:
		p.Add(path + " must have either percent or amount")
	}
}

func knownCategories(p *fault.Problems, path string, keys []string, categories map[string]bool) {
	for j, k := range keys {
		if !categories[k] {
			p.Addf("%s[%d] %q is not the key of a category of the event", path, j, k)
		}
	}
}

// webURL checks an optional absolute http(s) URL.
func webURL(p *fault.Problems, path, s string) {
	if s == "" {
		return
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(s) > 2000 {
		p.Add(path + " must be an absolute http or https URL")
	}
}
