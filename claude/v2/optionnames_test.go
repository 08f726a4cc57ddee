package v2

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Each setOption call in a With* function names that function: the name is what errors about
// the option say (optionName), so a copied line naming another option would mislead the user.
func TestSetOptionNamesItsFunction(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	calls := 0
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "With") {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				switch id, _ := call.Fun.(*ast.Ident); {
				case id == nil:
				case id.Name == "setOption" || id.Name == "withExternal":
					calls++
					lit, ok := call.Args[0].(*ast.BasicLit)
					got, _ := strconv.Unquote(litValue(lit, ok))
					if got != fn.Name.Name {
						t.Errorf("%s: %s names its option %q, want %q", fset.Position(call.Pos()), id.Name, got, fn.Name.Name)
					}
				}
				return true
			})
		}
	}
	if calls < 90 {
		t.Errorf("found %d setOption calls in With* functions: the test reads the wrong files", calls)
	}
}

func litValue(lit *ast.BasicLit, ok bool) string {
	if !ok || lit.Kind != token.STRING {
		return ""
	}
	return lit.Value
}
