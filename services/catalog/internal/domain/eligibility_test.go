package domain_test

import (
	"strings"
	"testing"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

func TestAgeOn(t *testing.T) {
	for _, c := range []struct {
		birth, day string
		want       int
	}{
		{"2009-06-12", "2027-06-12", 18},
		{"2009-06-13", "2027-06-12", 17},
		{"2008-02-29", "2027-02-28", 18}, // turns 19 on 1 March in a common year
		{"2008-02-29", "2027-03-01", 19},
		{"2008-02-29", "2028-02-29", 20},
	} {
		if got := domain.AgeOn(mustDate(t, c.birth), mustDate(t, c.day)); got != c.want {
			t.Errorf("AgeOn(%s, %s) = %d, want %d", c.birth, c.day, got, c.want)
		}
	}
}

func TestEligible(t *testing.T) {
	start := mustDate(t, "2027-06-12")
	man := domain.Athlete{Gender: domain.GenderMale, BirthDate: mustDate(t, "1990-01-01")}
	woman := domain.Athlete{Gender: domain.GenderFemale, BirthDate: mustDate(t, "1992-01-01")}
	teen := domain.Athlete{Gender: domain.GenderMale, BirthDate: mustDate(t, "2009-06-13")} // 17 on the start date
	rx := domain.Category{Name: "RX Men", TeamSize: domain.TeamSize{Min: 1, Max: 1}, Gender: domain.GenderMale, AgeMin: intPtr(18)}
	mixed := domain.Category{Name: "Mixed", TeamSize: domain.TeamSize{Min: 2, Max: 3}, Gender: domain.GenderMixed}
	cases := []struct {
		name     string
		c        domain.Category
		athletes []domain.Athlete
		want     string // "" when eligible
	}{
		{"rx man", rx, []domain.Athlete{man}, ""},
		{"rx woman", rx, []domain.Athlete{woman}, "for MALE athletes only"},
		{"rx too young on the start date", rx, []domain.Athlete{teen}, "aged 17 on 2027-06-12"},
		{"rx team of two", rx, []domain.Athlete{man, man}, "teams of 1 to 1 athletes, not 2"},
		{"mixed pair", mixed, []domain.Athlete{man, woman}, ""},
		{"mixed without a woman", mixed, []domain.Athlete{man, man}, "at least one MALE and one FEMALE"},
		{"mixed too big", mixed, []domain.Athlete{man, woman, man, woman}, "not 4"},
		{"open takes anyone", domain.Category{Name: "Open", TeamSize: domain.TeamSize{Min: 1, Max: 2}, Gender: domain.GenderOpen},
			[]domain.Athlete{woman, teen}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.c.Eligible(c.athletes, start)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("Eligible = %v, want %q", err, c.want)
			}
		})
	}
}
