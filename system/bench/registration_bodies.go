package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
)

// benchCategories is how many categories the bench events have (the catalog's largest event):
// the spread creates go round all of them, the hot ones into the first.
const benchCategories = 100

// Quotas of the bench events: the measured creates and the top-up never fill a category of
// the bench event; the sold-out event's categories are filled by its rushes.
const (
	benchHotQuota = 1_000_000
	benchQuota    = 100_000
	rushHotQuota  = 2_000
	rushQuota     = 20
)

// benchEventDoc is the bench event in the catalog's import-file shape: published, with
// benchCategories categories, quotas that the measured creates never reach.
func benchEventDoc() map[string]any {
	return eventDoc("bench-registrations", "Bench Open", "c", benchHotQuota, benchQuota)
}

// searchEventDoc is the event the search runs over, filled to seedTickets.
func searchEventDoc() map[string]any {
	return eventDoc("bench-search", "Bench Search", "s", benchQuota, benchQuota)
}

// soldOutEventDoc is the event of the sold-out rushes: a first category of rushHotQuota
// places, the others of rushQuota.
func soldOutEventDoc() map[string]any {
	return eventDoc("bench-sold-out", "Bench Sold Out", "r", rushHotQuota, rushQuota)
}

func eventDoc(externalID, name, prefix string, firstQuota, quota int) map[string]any {
	var cats []any
	for i := range benchCategories {
		q := quota
		if i == 0 {
			q = firstQuota
		}
		cats = append(cats, map[string]any{"key": fmt.Sprintf("%s%03d", prefix, i), "name": fmt.Sprintf("Heat %03d", i), "basePrice": 5000, "quota": q})
	}
	return map[string]any{
		"externalId": externalID, "name": name, "status": "PUBLISHED",
		"startDate": "2027-06-12", "endDate": "2027-06-13", "timezone": "Europe/Madrid", "currency": "EUR",
		"categories": cats,
	}
}

// Athletes' names, clubs and search fragments of the seeded registrations.
var (
	firstNames = []string{"Ana", "Bruno", "Carla", "Darío", "Elena", "Fran", "Gala", "Hugo", "Irene", "Jorge",
		"Lucía", "Mario", "Nuria", "Óscar", "Paula", "Raúl", "Sara", "Tomás", "Vera", "Xavi"}
	lastNames = []string{"García", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Martín", "Jiménez", "Ruiz", "Hernández",
		"Díaz", "Moreno", "Muñoz", "Álvarez", "Romero", "Alonso", "Gutiérrez", "Navarro", "Torres", "Domínguez",
		"Vázquez", "Ramos", "Gil", "Ramírez", "Serrano", "Blanco", "Molina", "Morales", "Suárez", "Ortega",
		"Delgado", "Castro", "Ortiz", "Rubio", "Marín", "Sanz", "Núñez", "Iglesias", "Medina", "Garrido"}
	cities = []string{"Madrid", "Valencia", "Sevilla", "Bilbao", "Málaga", "Zaragoza", "Murcia", "Palma", "Vigo", "Gijón"}
	// searchTexts are surname fragments, typed without accents as a person would.
	searchTexts = []string{"garc", "mart", "lopez", "sanch", "perez", "gomez", "jimen", "ruiz", "hernan", "diaz",
		"moreno", "muñoz", "alvarez", "romero", "alonso", "gutier", "navarro", "torres", "doming", "vazquez"}
)

// mix spreads a counter over the lists (a multiplicative hash), so neighbours differ.
func mix(i uint64) uint64 { return (i + 1) * 0x9E3779B97F4A7C15 >> 16 }

type athleteBody struct {
	Fullname  string `json:"fullname"`
	IDNumber  string `json:"idNumber"`
	Email     string `json:"email"`
	Phone     string `json:"phone"`
	Gender    string `json:"gender"`
	BirthDate string `json:"birthDate"`
}

type createBody struct {
	EventID    string        `json:"eventId"`
	CategoryID string        `json:"categoryId"`
	TeamName   string        `json:"teamName"`
	Club       string        `json:"club"`
	Athletes   []athleteBody `json:"athletes"`
}

// creates makes a different one-athlete create body for each call: names, clubs, genders and
// birth dates (1960 to 2008) vary; category picks the category of the n-th body.
type creates struct {
	eventID  string
	category func(n uint64) string
	n        *atomic.Uint64
}

func (c creates) next() []byte {
	n := c.n.Add(1)
	h := mix(n)
	first, last := firstNames[h%uint64(len(firstNames))], lastNames[h/7%uint64(len(lastNames))]
	gender := "MALE"
	if h/11%2 == 0 {
		gender = "FEMALE"
	}
	name := first + " " + last
	body, _ := json.Marshal(createBody{
		EventID: c.eventID, CategoryID: c.category(n), TeamName: "Team " + name,
		Club: fmt.Sprintf("CrossFit %s %d", cities[h/13%uint64(len(cities))], h/17%30),
		Athletes: []athleteBody{{
			Fullname: name, IDNumber: fmt.Sprintf("ID%09d", n), Email: fmt.Sprintf("athlete%d@bench.example", n),
			Phone: fmt.Sprintf("+346%08d", h%100_000_000), Gender: gender,
			BirthDate: fmt.Sprintf("%d-%02d-%02d", 1960+h/19%49, 1+h/23%12, 1+h/29%28),
		}},
	})
	return body
}

// searches makes the measured search, one surname fragment after another: free text, the
// event and a gender, sorted by athlete name (the first 20 rows and the total).
func searches(eventID string) func() []byte {
	var n atomic.Uint64
	return func() []byte {
		i := n.Add(1)
		gender := "MALE"
		if i%2 == 0 {
			gender = "FEMALE"
		}
		text := searchTexts[i/2%uint64(len(searchTexts))]
		return fmt.Appendf(nil, `{"search":%q,"eventId":%q,"gender":%q,"sortBy":"athlete-asc"}`, text, eventID, gender)
	}
}

// searchDescription says what searches measures.
func searchDescription() string {
	return fmt.Sprintf("text (%s, ...) + eventId + gender, sortBy athlete-asc, 20 rows + total", strings.Join(searchTexts[:3], ", "))
}
