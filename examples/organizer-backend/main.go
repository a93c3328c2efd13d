// Command organizer-backend is a worked example of the organizer API: it finds an event, reads
// its categories and form fields, registers an athlete, searches the registrations with a
// filter page by page, renames the team and cancels the ticket. With `webhooks`, it receives
// the organizer's webhooks instead, verifying each with the Standard Webhooks library.
//
//	PODIUM_API_URL=http://localhost:8080/external/v1 PODIUM_SECRET_KEY=pdm_sk_live_… go run .
//	PODIUM_WEBHOOK_SECRET=whsec_… WEBHOOK_ADDR=127.0.0.1:4242 go run . webhooks
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "webhooks" {
		if err := serveWebhooks(env("WEBHOOK_ADDR", "127.0.0.1:4242"), os.Getenv("PODIUM_WEBHOOK_SECRET")); err != nil {
			fmt.Fprintln(os.Stderr, "organizer-backend:", err)
			os.Exit(1)
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := &Client{BaseURL: env("PODIUM_API_URL", "http://localhost:8080/external/v1"), Key: os.Getenv("PODIUM_SECRET_KEY"), HTTP: &http.Client{Timeout: 30 * time.Second}}
	if err := run(ctx, c, env("PODIUM_EVENT", "Summer Throwdown")); err != nil {
		fmt.Fprintln(os.Stderr, "organizer-backend:", err)
		os.Exit(1)
	}
}

type event struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Categories []struct {
		ID       string            `json:"id"`
		Name     string            `json:"name"`
		TeamSize struct{ Min int } `json:"teamSize"`
	} `json:"categories"`
	FormFields []struct {
		ID        string   `json:"id"`
		Label     string   `json:"label"`
		Required  bool     `json:"required"`
		Options   []string `json:"options"`
		AppliesTo string   `json:"appliesTo"`
	} `json:"formFields"`
}

type registration struct {
	RegistrationID string `json:"registrationId"`
	TeamName       string `json:"teamName"`
	Tickets        []struct {
		TicketID string `json:"ticketId"`
	} `json:"tickets"`
}

func run(ctx context.Context, c *Client, search string) error {
	// 1. Search the organizer's events (every status, private ones too).
	var found struct {
		Data  []event `json:"data"`
		Total int     `json:"total"`
	}
	if err := c.Do(ctx, "POST", "/organizer/events/search", map[string]any{"search": search, "limit": 1}, &found); err != nil {
		return err
	}
	if len(found.Data) == 0 {
		return fmt.Errorf("no event matches %q", search)
	}
	// 2. Read its detail: categories and form fields.
	var ev event
	if err := c.Do(ctx, "GET", "/organizer/events/"+found.Data[0].ID, nil, &ev); err != nil {
		return err
	}
	fmt.Printf("event %s %s: %d categories\n", ev.ID, ev.Name, len(ev.Categories))

	// 3. Register one athlete in the first individual category, answering the required
	// per-athlete select fields with their first option.
	body := map[string]any{"eventId": ev.ID, "teamName": "Example Athlete", "athletes": []any{map[string]any{
		"fullname": "Carlos Example", "idNumber": "X1234567", "email": "carlos@example.com",
		"phone": "+34600111222", "gender": "MALE", "birthDate": "1990-04-01",
	}}}
	for _, cat := range ev.Categories {
		if cat.TeamSize.Min == 1 {
			body["categoryId"] = cat.ID
			break
		}
	}
	var answers []any
	var filterField, filterValue string
	for _, f := range ev.FormFields {
		if f.Required && f.AppliesTo == "ATHLETE" && len(f.Options) > 0 {
			answers = append(answers, map[string]any{"fieldId": f.ID, "value": f.Options[0], "athleteIndex": 0})
			filterField, filterValue = f.ID, f.Options[0]
		}
	}
	body["customFields"] = answers
	var reg registration
	err := c.Do(ctx, "POST", "/organizer/registrations", body, &reg)
	var apiErr *APIError
	switch {
	case errors.As(err, &apiErr) && apiErr.Code == "quota_exhausted":
		return fmt.Errorf("the category is full: %w", err)
	case errors.As(err, &apiErr) && len(apiErr.Problems) > 0:
		for _, p := range apiErr.Problems {
			fmt.Printf("  %s (%s): %s\n", p.Path, p.Code, p.Message)
		}
		return err
	case err != nil:
		return err
	}
	ticket := reg.Tickets[0].TicketID
	fmt.Printf("created %s with ticket %s\n", reg.RegistrationID, ticket)

	// 4. Search the event's tickets whose answer matches, 50 per page.
	filter := map[string]any{"eventId": ev.ID, "sortBy": "athlete-asc", "limit": 50}
	if filterField != "" {
		filter["customFieldFilters"] = []any{map[string]any{"fieldId": filterField, "operator": "equals", "value": filterValue}}
	}
	seen := 0
	for offset := 0; ; offset += 50 {
		filter["offset"] = offset
		var page struct {
			Data  []any `json:"data"`
			Total int   `json:"total"`
		}
		if err := c.Do(ctx, "POST", "/organizer/registrations/search", filter, &page); err != nil {
			return err
		}
		seen += len(page.Data)
		if len(page.Data) == 0 || seen >= page.Total {
			fmt.Printf("search: %d matching tickets\n", page.Total)
			break
		}
	}

	// 5. Rename the team, then 6. cancel the ticket (the place is freed).
	if err := c.Do(ctx, "PATCH", "/organizer/registrations/"+ticket, map[string]any{"teamName": "Example Athlete (renamed)"}, &reg); err != nil {
		return err
	}
	fmt.Printf("renamed to %q\n", reg.TeamName)
	var cancelled struct {
		Result string `json:"result"`
	}
	if err := c.Do(ctx, "DELETE", "/organizer/registrations/"+ticket, nil, &cancelled); err != nil {
		return err
	}
	fmt.Printf("cancelled %s: %s\n", ticket, cancelled.Result)
	return nil
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
