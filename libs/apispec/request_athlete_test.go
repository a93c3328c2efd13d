package apispec

import "testing"

const (
	phoneRule = "athletes[0].phone must be in E.164 form: a plus sign, a digit 1-9, then 6 to 14 digits"
	emailRule = "athletes[0].email must be a valid e-mail address: no leading dot, no consecutive dots, " +
		"and a domain ending in a top-level part of 2 or more letters"
	dateRule = "athletes[0].birthDate must be a real calendar date in the form YYYY-MM-DD"
)

func TestAthletePhone(t *testing.T) {
	runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
		ok("spanish mobile", "athletes[0].phone", "+34600111222"),
		ok("shortest: 1-9 then 6 digits", "athletes[0].phone", "+1234567"),
		ok("longest: 1-9 then 14 digits", "athletes[0].phone", "+123456789012345"),
		bad("too short", "athletes[0].phone", "+123456", phoneRule),
		bad("too long", "athletes[0].phone", "+1234567890123456", phoneRule),
		bad("no plus sign", "athletes[0].phone", "34600111222", phoneRule),
		bad("leading zero", "athletes[0].phone", "+04600111222", phoneRule),
		bad("space", "athletes[0].phone", "+34 600111222", phoneRule),
		bad("letters", "athletes[0].phone", "+34600ABC222", phoneRule),
		bad("number instead of string", "athletes[0].phone", 34600111222,
			"athletes[0].phone must be a string"),
		bad("missing", "athletes[0].phone", remove, "athletes[0].phone is required"),
	})
}

func TestAthleteEmail(t *testing.T) {
	runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
		ok("plain", "athletes[0].email", "a@b.co"),
		ok("dots, plus and subdomain", "athletes[0].email", "first.last+tag@mail.example.com"),
		ok("hyphenated domain", "athletes[0].email", "x_y@my-club.org"),
		bad("leading dot", "athletes[0].email", ".ana@example.com", emailRule),
		bad("consecutive dots in local part", "athletes[0].email", "ana..garcia@example.com", emailRule),
		bad("consecutive dots in domain", "athletes[0].email", "ana@example..com", emailRule),
		bad("trailing dot in local part", "athletes[0].email", "ana.@example.com", emailRule),
		bad("one-letter top-level part", "athletes[0].email", "ana@example.c", emailRule),
		bad("digits top-level part", "athletes[0].email", "ana@example.123", emailRule),
		bad("no top-level part", "athletes[0].email", "ana@localhost", emailRule),
		bad("no at sign", "athletes[0].email", "ana.example.com", emailRule),
		bad("space", "athletes[0].email", "ana garcia@example.com", emailRule),
		bad("empty", "athletes[0].email", "", emailRule),
	})
}

func TestAthleteBirthDate(t *testing.T) {
	runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
		ok("leap year 2024-02-29", "athletes[0].birthDate", "2024-02-29"),
		ok("leap century 2000-02-29", "athletes[0].birthDate", "2000-02-29"),
		ok("1996-02-29", "athletes[0].birthDate", "1996-02-29"),
		ok("2023-02-28", "athletes[0].birthDate", "2023-02-28"),
		ok("31 in a long month", "athletes[0].birthDate", "2023-12-31"),
		ok("30 in a short month", "athletes[0].birthDate", "2023-04-30"),
		bad("common year 2023-02-29", "athletes[0].birthDate", "2023-02-29", dateRule),
		bad("non-leap century 2100-02-29", "athletes[0].birthDate", "2100-02-29", dateRule),
		bad("non-leap century 1900-02-29", "athletes[0].birthDate", "1900-02-29", dateRule),
		bad("April 31", "athletes[0].birthDate", "2023-04-31", dateRule),
		bad("February 30", "athletes[0].birthDate", "2024-02-30", dateRule),
		bad("month 13", "athletes[0].birthDate", "2023-13-01", dateRule),
		bad("day 00", "athletes[0].birthDate", "2023-01-00", dateRule),
		bad("one-digit month", "athletes[0].birthDate", "2023-1-01", dateRule),
		bad("date-time", "athletes[0].birthDate", "1990-05-17T00:00:00Z", dateRule),
		bad("day first", "athletes[0].birthDate", "17-05-1990", dateRule),
	})
}

func TestAthleteOtherFields(t *testing.T) {
	runRules(t, "organizerCreateRegistration", createRegistration, []ruleCase{
		ok("gender MALE", "athletes[0].gender", "MALE"),
		bad("gender lowercase", "athletes[0].gender", "male", "athletes[0].gender must be one of: MALE, FEMALE"),
		bad("gender other", "athletes[0].gender", "OTHER", "athletes[0].gender must be one of: MALE, FEMALE"),
		ok("one-letter fullname", "athletes[0].fullname", "A"),
		bad("empty fullname", "athletes[0].fullname", "", "athletes[0].fullname must not be empty"),
		bad("missing fullname", "athletes[0].fullname", remove, "athletes[0].fullname is required"),
		bad("empty idNumber", "athletes[0].idNumber", "", "athletes[0].idNumber must not be empty"),
		bad("missing birthDate", "athletes[0].birthDate", remove, "athletes[0].birthDate is required"),
		bad("missing gender", "athletes[0].gender", remove, "athletes[0].gender is required"),
		bad("missing email", "athletes[0].email", remove, "athletes[0].email is required"),
		bad("missing idNumber", "athletes[0].idNumber", remove, "athletes[0].idNumber is required"),
		bad("athlete not an object", "athletes[0]", "Ana", "athletes[0] must be an object"),
		ok("unknown athlete property", "athletes[0].nickname", "Anita"),
	})
}
