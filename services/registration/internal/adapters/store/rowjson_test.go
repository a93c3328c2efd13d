package store

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzAppendJSONString checks the rows' string encoding against encoding/json: valid JSON that
// reads back as the string encoding/json would give (invalid UTF-8 as U+FFFD).
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "Ana García", `quote " backslash \ slash /`, "tab\tnew\nline\rcr", "\x00\x01\x1f\x7f",
		"\xff\xfe broken \xc3", "emoji 🏋️ and \u2028\u2029", "<b>&amp;</b>", "ÿ" + string([]byte{0xe2, 0x82})} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ours := appendJSONString(nil, s)
		theirs, _ := json.Marshal(s)
		var a, b string
		if err := json.Unmarshal(ours, &a); err != nil {
			t.Fatalf("%q encoded as %s: %v", s, ours, err)
		}
		if err := json.Unmarshal(theirs, &b); err != nil || a != b {
			t.Fatalf("%q reads back as %q, encoding/json's as %q (%v)", s, a, b, err)
		}
	})
}

func TestRowsJSON(t *testing.T) {
	at := time.Date(2027, 6, 12, 8, 0, 0, 123_456_789, time.UTC) // stored to the microsecond, truncated
	club, bib := "Box \"Norte\"", int64(9007199254740991)
	w := newRowsJSON(0)
	if !w.empty() || string(w.bytes()) != "[]" {
		t.Fatalf("no rows: %s", w.bytes())
	}
	w = newRowsJSON(0)
	for range 2 {
		w.row()
		w.str("id", "reg_1")
		w.strPtr("club", &club)
		w.strPtr("note", nil)
		w.intPtr("bib", &bib)
		w.bool("checked_in", true)
		w.time("created_at", at)
		w.timePtr("cancelled_at", nil)
		w.strs("keys", nil)
		w.times("checked_in_at", []time.Time{at, at})
		if err := w.value("custom", map[string]any{"fld": []any{"a", 1.5}}, false, "{}"); err != nil {
			t.Fatal(err)
		}
		if err := w.value("empty", nil, true, "[]"); err != nil {
			t.Fatal(err)
		}
		w.end()
	}
	want := `{"id":"reg_1","club":"Box \"Norte\"","bib":9007199254740991,"checked_in":true,"created_at":"2027-06-12T08:00:00.123456Z",` +
		`"keys":[],"checked_in_at":["2027-06-12T08:00:00.123456Z","2027-06-12T08:00:00.123456Z"],"custom":{"fld":["a",1.5]},"empty":[]}`
	if got := string(w.bytes()); got != "["+want+","+want+"]" {
		t.Fatalf("rows\n%s\nwant\n[%s,%s]", got, want, want)
	}
}
