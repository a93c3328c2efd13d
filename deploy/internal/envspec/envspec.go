// Package envspec reads, from Go source, the environment variables that configuration structs
// declare with github.com/caarlos0/env tags, so deployment files can be checked against the
// code without importing it.
package envspec

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
)

// Var is one environment variable read by a configuration struct.
type Var struct {
	Name     string
	Required bool   // tagged notEmpty or required
	Default  string // the envDefault tag
	Secret   bool   // tagged secret:"true"
}

// Structs maps a struct type name to the variables it reads, embedded structs included. Structs
// of the same name in different packages are merged.
type Structs map[string][]Var

// Load parses the non-test Go files under dirs and returns every struct that reads variables.
// Like env.Parse, it follows nested struct fields (with their envPrefix) whose type is declared
// in dirs.
func Load(dirs ...string) (Structs, error) {
	decls := map[string][]*ast.StructType{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			collect(f, decls)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("envspec: %w", err)
		}
	}
	out := Structs{}
	for name, sts := range decls {
		for _, st := range sts {
			out[name] = append(out[name], varsOf(st, decls, "", map[string]bool{name: true})...)
		}
		if len(out[name]) == 0 {
			delete(out, name)
		}
	}
	return out, nil
}

// Required lists the names of the required variables of struct name.
func (s Structs) Required(name string) []string {
	var out []string
	for _, v := range s[name] {
		if v.Required {
			out = append(out, v.Name)
		}
	}
	return out
}

// Lookup finds variable name in struct name.
func (s Structs) Lookup(name, variable string) (Var, bool) {
	for _, v := range s[name] {
		if v.Name == variable {
			return v, true
		}
	}
	return Var{}, false
}

// Known reports whether any struct reads variable name.
func (s Structs) Known(name string) bool {
	for st := range s {
		if _, ok := s.Lookup(st, name); ok {
			return true
		}
	}
	return false
}

func collect(f *ast.File, decls map[string][]*ast.StructType) {
	for _, d := range f.Decls {
		gen, ok := d.(*ast.GenDecl)
		if !ok || gen.Tok != token.TYPE {
			continue
		}
		for _, spec := range gen.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok {
				continue
			}
			if st, ok := ts.Type.(*ast.StructType); ok {
				decls[ts.Name.Name] = append(decls[ts.Name.Name], st)
			}
		}
	}
}

func varsOf(st *ast.StructType, decls map[string][]*ast.StructType, prefix string, seen map[string]bool) []Var {
	var out []Var
	for _, field := range st.Fields.List {
		tag := tagOf(field)
		if name, opts, _ := strings.Cut(tag.Get("env"), ","); name != "" {
			out = append(out, Var{
				Name:     prefix + name,
				Required: hasOpt(opts, "notEmpty") || hasOpt(opts, "required"),
				Default:  tag.Get("envDefault"),
				Secret:   tag.Get("secret") == "true",
			})
			continue
		}
		typ := typeName(field.Type)
		if seen[typ] {
			continue
		}
		seen[typ] = true
		for _, nested := range decls[typ] {
			out = append(out, varsOf(nested, decls, prefix+tag.Get("envPrefix"), seen)...)
		}
		delete(seen, typ)
	}
	return out
}

func tagOf(f *ast.Field) reflect.StructTag {
	if f.Tag == nil {
		return ""
	}
	s, err := strconv.Unquote(f.Tag.Value)
	if err != nil {
		return ""
	}
	return reflect.StructTag(s)
}

func hasOpt(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// typeName is the bare name of a field's type: Base for Base, config.Base or *config.Base.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.StarExpr:
		return typeName(t.X)
	}
	return ""
}
