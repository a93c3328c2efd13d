package domain

import "fmt"

// The eligibility rules of a category, published through the internal API for registration
// and checkout, which enforce them:
//   - a registration has between TeamSize.Min and TeamSize.Max athletes;
//   - gender OPEN takes any athletes, MALE and FEMALE only athletes of that gender, MIXED at
//     least one MALE and one FEMALE athlete;
//   - every athlete's age, in whole years on the event's start date, is within AgeMin and
//     AgeMax when they are set.

// AgeOn returns the age in whole years on day of someone born on birth. Someone born on
// February 29 turns a year older on March 1 in common years.
func AgeOn(birth, day Date) int {
	age := day.Year - birth.Year
	if day.Month < birth.Month || day.Month == birth.Month && day.Day < birth.Day {
		age--
	}
	return age
}

// Athlete is what eligibility looks at.
type Athlete struct {
	Gender    Gender // MALE or FEMALE
	BirthDate Date
}

// Eligible returns nil when athletes may register in c for an event starting on eventStart,
// or an error saying why not.
func (c Category) Eligible(athletes []Athlete, eventStart Date) error {
	if n := len(athletes); n < c.TeamSize.Min || n > c.TeamSize.Max {
		return fmt.Errorf("category %s takes teams of %d to %d athletes, not %d", c.Name, c.TeamSize.Min, c.TeamSize.Max, n)
	}
	men, women := 0, 0
	for i, a := range athletes {
		switch a.Gender {
		case GenderMale:
			men++
		case GenderFemale:
			women++
		}
		if (c.Gender == GenderMale || c.Gender == GenderFemale) && a.Gender != c.Gender {
			return fmt.Errorf("athletes[%d]: category %s is for %s athletes only", i, c.Name, c.Gender)
		}
		age := AgeOn(a.BirthDate, eventStart)
		if c.AgeMin != nil && age < *c.AgeMin || c.AgeMax != nil && age > *c.AgeMax {
			return fmt.Errorf("athletes[%d]: aged %d on %s, outside the ages of category %s", i, age, eventStart, c.Name)
		}
	}
	if c.Gender == GenderMixed && (men == 0 || women == 0) {
		return fmt.Errorf("category %s needs at least one MALE and one FEMALE athlete", c.Name)
	}
	return nil
}
