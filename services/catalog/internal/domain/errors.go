package domain

import "github.com/podiumhq/podium/libs/fault"

// EventNotFound says no event ref is visible to the caller: it does not exist, belongs to
// another organizer, or is not public on the browser surface. ref is the event id (evt_…) or,
// on the admin API, the external id.
func EventNotFound(ref string) error { return fault.NewNotFound("event " + ref) }

// CategoryNotFound says no category id (cat_…) is visible to the caller.
func CategoryNotFound(id string) error { return fault.NewNotFound("category " + id) }
