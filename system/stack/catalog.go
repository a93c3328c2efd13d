package stack

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
)

// Item is anything of an event the catalog identifies by the author's key and its own id.
type Item struct {
	Key string `json:"key"`
	ID  string `json:"id"`
}

// Category is an event category as stored, with its price tiers.
type Category struct {
	Item
	Tiers []Item `json:"tiers"`
}

// Waiver is a waiver as stored, at its current version.
type Waiver struct {
	Item
	Version int `json:"version"`
}

// Supplement is a supplement as stored, with its options.
type Supplement struct {
	Item
	Options []Item `json:"options"`
}

// Event is an event as the catalog's admin API answers an import.
type Event struct {
	ID           string       `json:"id"`
	ExternalID   string       `json:"externalId"`
	Status       string       `json:"status"`
	PreviewToken string       `json:"previewToken"`
	Version      int          `json:"version"`
	Categories   []Category   `json:"categories"`
	FormFields   []Item       `json:"formFields"`
	Waivers      []Waiver     `json:"waivers"`
	Supplements  []Supplement `json:"supplements"`
	Promocodes   []Item       `json:"promocodes"`
}

// Category returns the id of the category with key, or "".
func (e Event) Category(key string) string {
	for _, c := range e.Categories {
		if c.Key == key {
			return c.ID
		}
	}
	return ""
}

// ImportEvent imports (creates or updates) the event file for an organizer through the catalog
// CLI, as an operator would.
func (s *Stack) ImportEvent(ctx context.Context, organizerID, file string) (Event, error) {
	var ev Event
	err := s.cli(ctx, "catalog", &ev, "import", "--organizer", organizerID, "--file", file)
	return ev, err
}

// ImportEventDoc imports an event described by doc, a value of the import file's shape.
func (s *Stack) ImportEventDoc(ctx context.Context, organizerID string, doc any) (Event, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return Event{}, err
	}
	f, err := os.CreateTemp("", "podium-event-*.json")
	if err != nil {
		return Event{}, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(raw); err != nil {
		f.Close()
		return Event{}, err
	}
	if err := f.Close(); err != nil {
		return Event{}, err
	}
	return s.ImportEvent(ctx, organizerID, f.Name())
}

// demoEventFiles lists the catalog's demo event files, found from the repository root.
func demoEventFiles() ([]string, error) {
	root, err := RepoRoot(".")
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(root, "services", "catalog", "demo", "*.yaml"))
	sort.Strings(files)
	return files, err
}
