package domain

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// A known-browser marker tells, without the database, a browser that signed in as an e-mail
// address: an HMAC-SHA256 with the console's cookie key over the hashes of the browser's
// binding and of the address and the marker's expiry, written
// "<expiry, Unix seconds>.<hex SHA-256 of the address>.<base64url MAC>". Only the console can
// make one, only for the browser holding the binding, and each is good until its expiry.

// markerPurpose starts every MAC'd text, so that no other MAC made with the key is a marker's.
const markerPurpose = "podium console known browser v1"

// maxMarkerLen bounds the markers read: an issued one has about 120 characters.
const maxMarkerLen = 160

// KnownBrowserMarker is the marker, made with key, of the browser whose binding hashes to
// browserHash as one that signed in as the address that hashes to emailHash, until expires.
func KnownBrowserMarker(key []byte, browserHash, emailHash string, expires time.Time) string {
	exp := strconv.FormatInt(expires.Unix(), 10)
	return exp + "." + emailHash + "." + markerMAC(key, browserHash, emailHash, exp)
}

// KnownBrowser returns the hash of the address marker names if key made it for the browser
// whose binding hashes to browserHash and it has not expired at the given time. The MAC is
// compared in constant time; the work is bounded by maxMarkerLen whatever marker holds.
func KnownBrowser(key []byte, marker, browserHash string, at time.Time) (emailHash string, ok bool) {
	if len(marker) > maxMarkerLen {
		return "", false
	}
	exp, rest, found := strings.Cut(marker, ".")
	emailHash, mac, split := strings.Cut(rest, ".")
	if !found || !split || len(emailHash) != sha256.Size*2 {
		return "", false
	}
	if !hmac.Equal([]byte(mac), []byte(markerMAC(key, browserHash, emailHash, exp))) {
		return "", false
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !time.Unix(unix, 0).After(at) {
		return "", false
	}
	return emailHash, true
}

// markerMAC is the MAC of a marker, over its fields separated by zero bytes, which no field of
// an issued marker holds.
func markerMAC(key []byte, browserHash, emailHash, expires string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(markerPurpose + "\x00" + browserHash + "\x00" + emailHash + "\x00" + expires))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
