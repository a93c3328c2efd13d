package domain

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/podiumhq/podium/libs/fault"
)

// ipEnrichmentFields are the properties ipEnrichment and its objects may have (the request
// schema refuses others; checked again here, as the audit record must hold nothing else).
var ipEnrichmentFields = map[string][]string{
	"":        {"provider", "countryCode", "country", "regionCode", "region", "city", "timezone", "network", "risk"},
	"network": {"asn", "organization", "isp"},
	"risk":    {"vpn", "proxy", "tor", "hosting"},
}

// checkIPEnrichment reports properties ipEnrichment may not have.
func checkIPEnrichment(raw json.RawMessage, bad *fault.Problems) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		bad.Add("ipEnrichment must be an object")
		return
	}
	unknown(top, "", "ipEnrichment", bad)
	for _, nested := range []string{"network", "risk"} {
		var m map[string]json.RawMessage
		if v, ok := top[nested]; ok && json.Unmarshal(v, &m) == nil {
			unknown(m, nested, "ipEnrichment."+nested, bad)
		}
	}
}

func unknown(m map[string]json.RawMessage, set, path string, bad *fault.Problems) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(ipEnrichmentFields[set], k) {
			bad.Addf("%s.%s is not allowed", path, k)
		}
	}
}
