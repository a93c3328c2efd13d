package domain

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/podiumhq/podium/libs/fault"
)

// Form field types.
const (
	FieldText        = "text"
	FieldNumber      = "number"
	FieldBoolean     = "boolean"
	FieldSelect      = "select"
	FieldMultiselect = "multiselect"
	FieldDate        = "date"
)

// checkCustomFields checks values against the event's form fields: unknown fields, fields of
// other categories, duplicates, types and options, and that every required field applying to
// the category has a value (ATHLETE-scoped fields: one per athlete, by athleteIndex).
func checkCustomFields(p *fault.Problems, prefix string, e Event, c Category, values []CustomFieldValue, athletes int) {
	fields := map[string]FormField{}
	for _, f := range e.FormFields {
		fields[f.ID] = f
	}
	have := map[string]bool{} // fieldId or fieldId#index
	for i, v := range values {
		path := fmt.Sprintf("%scustomFields[%d]", prefix, i)
		f, ok := fields[v.FieldID]
		if !ok {
			p.Addf("%s.fieldId: form field %s does not exist in event %s", path, v.FieldID, e.ID)
			continue
		}
		if !fieldApplies(f, c.ID) {
			p.Addf("%s.fieldId: form field %s does not apply to category %s", path, v.FieldID, c.ID)
			continue
		}
		key := v.FieldID
		if f.AppliesTo == AppliesToAthlete {
			if v.AthleteIndex == nil || *v.AthleteIndex < 0 || *v.AthleteIndex >= athletes {
				p.Addf("%s.athleteIndex: form field %s is asked per athlete: athleteIndex must name an athlete, 0 to %d", path, v.FieldID, athletes-1)
				continue
			}
			key = fmt.Sprintf("%s#%d", v.FieldID, *v.AthleteIndex)
		} else if v.AthleteIndex != nil {
			p.Addf("%s.athleteIndex: form field %s is asked once per team: send it without athleteIndex", path, v.FieldID)
			continue
		}
		if have[key] {
			p.Addf("%s.fieldId: form field %s has a value already", path, v.FieldID)
			continue
		}
		have[key] = true
		if msg := checkFieldValue(f, v.Value); msg != "" {
			p.Addf("%s.value: %s", path, msg)
		}
	}
	for _, f := range e.FormFields {
		if !f.Required || !fieldApplies(f, c.ID) {
			continue
		}
		if f.AppliesTo == AppliesToAthlete {
			for a := range athletes {
				if !have[fmt.Sprintf("%s#%d", f.ID, a)] {
					p.Addf("%scustomFields: form field %s (%s) is required for athletes[%d]", prefix, f.ID, f.Label, a)
				}
			}
			continue
		}
		if !have[f.ID] {
			p.Addf("%scustomFields: form field %s (%s) is required", prefix, f.ID, f.Label)
		}
	}
}

// checkFieldValue returns why v is not a value of f, or "". Empty values (null, "", [])
// of a required field are refused.
func checkFieldValue(f FormField, v any) string {
	if f.Required && IsEmptyValue(v) {
		return fmt.Sprintf("form field %s is required and must not be empty", f.ID)
	}
	if v == nil {
		return ""
	}
	switch f.Type {
	case FieldText:
		if _, ok := v.(string); !ok {
			return "must be a string"
		}
	case FieldNumber:
		if _, ok := v.(float64); !ok {
			return "must be a number"
		}
	case FieldBoolean:
		if _, ok := v.(bool); !ok {
			return "must be a boolean"
		}
	case FieldDate:
		s, ok := v.(string)
		if _, err := time.Parse(DateLayout, s); !ok || err != nil {
			return "must be a real calendar date in the form YYYY-MM-DD"
		}
	case FieldSelect:
		s, ok := v.(string)
		if !ok || !slices.Contains(f.Options, s) {
			return "must be one of " + strings.Join(f.Options, ", ")
		}
	case FieldMultiselect:
		arr, ok := v.([]any)
		if !ok {
			return "must be an array of options among " + strings.Join(f.Options, ", ")
		}
		seen := map[string]bool{}
		for _, item := range arr {
			s, ok := item.(string)
			if !ok || !slices.Contains(f.Options, s) {
				return "every item must be one of " + strings.Join(f.Options, ", ")
			}
			if seen[s] {
				return fmt.Sprintf("option %s is chosen twice", s)
			}
			seen[s] = true
		}
	}
	return ""
}

// IsEmptyValue reports whether a custom field value counts as empty: null, "" or [].
func IsEmptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	return false
}
