package domain

import (
	"slices"
	"strings"
	"testing"

	"github.com/podiumhq/podium/libs/fault"
)

func ptr[T any](v T) *T { return &v }

func TestEndpointURLs(t *testing.T) {
	for raw, want := range map[string]string{
		"https://hooks.example.com/podium":                       "",
		"https://hooks.example.com:443/x?a=1":                    "",
		"https://hooks.example.com:8443/x":                       "must use port 443",
		"https://93.184.216.34/x":                                "",
		"https://[2606:2800:220:1::]/x":                          "",
		"http://hooks.example.com/":                              "must be an https URL",
		"ftp://hooks.example.com/":                               "must be an https URL",
		"https://user:pw@hooks.example.com/":                     "must not carry a user name or password",
		"https://127.0.0.1/":                                     "must not address",
		"https://10.0.0.1/":                                      "must not address",
		"https://169.254.169.254/latest":                         "must not address",
		"https://[::1]/":                                         "must not address",
		"https://[::ffff:10.0.0.1]/":                             "must not address",
		"https://[64:ff9b::a9fe:a9fe]/":                          "must not address",
		"https://[fd00:ec2::254]/":                               "must not address",
		"https://100.100.100.200/":                               "must not address",
		"https://localhost/":                                     "must not address",
		"https://a.localhost./":                                  "must not address",
		"https:///nohost":                                        "must be an absolute https URL",
		"hooks.example.com":                                      "must be an absolute https URL",
		"https://hooks.example.com/\n":                           "must be an absolute https URL",
		"https://hooks.example.com/" + strings.Repeat("a", 2048): "must be at most 2048 characters",
		"https://hooks.example.com/#top":                         "must not have a fragment",
	} {
		if got := (Rules{}).urlProblem(raw); !strings.HasPrefix(got, want) || (want == "") != (got == "") {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
	}
	loop := Rules{AllowLoopback: true}
	for raw, want := range map[string]string{
		"http://127.0.0.1:9000/hook": "", "http://localhost:9000/": "", "http://[::1]/": "",
		"http://10.0.0.1/": "must not address", "https://10.0.0.1/": "must not address", "https://192.168.1.1/": "must not address",
		"http://hooks.example.com/": "must be an https URL", "https://hooks.example.com/": "",
	} {
		if got := loop.urlProblem(raw); !strings.HasPrefix(got, want) || (want == "") != (got == "") {
			t.Errorf("loopback allowed, %q: %q, want %q", raw, got, want)
		}
	}
}

func TestEndpointChanges(t *testing.T) {
	rules := Rules{}
	ok := EndpointChange{URL: ptr("https://h.example/x"), EventTypes: []string{OrderCompleted, OrderCompleted, PricingChanged}, Description: ptr("Shop ✓")}
	if err := rules.CheckCreate(&ok); err != nil || !slices.Equal(ok.EventTypes, []string{OrderCompleted, PricingChanged}) {
		t.Fatalf("valid create: %v %v", err, ok.EventTypes)
	}
	for name, c := range map[string]struct {
		change EndpointChange
		create bool
		want   []string
	}{
		"empty create":     {EndpointChange{}, true, []string{"url is required", "eventTypes is required"}},
		"no types":         {EndpointChange{EventTypes: []string{}}, false, []string{"eventTypes must name at least one event type"}},
		"unknown type":     {EndpointChange{EventTypes: []string{OrderCompleted, "ping"}}, false, []string{"eventTypes[1] must be one of"}},
		"long description": {EndpointChange{Description: ptr(strings.Repeat("é", 501))}, false, []string{"description must be at most 500 characters"}},
		"control chars":    {EndpointChange{Description: ptr("a\u202eb")}, false, []string{"description "}},
	} {
		t.Run(name, func(t *testing.T) {
			check := rules.CheckUpdate
			if c.create {
				check = rules.CheckCreate
			}
			f, isFault := fault.Of(check(&c.change))
			if !isFault || f.Kind != fault.Invalid || len(f.Problems) != len(c.want) {
				t.Fatalf("problems %v, want %v", f, c.want)
			}
			for i, p := range f.Problems {
				if !strings.HasPrefix(p, c.want[i]) {
					t.Errorf("problem %q, want %q", p, c.want[i])
				}
			}
		})
	}
}
