package main

import (
	"fmt"
	"strings"

	"github.com/fzipp/gocyclo"
)

// checkSize checks every non-test, non-generated .go file of every module: no function over
// maxComplexity (gocyclo's count) and no file over maxFileLines. gocyclo's own
// "//gocyclo:ignore" directive is refused: the exceptions file is the one place for exceptions.
func checkSize(r *repo) []violation {
	var out []violation
	for _, f := range r.files {
		if f.test || f.generated() {
			continue
		}
		if f.lines > maxFileLines {
			out = append(out, violation{"length " + f.name,
				fmt.Sprintf("%s has %d lines (max %d): split it into files with one job each", f.name, f.lines, maxFileLines)})
		}
		for _, cg := range f.ast.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//gocyclo:ignore") {
					out = append(out, violation{"gocyclo-ignore " + f.name,
						fmt.Sprintf("%s: %s: list an exception in internal/tools/housecheck/exceptions.txt instead", r.fset.Position(c.Pos()), c.Text)})
				}
			}
		}
		for _, s := range gocyclo.AnalyzeASTFile(f.ast, r.fset, nil) {
			if s.Complexity > maxComplexity {
				out = append(out, violation{"gocyclo " + f.name + " " + s.FuncName,
					fmt.Sprintf("%s:%d: %s has complexity %d (max %d): split it", f.name, s.Pos.Line, s.FuncName, s.Complexity, maxComplexity)})
			}
		}
	}
	return out
}
