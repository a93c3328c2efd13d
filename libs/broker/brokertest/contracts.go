package brokertest

import (
	"encoding/json"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/podiumhq/podium/libs/broker"
	"github.com/podiumhq/podium/libs/contracttest"
)

// Contracts are the event contracts of one producer (services/<svc>/events): for each event
// type it publishes on a topic, <topic>/<type>.schema.json and <topic>/examples/<type>.json
// (docs/adr/0005-messaging.md).
type Contracts struct {
	fsys  fs.FS
	types map[string]contract
}

type contract struct {
	topic   string
	schema  *jsonschema.Schema
	example string
}

// Produced is an event as its producer hands it to the outbox.
type Produced struct {
	Topic string
	Type  string
	Data  any
}

// Topics returns the topics the producer publishes on, sorted.
func (c *Contracts) Topics() []string {
	var out []string
	for _, k := range c.types {
		out = append(out, k.topic)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// LoadContracts compiles the schemas of fsys. A schema that does not compile, is not JSON
// Schema 2020-12 or has no example, and an example its schema refuses, fail t.
func LoadContracts(t testing.TB, fsys fs.FS) *Contracts {
	t.Helper()
	files, err := fs.Glob(fsys, "*/*.schema.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no event schemas (*/*.schema.json): %v", err)
	}
	c := &Contracts{fsys: fsys, types: map[string]contract{}}
	// Every schema is added before any is compiled, so one may refer to a definition in another
	// whatever their order.
	compiler := contracttest.NewCompiler()
	for _, file := range files {
		doc, _ := read(t, fsys, file).(map[string]any)
		if doc["$schema"] != contracttest.Draft {
			t.Fatalf("%s: $schema is %v, want %s", file, doc["$schema"], contracttest.Draft)
		}
		if err := compiler.AddResource(schemaURL(file), doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	for _, file := range files {
		topic, name := path.Split(file)
		typ := strings.TrimSuffix(name, ".schema.json")
		schema, err := compiler.Compile(schemaURL(file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		c.types[typ] = contract{
			topic: strings.TrimSuffix(topic, "/"), schema: schema, example: path.Join(topic, "examples", typ+".json"),
		}
	}
	for typ, k := range c.types {
		example := read(t, fsys, k.example)
		if err := k.schema.Validate(example); err != nil {
			t.Fatalf("example of %s: %v", typ, err)
		}
		if extra := contracttest.Undocumented(k.schema, example); len(extra) > 0 {
			t.Fatalf("example of %s: fields not in its schema: %v", typ, extra)
		}
	}
	return c
}

// schemaURL names the schema in file for references between schemas.
func schemaURL(file string) string { return "https://podium.invalid/events/" + file }

// Check validates the events a producer builds, marshalled as the outbox marshals them: each
// must match the schema of its type, be published on that schema's topic and carry only
// fields its schema describes, at any depth (consumers may rely on nothing undocumented); and every type
// with a schema must be among them, so no schema outlives its event.
func (c *Contracts) Check(t testing.TB, events ...Produced) {
	t.Helper()
	seen := map[string]bool{}
	for _, e := range events {
		k, ok := c.types[e.Type]
		if !ok {
			t.Errorf("%s has no schema", e.Type)
			continue
		}
		seen[e.Type] = true
		if e.Topic != k.topic {
			t.Errorf("%s published on %s, its schema is under %s", e.Type, e.Topic, k.topic)
		}
		b, err := json.Marshal(e.Data)
		if err != nil {
			t.Fatalf("%s: %v", e.Type, err)
		}
		value, err := contracttest.ReadJSON(b)
		if err != nil {
			t.Fatalf("%s: %v", e.Type, err)
		}
		if err := k.schema.Validate(value); err != nil {
			t.Errorf("%s %s: %v", e.Type, b, err)
		}
		for _, field := range contracttest.Undocumented(k.schema, value) {
			t.Errorf("%s: field %q is not in its schema", e.Type, field)
		}
	}
	for typ := range c.types {
		if !seen[typ] {
			t.Errorf("%s has a schema but no event of the producer was checked against it", typ)
		}
	}
}

// Example returns the example of typ as a consumer receives it: on the schema's topic, with
// the CloudEvents headers the outbox sets.
func (c *Contracts) Example(t testing.TB, typ string) broker.Message {
	t.Helper()
	k, ok := c.types[typ]
	if !ok {
		t.Fatalf("%s has no schema", typ)
	}
	value, err := fs.ReadFile(c.fsys, k.example)
	if err != nil {
		t.Fatal(err)
	}
	return broker.Message{Topic: k.topic, Value: value, Headers: map[string]string{
		broker.HeaderID: "msg_example", broker.HeaderType: typ, broker.HeaderSpecVersion: "1.0",
		broker.HeaderContentType: "application/json",
	}}
}

// NextVersion returns m as the next version of its type would be sent (….v1 becomes ….v2),
// which a consumer of the current version must refuse as poison.
func NextVersion(t testing.TB, m broker.Message) broker.Message {
	t.Helper()
	typ := m.Headers[broker.HeaderType]
	i := strings.LastIndex(typ, ".v")
	if i < 0 {
		t.Fatalf("type %q has no version", typ)
	}
	n, err := strconv.Atoi(typ[i+2:])
	if err != nil {
		t.Fatalf("type %q has no version", typ)
	}
	headers := maps.Clone(m.Headers)
	headers[broker.HeaderType] = typ[:i] + ".v" + strconv.Itoa(n+1)
	m.Headers = headers
	return m
}

// read returns the JSON document file of fsys, numbers kept exact for the validator.
func read(t testing.TB, fsys fs.FS, file string) any {
	t.Helper()
	b, err := fs.ReadFile(fsys, file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := contracttest.ReadJSON(b)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}
