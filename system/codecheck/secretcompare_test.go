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
// secret, signature, password, CSRF value, digest or MAC, and hashes named after what they
// hash (TokenHash, BrowserHash).
var secretName = regexp.MustCompile(`(?i)(token|secret|signature|password|csrf|digest|mac)$|[a-z]Hash$`)

// digestCall matches the functions and methods that return a digest (sha256.Sum256, a hash's or
// an HMAC's Sum): a value they return is compared as a secret whatever it is named.
var digestCall = regexp.MustCompile(`^Sum(224|256|384|512)?$`)

// equalFuncs are the library functions that compare two values byte by byte.
var equalFuncs = [][2]string{{"bytes", "Equal"}, {"slices", "Equal"}, {"strings", "EqualFold"}}

// TestSecretsCompareInConstantTime refuses == and != (and bytes.Equal, slices.Equal,
// strings.EqualFold) between two values of which one is named as a secret or was assigned a
// digest, in every non-test, non-generated Go file of services/, libs/
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
	sum := sha256.Sum256(b)
	_ = sum == e.expected || slices.Equal(sum[:], b) // a digest, whatever its name: refused twice
	_ = strings.EqualFold(want, e.PreviewToken)      // refused
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
	if want := []int{4, 5, 6, 11, 11, 12}; !slices.Equal(lines, want) {
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
	c := comparison{imports: importNames(f), digests: digestNames(f)}
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && c.comparesSecret(n.X, n.Y) {
				out = append(out, n.Pos())
			}
		case *ast.CallExpr:
			if isEqualFunc(n) && len(n.Args) == 2 && c.comparesSecret(n.Args[0], n.Args[1]) {
				out = append(out, n.Pos())
			}
		}
		return true
	})
	return out
}

// comparison knows the names a file imports packages by and the variables it assigns
// digests to.
type comparison struct{ imports, digests map[string]bool }

// comparesSecret reports whether x and y are both values (no literal, nil or another
// package's constant) and one is a secret.
func (c comparison) comparesSecret(x, y ast.Expr) bool {
	if c.isConstant(x) || c.isConstant(y) {
		return false
	}
	return c.isSecret(x) || c.isSecret(y)
}

// isSecret reports a value named as a secret, a digest call, or a variable assigned a digest.
func (c comparison) isSecret(e ast.Expr) bool {
	name := nameOf(e)
	if secretName.MatchString(name) {
		return true
	}
	if _, ident := ast.Unparen(sliced(e)).(*ast.Ident); ident && c.digests[name] {
		return true
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && digestCall.MatchString(nameOf(call.Fun))
}

// digestNames returns the names of the variables f assigns a digest call's result to
// (sum := sha256.Sum256(b)), in any of its functions: a name reused for something else in
// another function of the file is taken as a digest too, which errs on the safe side.
func digestNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		a, ok := n.(*ast.AssignStmt)
		if !ok || len(a.Lhs) != len(a.Rhs) {
			return true
		}
		for i, rhs := range a.Rhs {
			call, isCall := ast.Unparen(rhs).(*ast.CallExpr)
			id, isIdent := a.Lhs[i].(*ast.Ident)
			if isCall && isIdent && digestCall.MatchString(nameOf(call.Fun)) {
				names[id.Name] = true
			}
		}
		return true
	})
	return names
}

// sliced is the value a slice expression slices (sum for sum[:]), or e.
func sliced(e ast.Expr) ast.Expr {
	if s, ok := ast.Unparen(e).(*ast.SliceExpr); ok {
		return s.X
	}
	return e
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
// function's, that of the value a conversion converts ([]byte(token) is token) or a slice
// expression slices (sum[:] is sum).
func nameOf(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.SliceExpr:
		return nameOf(e.X)
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

// isEqualFunc reports a call of one of equalFuncs.
func isEqualFunc(c *ast.CallExpr) bool {
	for _, f := range equalFuncs {
		if isCall(c, f[0], f[1]) {
			return true
		}
	}
	return false
}

func isCall(c *ast.CallExpr, pkg, fn string) bool {
	s, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != fn {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg
}
