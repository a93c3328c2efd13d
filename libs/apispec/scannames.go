package apispec

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// The member names of the object being read are compared as they are read: an exact repeat is
// a member encoding/json replaces, and names that differ only in case are refused (names.go).
// Up to pairwiseNames names are compared pairwise; past that, they are indexed by folded name
// in a hash table kept in the scan, so that a large object costs time linear in its names and
// no allocation.

// A nameSlot is an entry of the index of an object's names: the hash of a name's folded form
// and its index in scan.names, -1 for an empty slot.
type nameSlot struct {
	hash uint64
	name int
}

// sameName returns the index in s.names of the member of the object being read whose name is
// name, or -1 for a new name (which the caller appends to s.names), and notes in r the first
// name a member repeats in a different case.
func (s *scan) sameName(r *objectReading, name []byte, ascii bool) int {
	names := s.names[r.base:]
	if r.slots == 0 && len(names) < pairwiseNames {
		for i, n := range names {
			if ascii && n.ascii && len(name) != n.end-n.at {
				continue
			}
			other := s.nameOf(n)
			if bytes.Equal(other, name) {
				return r.base + i
			}
			if bytes.EqualFold(other, name) {
				r.noteTwin(other, name)
			}
		}
		return -1
	}
	if 2*(len(names)+1) > r.slots {
		s.reindex(r, max(4*pairwiseNames, 2*r.slots))
	}
	return s.file(r, name, len(s.names))
}

// file looks name up in the index of r and returns the index of the same name, or files name
// under index i and returns -1.
func (s *scan) file(r *objectReading, name []byte, i int) int {
	h, mask := foldHash(name), r.slots-1
	for at := int(h>>1) & mask; ; at = (at + 1) & mask { //nolint:gosec // any bits of the hash do
		slot := &s.nameSlots[r.slotsFrom+at]
		if slot.name < 0 {
			slot.hash, slot.name = h, i
			return -1
		}
		if slot.hash != h {
			continue
		}
		other := s.nameOf(s.names[slot.name])
		if bytes.Equal(other, name) {
			return int(slot.name)
		}
		if bytes.EqualFold(other, name) {
			r.noteTwin(other, name)
		}
	}
}

// reindex gives r an index of size slots (a power of two) with its names filed in it. The
// index of the object being read is the last in s.nameSlots: those of the objects inside it
// are dropped when they end.
func (s *scan) reindex(r *objectReading, size int) {
	if r.slots == 0 {
		r.slotsFrom = len(s.nameSlots)
	}
	s.nameSlots = slices.Grow(s.nameSlots[:r.slotsFrom], size)[:r.slotsFrom+size]
	for i := range s.nameSlots[r.slotsFrom:] {
		s.nameSlots[r.slotsFrom+i] = nameSlot{name: -1}
	}
	r.slots = size
	for i := r.base; i < len(s.names); i++ {
		s.file(r, s.nameOf(s.names[i]), i)
	}
}

// foldHash hashes the folded form of name (foldName) without building it, with FNV-1a: names
// that differ only in case hash alike.
func foldHash(name []byte) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	var folded [utf8.UTFMax]byte
	for i := 0; i < len(name); {
		c := name[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			h = (h ^ uint64(c)) * prime
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		for _, b := range utf8.AppendRune(folded[:0], foldRune(r)) {
			h = (h ^ uint64(b)) * prime
		}
		i += n
	}
	return h
}

// noteTwin notes two names that differ only in case.
func (r *objectReading) noteTwin(a, b []byte) {
	lower := a
	if bytes.Compare(b, a) < 0 {
		lower = b
	}
	if r.twin == nil || bytes.Compare(lower, r.twin) < 0 {
		r.twin = lower
	}
}

// countRunes counts the characters of valid UTF-8 (utf8.RuneCount copies what is not ASCII).
func countRunes(b []byte) int {
	n := len(b)
	for _, c := range b {
		if c&0xC0 == 0x80 {
			n--
		}
	}
	return n
}
