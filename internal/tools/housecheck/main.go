// Command housecheck checks that the repository reads as the house drawing says (issue 27), over
// the .go files of every module:
//
//   - layering: the core's production packages sit on floors (house.go) and import only packages
//     on floors below their own; named edges are forbidden (claude/parser -> internal/control);
//     no production package imports tooling (internal/testkit, claudetest, the benchmark, ...);
//     no package of any module, tests included, imports another module's internal packages;
//   - size: no function over gocyclo complexity 20 and no non-test .go file over 500 lines;
//   - error strings: every errors.New / fmt.Errorf literal of a production package starts with
//     the package a user imports ("v2: ", "subprocess: ", ...; the table errorPrefixes);
//   - package names: a production package is named as its directory; a contrib module's root
//     package that imports the library its directory names is <directory>agent (names.go);
//   - docs/ARCHITECTURE.md draws the floors as house.go has them.
//
// Findings listed in exceptions.txt pass (an entry that matches nothing fails). Usage, from
// anywhere in the repository (.ci/run runs it):
//
//	GOWORK=off go run -C internal/tools ./housecheck
//	GOWORK=off go run -C internal/tools ./housecheck -write-doc   # redraw the house in docs/ARCHITECTURE.md
//
// It reads the files (go/parser), not the go command's package graph, so that files of every
// build constraint count and a module needing another toolchain (contrib/temporal) is checked
// like the rest.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

func main() {
	write := flag.Bool("write-doc", false, "rewrite the house drawing in "+docFile+" and exit")
	flag.Parse()
	if err := run(*write); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(write bool) error {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return fmt.Errorf("housecheck: run it inside the repository: %w", err)
	}
	root := strings.TrimSpace(string(top))
	if write {
		return writeDoc(root)
	}
	r, err := loadRepo(root)
	if err != nil {
		return err
	}
	found := checkAll(r)
	kept, excused := applyExceptions(found, exceptionsFile)
	slices.SortFunc(kept, func(a, b violation) int { return cmp.Compare(a.msg, b.msg) })
	for _, v := range kept {
		fmt.Println(v.msg)
		fmt.Printf("\t(exception key: %s)\n", v.key)
	}
	fmt.Printf("housecheck: %d files in %d modules; %d findings, %d excused by internal/tools/housecheck/exceptions.txt\n",
		len(r.files), len(r.modules), len(kept), excused)
	if len(kept) > 0 {
		return fmt.Errorf("housecheck: %d findings", len(kept))
	}
	return nil
}

// checkAll runs every check over the repository.
func checkAll(r *repo) []violation {
	out := checkLayering(r)
	out = append(out, checkSize(r)...)
	out = append(out, checkErrorPrefixes(r)...)
	out = append(out, checkPackageNames(r)...)
	return append(out, checkDoc(r.root)...)
}
