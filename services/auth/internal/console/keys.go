package console

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/podiumhq/podium/libs/fault"
	"github.com/podiumhq/podium/services/auth/internal/domain"
)

// keyForm is a create-key form as posted, kept to show it again with its problems.
type keyForm struct {
	Name, Origins, Expires string
	Scopes                 []string
	Problems               []string
}

// keyRow is a key as the API tab lists it.
type keyRow struct {
	domain.Key
	Expired bool
}

type apiData struct {
	Keys                        []keyRow
	Pager                       *pager
	AllScopes                   []string
	SecretForm, PublishableForm keyForm
	Notice                      string
	// Deleted counts what deleting the test data deleted, right after it.
	Deleted *domain.TestDataDeleted
}

func (h *handlers) apiTab(c *fiber.Ctx) error {
	return h.renderAPITab(c, http.StatusOK, apiData{Notice: notices[c.Query("done")]})
}

// notices are the confirmations shown after a redirect, by the done query parameter.
var notices = map[string]string{"revoked": "The key was revoked.", "removed": "The member was removed.", "role": "The role was changed.", "invited": "The member was added and e-mailed how to sign in."}

func (h *handlers) renderAPITab(c *fiber.Ctx, status int, d apiData) error {
	p := pageOf(c)
	keys, total, err := h.Console.Keys(c.UserContext(), session(c).Email, c.Params("organizerId"), modeOf(c), p)
	if err != nil {
		return err
	}
	now := h.Console.Now()
	for _, k := range keys {
		d.Keys = append(d.Keys, keyRow{Key: k, Expired: k.Expired(now)})
	}
	d.Pager, d.AllScopes = newPager(p, len(keys), total), domain.AllScopes
	return render(c, status, "api", page(c, "API", "api", d))
}

type createdData struct {
	Key    domain.Key
	Secret string
}

func (h *handlers) createKey(c *fiber.Ctx) error {
	form := keyForm{
		Name: c.FormValue("name"), Origins: c.FormValue("origins"), Expires: c.FormValue("expires"),
		Scopes: formValues(c, "scopes"),
	}
	typ := c.FormValue("type")
	req, problems := keyRequest(typ, form)
	req.Mode = string(modeOf(c))
	if len(problems) == 0 {
		created, err := h.Console.CreateKey(c.UserContext(), h.actor(c), c.Params("organizerId"), req)
		if fault.KindOf(err) != fault.Invalid {
			if err != nil {
				return err
			}
			// The full key is in this response only: nothing caches it (securityHeaders sets
			// no-store) and nothing redirects to a page that could show it again.
			return render(c, http.StatusCreated, "key_created", page(c, "New key", "api", createdData{Key: created.Key, Secret: created.Secret}))
		}
		f, _ := fault.Of(err)
		problems = keyProblems(f.Problems)
	}
	form.Problems = problems
	d := apiData{}
	if typ == string(domain.PublishableKey) {
		d.PublishableForm = form
	} else {
		d.SecretForm = form
	}
	return h.renderAPITab(c, http.StatusBadRequest, d)
}

// keyRequest turns a form into a key request; the origins, one per line, are checked here so
// each problem names its line.
func keyRequest(typ string, f keyForm) (domain.KeyRequest, []string) {
	r := domain.KeyRequest{Type: typ, Name: f.Name}
	var problems []string
	switch typ {
	case string(domain.SecretKey):
		r.Scopes = f.Scopes
	case string(domain.PublishableKey):
		lines := strings.Split(f.Origins, "\n")
		if len(lines) > domain.MaxOrigins {
			return r, []string{fmt.Sprintf("list at most %d origins", domain.MaxOrigins)}
		}
		for i, line := range lines {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			if _, err := domain.NormalizeOrigin(line); err != nil {
				problems = append(problems, fmt.Sprintf("origin on line %d (%q) %s", i+1, line, err))
				continue
			}
			r.AllowedOrigins = append(r.AllowedOrigins, line)
		}
	}
	if f.Expires != "" {
		day, err := time.Parse(time.DateOnly, f.Expires)
		if err != nil {
			problems = append(problems, "expiry date must be a date such as 2027-01-31")
		} else {
			r.ExpiresAt = day.UTC().Format(time.RFC3339)
		}
	}
	return r, problems
}

// keyProblems rewords the key rules' problems, written for the API's field names, for the form.
func keyProblems(problems []string) []string {
	words := strings.NewReplacer(
		"allowedOrigins must list at least one origin for a publishable key", "list at least one allowed origin",
		"scopes must list at least one scope for a secret key", "choose at least one scope",
		"expiresAt must be in the future", "expiry date must be in the future",
	)
	out := make([]string, len(problems))
	for i, p := range problems {
		out[i] = words.Replace(p)
	}
	return out
}

func (h *handlers) confirmRevokePage(c *fiber.Ctx) error {
	m := membership(c)
	if !domain.CanManage(m.Role) {
		return errNotAllowed
	}
	k, err := h.Console.Key(c.UserContext(), session(c).Email, m.OrganizerID, c.Params("keyId"))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, "key_revoke", page(c, "Revoke key", "api", k))
}

func (h *handlers) revokeKey(c *fiber.Ctx) error {
	orgID := c.Params("organizerId")
	if _, err := h.Console.RevokeKey(c.UserContext(), h.actor(c), orgID, c.Params("keyId")); err != nil {
		return err
	}
	return c.Redirect(withMode(c, "/orgs/"+orgID+"/api?done=revoked"), http.StatusSeeOther)
}

// formValues returns every value of a repeated form field.
func formValues(c *fiber.Ctx, name string) []string {
	var out []string
	for _, v := range c.Context().PostArgs().PeekMulti(name) {
		out = append(out, string(v))
	}
	return out
}

// pageOf reads the offset query parameter; the console pages by 50.
func pageOf(c *fiber.Ctx) domain.Page {
	offset, err := strconv.Atoi(c.Query("offset"))
	if err != nil || offset < 0 {
		offset = 0
	}
	return domain.Page{Limit: domain.DefaultPageLimit, Offset: offset}
}

// pager links a listing's neighbouring pages.
type pager struct {
	From, To, Total        int
	Prev, Next             bool
	PrevOffset, NextOffset int
}

func newPager(p domain.Page, shown, total int) *pager {
	if total <= p.Limit && p.Offset == 0 {
		return nil
	}
	return &pager{
		From: min(p.Offset+1, total), To: p.Offset + shown, Total: total,
		Prev: p.Offset > 0, PrevOffset: max(p.Offset-p.Limit, 0),
		Next: p.Offset+shown < total, NextOffset: p.Offset + p.Limit,
	}
}
