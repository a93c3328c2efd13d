package apispec

import (
	"bytes"
	"hash/maphash"
	"slices"
	"unicode/utf8"
)

// The member names of the object being read are compared as they are read: an exact repeat is
// a member encoding/json replaces, and names that differ only in case are refused (names.go).
// Up to pairwiseNames names are compared pairwise; past that, they are indexed by folded name
// in a hash table kept in the scan, so that a large object costs time linear in its names and
// no allocation once the scan's buffers have grown. The hash is seeded at random in each
// process (as Go's maps seed theirs): names a client picks cannot be made to share slots, which
// would make each lookup walk all of them.

// nameSeed seeds the hash of folded names.
var nameSeed = maphash.MakeSeed()

// A nameSlot is an entry of the index of an object's names: the hash of a name's folded form
// and its index in scan.names, -1 for an empty slot.
type nameSlot struct {
	hash uint32
	name int32
}

// sameName returns the index in s.names of the member of the object being read whose name is
// name, or -1 for a new name (which the caller appends to s.names with the hash it is given),
// and notes in r the first name a member repeats in a different case.
func (s *scan) sameName(r *objectReading, name []byte, ascii bool) (int, uint32) {
	names := s.names[r.base:]
	if r.slots == 0 && len(names) < pairwiseNames {
		for i, n := range names {
			if ascii && n.ascii && len(name) != int(n.end-n.at) {
				continue
			}
			other := s.nameOf(n)
			if bytes.Equal(other, name) {
				return r.base + i, 0
			}
			if bytes.EqualFold(other, name) {
				r.noteTwin(other, name)
			}
		}
		return -1, 0
	}
	if 2*(len(names)+1) > r.slots {
		s.reindex(r, max(4*pairwiseNames, 2*r.slots))
	}
	h := s.foldHash(name)
	return s.file(r, name, h, len(s.names)), h
}

// file looks name, whose hash is h, up in the index of r and returns the index of the same
// name, or files name under index i and returns -1.
func (s *scan) file(r *objectReading, name []byte, h uint32, i int) int {
	slots := s.nameSlots[r.slotsFrom : r.slotsFrom+r.slots]
	mask := uint32(r.slots - 1) //nolint:gosec // slots is a power of two that indexes a slice
	for at := h & mask; ; at = (at + 1) & mask {
		slot := &slots[at]
		if slot.name < 0 {
			slot.hash, slot.name = h, int32(i) //nolint:gosec // a body is at most maxScanBytes
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
// are dropped when they end. The names were compared as they were filed, so they are placed
// by their hashes alone; those compared pairwise are hashed here.
func (s *scan) reindex(r *objectReading, size int) {
	if r.slots == 0 {
		r.slotsFrom = len(s.nameSlots)
		for i := r.base; i < len(s.names); i++ {
			s.names[i].hash = s.foldHash(s.nameOf(s.names[i]))
		}
	}
	s.nameSlots = slices.Grow(s.nameSlots[:r.slotsFrom], size)[:r.slotsFrom+size]
	slots := s.nameSlots[r.slotsFrom:]
	for i := range slots {
		slots[i] = nameSlot{name: -1}
	}
	r.slots = size
	mask := uint32(size - 1) //nolint:gosec // size is a power of two that indexes a slice
	for i := r.base; i < len(s.names); i++ {
		h := s.names[i].hash
		at := h & mask
		for slots[at].name >= 0 {
			at = (at + 1) & mask
		}
		slots[at] = nameSlot{hash: h, name: int32(i)} //nolint:gosec // a body is at most maxScanBytes
	}
}

// foldHash hashes the folded form of name (foldName), so that names that differ only in case
// hash alike.
func (s *scan) foldHash(name []byte) uint32 {
	s.folded = appendFolded(s.folded[:0], name)
	return uint32(maphash.Bytes(nameSeed, s.folded)) //nolint:gosec // the low 32 bits are hash enough
}

// appendFolded appends the folded form of name (foldName) to dst.
func appendFolded(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		c := name[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += n
	}
	return dst
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
