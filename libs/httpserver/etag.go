package httpserver

import "strings"

// ETagMatches applies If-None-Match's weak comparison (RFC 9110, 13.1.2): header is "*" or
// lists a tag equal to etag, W/ prefixes ignored.
func ETagMatches(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == "*" || tag == etag {
			return true
		}
	}
	return false
}
