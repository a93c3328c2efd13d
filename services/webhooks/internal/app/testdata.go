package app

import "context"

// TestDataDeleted counts what a wipe of an organization's test data deleted.
type TestDataDeleted struct {
	Endpoints  int
	Deliveries int
}

// DeleteTestData deletes the organization's test endpoints with their deliveries and messages,
// never a live row; a second call deletes nothing.
func (s *Service) DeleteTestData(ctx context.Context, organizerID string) (TestDataDeleted, error) {
	deleted, err := s.repo.DeleteTestData(ctx, organizerID)
	if err != nil {
		return TestDataDeleted{}, err
	}
	s.log.InfoContext(ctx, "test data deleted", "organizer", organizerID,
		"endpoints", deleted.Endpoints, "deliveries", deleted.Deliveries)
	return deleted, nil
}
