package api

import (
	"time"

	"github.com/podiumhq/podium/services/catalog/internal/domain"
)

// adminSummaryView is an event in the admin list.
type adminSummaryView struct {
	ID         string    `json:"id"`
	ExternalID string    `json:"externalId"`
	Name       string    `json:"name"`
	Status     string    `json:"status"`
	Private    bool      `json:"private"`
	StartDate  string    `json:"startDate"`
	EndDate    string    `json:"endDate"`
	Version    int64     `json:"version"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

type adminListView struct {
	Data   []adminSummaryView `json:"data"`
	Total  int64              `json:"total"`
	Limit  int                `json:"limit"`
	Offset int64              `json:"offset"`
}

func newAdminList(p domain.Page) adminListView {
	v := adminListView{Data: make([]adminSummaryView, len(p.Events)), Total: p.Total, Limit: p.Limit, Offset: p.Offset}
	for i, e := range p.Events {
		v.Data[i] = adminSummaryView{
			ID: e.ID, ExternalID: e.ExternalID, Name: e.Name, Status: string(e.Status), Private: e.Private,
			StartDate: e.StartDate.String(), EndDate: e.EndDate.String(), Version: e.Version, UpdatedAt: e.UpdatedAt.UTC(),
		}
	}
	return v
}
