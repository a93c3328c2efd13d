package apispec

import "testing"

func TestCheckoutSessionLegalSignature(t *testing.T) {
	const l = "legalSignature"
	version := func(i int) any { return map[string]any{"waiverId": "wvr_1", "version": 1} }
	strokes := func(n int) func(int) any { return func(i int) any { return stroke(n, i) } }
	runRules(t, session, checkoutSession, []ruleCase{
		bad("authorityAccepted false", l+".authorityAccepted", false,
			l+".authorityAccepted must be true: the signer must confirm they have the authority to sign"),
		bad("authorityAccepted missing", l+".authorityAccepted", remove, l+".authorityAccepted is required"),
		bad("authorityAccepted string", l+".authorityAccepted", "true", l+".authorityAccepted must be a boolean"),
		ok("guardianAuthorityAccepted absent", l+".guardianAuthorityAccepted", remove),
		bad("guardianAuthorityAccepted false", l+".guardianAuthorityAccepted", false,
			l+".guardianAuthorityAccepted must be true when present: the guardian must confirm their authority"),
		ok("signerName 160 chars", l+".signerName", str(160, "n")),
		bad("signerName 1 char", l+".signerName", "A", l+".signerName must be at least 2 characters long"),
		bad("signerName 161 chars", l+".signerName", str(161, "n"), l+".signerName must be at most 160 characters long"),
		ok("signerIdNumber 80 chars", l+".signerIdNumber", str(80, "1")),
		bad("signerIdNumber 2 chars", l+".signerIdNumber", "12", l+".signerIdNumber must be at least 3 characters long"),
		bad("signerIdNumber 81 chars", l+".signerIdNumber", str(81, "1"),
			l+".signerIdNumber must be at most 80 characters long"),
		bad("minorRelationship 1 char", l+".minorRelationship", "m", l+".minorRelationship must be at least 2 characters long"),
		bad("minorRelationship 121 chars", l+".minorRelationship", str(121, "m"),
			l+".minorRelationship must be at most 120 characters long"),
		ok("locale absent", l+".locale", remove),
		ok("locale pt", l+".locale", "pt"),
		bad("locale fr", l+".locale", "fr", l+".locale must be one of: es, en, pt"),
		ok("waiverVersions 50", l+".waiverVersions", repeat(50, version)),
		bad("waiverVersions 0", l+".waiverVersions", []any{}, l+".waiverVersions must have at least 1 item"),
		bad("waiverVersions 51", l+".waiverVersions", repeat(51, version), l+".waiverVersions must have at most 50 items"),
		bad("waiver version 0", l+".waiverVersions[0].version", 0, l+".waiverVersions[0].version must be greater than 0"),
		bad("waiver version missing", l+".waiverVersions[1].version", remove, l+".waiverVersions[1].version is required"),
		bad("waiverId empty", l+".waiverVersions[0].waiverId", "", l+".waiverVersions[0].waiverId must not be empty"),
		ok("strokes 1", l+".strokes", repeat(1, strokes(2))),
		ok("strokes 20", l+".strokes", repeat(20, strokes(2))),
		bad("strokes 0", l+".strokes", []any{}, l+".strokes must have at least 1 item"),
		bad("strokes 21", l+".strokes", repeat(21, strokes(2)), l+".strokes must have at most 20 items"),
		bad("strokes missing", l+".strokes", remove, l+".strokes is required"),
		ok("stroke of 2 points", l+".strokes[0]", stroke(2, 0)),
		ok("stroke of 1000 points", l+".strokes[0]", stroke(1000, 0)),
		bad("stroke of 1 point", l+".strokes[0]", stroke(1, 0), l+".strokes[0] must have at least 2 items"),
		bad("stroke of 1001 points", l+".strokes[0]", stroke(1001, 0), l+".strokes[0] must have at most 1000 items"),
		ok("t 300000", l+".strokes[0][1].t", 300000),
		ok("x 0 and y 1", l+".strokes[0][1]", map[string]any{"x": 0, "y": 1, "t": 0}),
		bad("t 300001", l+".strokes[0][1].t", 300001, l+".strokes[0][1].t must be at most 300000"),
		bad("t -1", l+".strokes[0][1].t", -1, l+".strokes[0][1].t must be at least 0"),
		bad("t fraction", l+".strokes[0][1].t", 1.5, l+".strokes[0][1].t must be an integer"),
		bad("x 1.01", l+".strokes[0][1].x", 1.01, l+".strokes[0][1].x must be at most 1"),
		bad("x -0.01", l+".strokes[0][1].x", -0.01, l+".strokes[0][1].x must be at least 0"),
		bad("y 1.5", l+".strokes[2][39].y", 1.5, l+".strokes[2][39].y must be at most 1"),
		bad("point without t", l+".strokes[0][0].t", remove, l+".strokes[0][0].t is required"),
		bad("point as a pair", l+".strokes[0][0]", []any{0.1, 0.2}, l+".strokes[0][0] must be an object"),
		ok("unknown signature property", l+".device", "pen"),
	})
}

func TestCheckoutSessionIPEnrichment(t *testing.T) {
	const e = "ipEnrichment"
	runRules(t, session, checkoutSession, []ruleCase{
		ok("absent", e, remove),
		ok("only the required fields", e, map[string]any{"provider": "ipquery", "countryCode": "ES"}),
		ok("lowercase country code", e+".countryCode", "es"),
		bad("extra property", e+".asnNumber", "3352", e+".asnNumber is not allowed"),
		bad("extra network property", e+".network.country", "ES", e+".network.country is not allowed"),
		bad("extra risk property", e+".risk.score", 10, e+".risk.score is not allowed"),
		bad("provider unknown", e+".provider", "maxmind", e+".provider must be one of: ipquery, ipwhois, ipapiis, ipapico"),
		bad("provider missing", e+".provider", remove, e+".provider is required"),
		bad("countryCode missing", e+".countryCode", remove, e+".countryCode is required"),
		bad("countryCode 3 letters", e+".countryCode", "ESP", e+".countryCode must be a 2-letter country code"),
		bad("countryCode digits", e+".countryCode", "34", e+".countryCode must be a 2-letter country code"),
		bad("country empty", e+".country", "", e+".country must not be empty"),
		bad("country 121 chars", e+".country", str(121, "c"), e+".country must be at most 120 characters long"),
		bad("regionCode 33 chars", e+".regionCode", str(33, "r"), e+".regionCode must be at most 32 characters long"),
		bad("region 121 chars", e+".region", str(121, "r"), e+".region must be at most 120 characters long"),
		bad("city empty", e+".city", "", e+".city must not be empty"),
		bad("timezone 121 chars", e+".timezone", str(121, "t"), e+".timezone must be at most 120 characters long"),
		bad("asn 33 chars", e+".network.asn", str(33, "a"), e+".network.asn must be at most 32 characters long"),
		bad("organization 181 chars", e+".network.organization", str(181, "o"),
			e+".network.organization must be at most 180 characters long"),
		bad("isp empty", e+".network.isp", "", e+".network.isp must not be empty"),
		bad("vpn string", e+".risk.vpn", "no", e+".risk.vpn must be a boolean"),
		bad("network not an object", e+".network", "AS3352", e+".network must be an object"),
	})
}
