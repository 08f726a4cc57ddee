package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// checkErrorPrefixes checks that every error string that leaves a production package as it was
// made starts with the prefix errorPrefixes gives the package, or with %w (it wraps an error that
// carries its own prefix). Such a string is an errors.New or fmt.Errorf literal in a package-level
// declaration (a sentinel) or in an exported function or method of an exported type. A literal in
// an unexported function, an unexported sentinel or a field of a typed error is a detail that its
// caller or the typed error wraps with context (and the prefix), so that the user reads one
// prefix, not one per layer; the check cannot follow it there, and errorDetails lists the
// exported ones that are details too.
func checkErrorPrefixes(r *repo) []violation {
	var out []violation
	missing := map[string]bool{}
	for _, f := range r.files {
		if f.test || !isProduction(f.pkg) || f.generated() {
			continue
		}
		prefix, ok := errorPrefixes[rel(f.pkg)]
		if p, byFile := errorPrefixes[f.name]; byFile {
			prefix, ok = p, true // a file whose errors reach users through another package
		}
		if !ok {
			if !missing[f.pkg] {
				missing[f.pkg] = true
				out = append(out, violation{"errprefix-table " + rel(f.pkg),
					fmt.Sprintf("%s: a production package with no row in errorPrefixes (internal/tools/housecheck/house.go): name the package its errors reach users through", rel(f.pkg))})
			}
			continue
		}
		for _, lit := range leavingErrors(f.ast) {
			if !strings.HasPrefix(lit.text, prefix) && !strings.HasPrefix(lit.text, "%w") && !isErrorDetail(rel(f.pkg), lit.text) {
				out = append(out, violation{"errprefix " + f.name + " " + strconv.Quote(lit.text),
					fmt.Sprintf("%s: error string %q does not start with %q (the package a user imports)", r.fset.Position(lit.pos), lit.text, prefix)})
			}
		}
	}
	return out
}

// makesError reports whether call is errors.New or fmt.Errorf.
func makesError(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf")
}

// leadingLiteral is the string literal an expression starts with: the literal itself, or the
// leftmost operand of a concatenation.
func leadingLiteral(e ast.Expr) (string, token.Pos, bool) {
	for {
		switch x := e.(type) {
		case *ast.BasicLit:
			if x.Kind != token.STRING {
				return "", 0, false
			}
			s, err := strconv.Unquote(x.Value)
			return s, x.Pos(), err == nil
		case *ast.BinaryExpr:
			if x.Op != token.ADD {
				return "", 0, false
			}
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return "", 0, false
		}
	}
}

// errorLiteral is the leading string literal of an errors.New or fmt.Errorf call.
type errorLiteral struct {
	text string
	pos  token.Pos
}

// leavingErrors are the error literals of a file's exported sentinels and exported functions,
// outside composite literals.
func leavingErrors(f *ast.File) []errorLiteral {
	var out []errorLiteral
	collect := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.CompositeLit); ok {
				return false // a field of a typed error, whose Error method says the package
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || !makesError(call) || len(call.Args) == 0 {
				return true
			}
			if text, pos, ok := leadingLiteral(call.Args[0]); ok {
				out = append(out, errorLiteral{text, pos})
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				if vs := spec.(*ast.ValueSpec); slices.ContainsFunc(vs.Names, (*ast.Ident).IsExported) {
					collect(vs)
				}
			}
		case *ast.FuncDecl:
			if exportedFunc(d) {
				collect(d.Body)
			}
		}
	}
	return out
}

// exportedFunc reports whether a user can call fn: an exported function, or an exported method
// of an exported type.
func exportedFunc(fn *ast.FuncDecl) bool {
	if !fn.Name.IsExported() || fn.Body == nil {
		return false
	}
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return true
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// isErrorDetail reports whether errorDetails lists the literal of the package pkg.
func isErrorDetail(pkg, text string) bool {
	return slices.ContainsFunc(errorDetails, func(d errorDetail) bool { return d.pkg == pkg && d.text == text })
}
