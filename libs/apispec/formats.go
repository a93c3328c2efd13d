package apispec

import (
	"net/netip"
	"net/url"
	"strings"
)

// The formats the document asserts, each true exactly when the schema library's own check of
// the format passes (FuzzFormatsMatchTheLibrary), without its allocations.

// isDate reports whether b is a date as time.Parse reads the layout "2006-01-02": four digits,
// a two-digit month and day of a real calendar date (leap years respected), nothing more.
func isDate(b []byte) bool {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if b[i] < '0' || b[i] > '9' {
			return false
		}
	}
	year := int(b[0]-'0')*1000 + int(b[1]-'0')*100 + int(b[2]-'0')*10 + int(b[3]-'0')
	month := int(b[5]-'0')*10 + int(b[6]-'0')
	day := int(b[8]-'0')*10 + int(b[9]-'0')
	if month < 1 || month > 12 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month-1]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day >= 1 && day <= days
}

// isDateTime reports whether b is an RFC 3339 date-time as the library reads one: a date, "T"
// or "t", then a time (isTime).
func isDateTime(b []byte) bool {
	return len(b) >= 20 && (b[10] == 'T' || b[10] == 't') && isDate(b[:10]) && isTime(b[11:])
}

// isTime reports whether b is a time of day with an optional fraction and a zone ("Z", "z" or
// an offset), as the library reads one: each of hours, minutes and seconds is two characters
// that strconv.Atoi reads as a number from 0 to its maximum, and a leap second is only taken
// at 23:59 in UTC.
func isTime(b []byte) bool {
	if len(b) < 9 || b[2] != ':' || b[5] != ':' {
		return false
	}
	h, okH := atoiSmall(b[0:2])
	m, okM := atoiSmall(b[3:5])
	s, okS := atoiSmall(b[6:8])
	if !okH || !okM || !okS || h < 0 || m < 0 || s < 0 || h > 23 || m > 59 || s > 60 {
		return false
	}
	b = b[8:]
	if len(b) > 0 && b[0] == '.' {
		n := digitRun(b[1:])
		if n == 0 {
			return false
		}
		b = b[1+n:]
	}
	if len(b) != 1 || (b[0] != 'Z' && b[0] != 'z') {
		if len(b) != 6 || (b[0] != '+' && b[0] != '-') || b[3] != ':' {
			return false
		}
		sign := 1
		if b[0] == '+' {
			sign = -1
		}
		zh, okZH := atoiSmall(b[1:3])
		zm, okZM := atoiSmall(b[4:6])
		if !okZH || !okZM || zh < 0 || zm < 0 || zh > 23 || zm > 59 {
			return false
		}
		hm := h*60 + m + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	return s < 60 || (h == 23 && m == 59)
}

// atoiSmall reads a short decimal integer as strconv.Atoi does: an optional sign, then one or
// more digits.
func atoiSmall(b []byte) (int, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// isAbsoluteURI reports whether b is an absolute URI as the library reads one: net/url parses
// it, a host with a colon is an IPv6 address in brackets without a zone, and it has a scheme.
func isAbsoluteURI(b []byte) bool {
	u, err := url.Parse(string(b))
	if err != nil {
		return false
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") {
			return false
		}
		addr, err := netip.ParseAddr(host)
		if err != nil || addr.Zone() != "" {
			return false
		}
	}
	return u.IsAbs()
}
