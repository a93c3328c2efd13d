package apispec

import (
	"encoding/json"
	"testing"

	"github.com/podiumhq/podium/libs/safetext"
)

// forgedLine is a name that would print as a line of its own wherever names are listed.
const forgedLine = "Ana\n2026-11-28T10:00:00Z  ord_forged  COMPLETED"

func TestNamesRefuseControlCharacters(t *testing.T) {
	rule := func(path string) string { return path + " " + safetext.Rule }
	for _, path := range []string{"athletes[0].fullname", "athletes[0].idNumber", "teamName", "club"} {
		runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
			ok("accents", path, "Lucía García"),
			ok("emoji joined by U+200D", path, "Iron 🏋️‍♀️"),
			ok("Persian with U+200C", path, "می\u200cخواهم"),
			bad("a forged line", path, forgedLine, rule(path)),
			bad("a tab", path, "Ana\tGarcía", rule(path)),
			bad("an ANSI escape", path, "Ana\x1b[2K", rule(path)),
			bad("a C1 control", path, "Ana\u009b2K", rule(path)),
			bad("a direction override", path, "Ana\u202eaicraG", rule(path)),
			bad("a zero-width space", path, "Ana\u200b", rule(path)),
			bad("a line separator", path, "Ana\u2028García", rule(path)),
		})
	}
	for _, path := range []string{"purchaserName", "legalSignature.signerName", "legalSignature.signerIdNumber",
		"legalSignature.minorRelationship", "guestRegistrations[0].guestName", "guestRegistrations[0].teamName"} {
		runRules(t, "browserCheckoutSession", checkoutSession, []ruleCase{
			ok("accents", path, "Lucía García"),
			bad("a forged line", path, forgedLine, rule(path)),
			bad("a direction override", path, "Ana\u202eaicraG", rule(path)),
		})
	}
	// A name too long is told only that: its bound is checked before the rule of its text.
	runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
		bad("too long and forged", "teamName", str(201, "\n"), "teamName must be at most 200 characters long"),
	})
}

// TestPlainTextIsSafetext: the document's rule for names is the one the services and CLIs use.
func TestPlainTextIsSafetext(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Pattern string `json:"pattern"`
				Message string `json:"x-message"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(Document(), &doc); err != nil {
		t.Fatal(err)
	}
	if s := doc.Components.Schemas["PlainText"]; s.Pattern != safetext.Pattern || s.Message != safetext.Rule {
		t.Fatalf("PlainText is %q (%q), want safetext's %q (%q)", s.Pattern, s.Message, safetext.Pattern, safetext.Rule)
	}
	v := validator(t)
	for _, name := range []string{forgedLine, "Ana\u202e", "Lucía 🏋️‍♀️", "Ana\x7f"} {
		compareWithLibrary(t, v, "organizerCreateRegistration", encode(t, with(t, createRegistration(), "athletes[0].fullname", name)))
	}
}
