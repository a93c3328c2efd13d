package broker

import (
	"context"
	"fmt"

	"github.com/segmentio/kafka-go"
)

// GroupMembers returns how many members each consumer group that matches has, for the groups
// that have any: the consumers running now (a group whose members all left, or stopped
// heartbeating for its session timeout, has none; one that only had offsets committed never
// had any). It lists the groups of every broker, then describes those that match; brokers show
// only the groups the client may DESCRIBE (implied by READ), and describing one needs the same.
func GroupMembers(ctx context.Context, cluster Cluster, match func(group string) bool) (map[string]int, error) {
	c := cluster.client()
	listed, err := c.ListGroups(ctx, &kafka.ListGroupsRequest{})
	if err == nil {
		err = listed.Error
	}
	if err != nil {
		return nil, fmt.Errorf("broker: list groups: %w", err)
	}
	var ids []string
	for _, g := range listed.Groups {
		if match(g.GroupID) {
			ids = append(ids, g.GroupID)
		}
	}
	members := map[string]int{}
	if len(ids) == 0 {
		return members, nil
	}
	described, err := c.DescribeGroups(ctx, &kafka.DescribeGroupsRequest{GroupIDs: ids})
	if err != nil {
		return nil, fmt.Errorf("broker: describe groups: %w", err)
	}
	for _, g := range described.Groups {
		if g.Error != nil {
			return nil, fmt.Errorf("broker: describe group %s: %w", g.GroupID, g.Error)
		}
		if len(g.Members) > 0 {
			members[g.GroupID] = len(g.Members)
		}
	}
	return members, nil
}
