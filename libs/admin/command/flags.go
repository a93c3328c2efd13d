package command

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Flags are one command's flags; whatever Parse refuses is an ErrUsage.
type Flags struct {
	*flag.FlagSet
	required []string
	values   map[string]*string
}

// NewFlags returns the flags of the command name ("key create"), printing nothing.
func NewFlags(name string) *Flags {
	f := &Flags{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), values: map[string]*string{}}
	f.SetOutput(io.Discard)
	return f
}

// Required is a string flag that Parse refuses to go without (or blank).
func (f *Flags) Required(name, usage string) *string {
	v := f.String(name, "", usage)
	f.required = append(f.required, name)
	f.values[name] = v
	return v
}

// JSON is the --json flag: print the API's JSON answer instead of a table or summary.
func (f *Flags) JSON() *bool { return f.Bool("json", false, "print the API's JSON answer") }

// Page is a page of a list as its flags give it.
type Page struct{ Limit, Offset *int }

// Page adds the --limit (default 50) and --offset (default 0) flags of a list.
func (f *Flags) Page() Page {
	return Page{Limit: f.Int("limit", 50, "page size (1-100)"), Offset: f.Int("offset", 0, "items to skip")}
}

// Query is the page as a URL query ("?limit=50&offset=0").
func (p Page) Query() string {
	return "?limit=" + strconv.Itoa(*p.Limit) + "&offset=" + strconv.Itoa(*p.Offset)
}

// Parse parses args, which must hold flags only, and checks the required flags.
func (f *Flags) Parse(args []string) error {
	rest, err := f.ParseArgs(args)
	if err == nil && len(rest) > 0 {
		err = f.Refuse("unexpected argument %q", rest[0])
	}
	return err
}

// ParseArgs parses args, flags first, and returns the arguments after them; a flag among
// those is refused rather than taken for an argument.
func (f *Flags) ParseArgs(args []string) ([]string, error) {
	if err := f.FlagSet.Parse(args); err != nil {
		return nil, f.Refuse("%w", err)
	}
	for _, a := range f.Args() {
		if strings.HasPrefix(a, "-") {
			return nil, f.Refuse("flags go before the arguments: %q", a)
		}
	}
	for _, name := range f.required {
		if strings.TrimSpace(*f.values[name]) == "" {
			return nil, f.Refuse("--%s is required", name)
		}
	}
	return f.Args(), nil
}

// Refuse is an ErrUsage about this command: a command line it cannot run.
func (f *Flags) Refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s: %w", ErrUsage, f.Name(), fmt.Errorf(format, args...))
}

// SplitList splits a comma-separated flag value, dropping blanks.
func SplitList(s string) []string {
	out := []string{}
	for part := range strings.SplitSeq(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}
