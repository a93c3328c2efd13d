package codecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// secretName matches the names of values that hold a secret or a digest of one: a token,
// secret, signature, password or CSRF value, and hashes named after what they hash
// (TokenHash, BrowserHash).
var secretName = regexp.MustCompile(`(?i)(token|secret|signature|password|csrf)$|[a-z]Hash$`)

// TestSecretsCompareInConstantTime refuses == and != (and bytes.Equal) between two values of
// which one is named as a secret, in every non-test, non-generated Go file of services/, libs/
// and examples/: a comparison that stops at the first differing byte tells an attacker timing the
// answers how much of a guess was right. Such values are compared with crypto/subtle (or
// hmac.Equal). Comparisons with a literal or nil (is it set?) reveal nothing and pass.
func TestSecretsCompareInConstantTime(t *testing.T) {
	var found []string
	for _, root := range []string{"../../services", "../../libs", "../../examples"} {
		found = append(found, timingComparisons(t, root)...)
	}
	for _, f := range found {
		t.Errorf("%s: a secret compared with a variable-time comparison; use crypto/subtle.ConstantTimeCompare", f)
	}
}

// TestSecretComparisonsAreFound holds the check to the shapes it must refuse and let pass.
func TestSecretComparisonsAreFound(t *testing.T) {
	src := `package p
import "example.com/apikey"
func f(previewToken, want string, e struct{ PreviewToken, BrowserHash string; hash uint64 }, b []byte) bool {
	_ = previewToken == e.PreviewToken           // refused
	_ = e.BrowserHash != HashToken(want)         // refused
	_ = bytes.Equal(b, []byte(e.PreviewToken))   // refused
	_ = previewToken != "" && e.BrowserHash == "" // literals: allowed
	_ = e.hash == 7 || len(want) != TokenLen     // not secrets: allowed
	_ = want != apikey.Secret                    // another package's constant: allowed
	return false
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, pos := range comparisonsIn(f) {
		lines = append(lines, fset.Position(pos).Line)
	}
	if want := []int{4, 5, 6}; !slices.Equal(lines, want) {
		t.Fatalf("refused lines %v, want %v", lines, want)
	}
}

func timingComparisons(t *testing.T, root string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, pos := range comparisonsIn(f) {
			p := fset.Position(pos)
			found = append(found, filepath.ToSlash(p.Filename)+":"+strconv.Itoa(p.Line))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// comparisonsIn returns the positions of f's variable-time comparisons of secrets.
func comparisonsIn(f *ast.File) []token.Pos {
	c := comparison{imports: importNames(f)}
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && c.comparesSecret(n.X, n.Y) {
				out = append(out, n.Pos())
			}
		case *ast.CallExpr:
			if isCall(n, "bytes", "Equal") && len(n.Args) == 2 && c.comparesSecret(n.Args[0], n.Args[1]) {
				out = append(out, n.Pos())
			}
		}
		return true
	})
	return out
}

// comparison knows the names a file imports packages by.
type comparison struct{ imports map[string]bool }

// comparesSecret reports whether x and y are both values (no literal, nil or another
// package's constant) and one is named as a secret.
func (c comparison) comparesSecret(x, y ast.Expr) bool {
	if c.isConstant(x) || c.isConstant(y) {
		return false
	}
	return secretName.MatchString(nameOf(x)) || secretName.MatchString(nameOf(y))
}

// isConstant reports literals, nil, booleans and names another package declares
// (apikey.Secret is a key type, not a key), which are not read from a request.
func (c comparison) isConstant(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		pkg, ok := e.X.(*ast.Ident)
		return ok && c.imports[pkg.Name]
	case *ast.Ident:
		return e.Name == "nil" || e.Name == "true" || e.Name == "false"
	}
	return false
}

// nameOf is the name an expression is known by: an identifier's, a field's, a called
// function's, or that of the value a conversion converts ([]byte(token) is token).
func nameOf(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.CallExpr:
		if _, conversion := e.Fun.(*ast.ArrayType); conversion && len(e.Args) == 1 {
			return nameOf(e.Args[0])
		}
		return nameOf(e.Fun)
	}
	return ""
}

// importNames returns the names f refers to its imported packages by.
func importNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	return names
}

func isCall(c *ast.CallExpr, pkg, fn string) bool {
	s, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != fn {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg
}
