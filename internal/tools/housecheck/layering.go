package main

import (
	"fmt"
	"slices"
	"strings"
)

// violation is one finding. key names it in the exceptions file: "import FROM -> TO",
// "floor PKG", "gocyclo FILE FUNC", "length FILE", "errprefix FILE LITERAL", ...
type violation struct {
	key string
	msg string
}

// checkLayering checks the import graph against the house: floors, forbidden edges, tooling and
// other modules' internal packages.
func checkLayering(r *repo) []violation {
	floorOf := map[string]int{}
	for i, fl := range floors {
		for _, p := range fl.packages {
			floorOf[core+"/"+p] = i
		}
	}
	var out []violation
	seen := map[string]bool{}
	add := func(key, msg string) {
		if !seen[key] {
			seen[key] = true
			out = append(out, violation{key, msg})
		}
	}
	for _, f := range r.files {
		prod := !f.test && isProduction(f.pkg)
		if prod && f.module.path == core {
			if _, ok := floorOf[f.pkg]; !ok {
				add("floor "+rel(f.pkg), fmt.Sprintf("%s: a production package of the core with no floor in the house (internal/tools/housecheck/house.go): give it one", rel(f.pkg)))
			}
		}
		for _, imp := range f.imports {
			edge := "import " + rel(f.pkg) + " -> " + rel(imp)
			if m, ok := r.moduleOfImport(imp); ok && m.path != f.module.path && hasInternal(strings.TrimPrefix(imp, m.path)) {
				add(edge, fmt.Sprintf("%s imports %s, an internal package of another module (%s): move the code into this module, or make it public API", f.name, imp, m.path))
			}
			if !prod {
				continue
			}
			if isTooling(imp) {
				add(edge, fmt.Sprintf("%s imports %s: production code never imports tooling (tests may)", f.name, imp))
			}
			if why := forbiddenWhy(f.pkg, imp); why != "" {
				add(edge, fmt.Sprintf("%s imports %s: %s", f.name, imp, why))
			}
			from, okFrom := floorOf[f.pkg]
			to, okTo := floorOf[imp]
			if okFrom && okTo && to <= from {
				add(edge, fmt.Sprintf("%s (floor %q) imports %s (floor %q): a package imports only floors below its own", f.name, floors[from].name, imp, floors[to].name))
			}
		}
	}
	return append(out, checkFloorTable(r)...)
}

// checkFloorTable reports rows of the house that name no package of the repository (renamed or
// removed), so the drawing stays true.
func checkFloorTable(r *repo) []violation {
	have := map[string]bool{}
	for _, f := range r.files {
		have[f.pkg] = true
	}
	var out []violation
	for _, fl := range floors {
		for _, p := range fl.packages {
			if !have[core+"/"+p] {
				out = append(out, violation{"floor " + p, fmt.Sprintf("the house names %s (floor %q), which has no Go files: remove or rename its row in internal/tools/housecheck/house.go", p, fl.name)})
			}
		}
	}
	return out
}

// isProduction reports whether the package at import path p is production code: in a production
// module and not tooling.
func isProduction(p string) bool {
	if isTooling(p) {
		return false
	}
	for _, m := range production {
		if within(p, m) {
			return true
		}
	}
	return false
}

// isTooling reports whether the package at import path p is tooling.
func isTooling(p string) bool {
	return slices.ContainsFunc(tooling, func(t string) bool { return within(p, t) })
}

// forbiddenWhy is the reason the house forbids the edge from -> to, or "".
func forbiddenWhy(from, to string) string {
	for _, e := range forbidden {
		if from == core+"/"+e.from && to == core+"/"+e.to {
			return e.why
		}
	}
	return ""
}

// hasInternal reports whether a path (relative to its module) has an element named internal.
func hasInternal(p string) bool {
	return slices.Contains(strings.Split(p, "/"), "internal")
}

// rel is an import path relative to the core module's path, as the tables and keys write it;
// a path outside the repository stays whole.
func rel(p string) string {
	if p == core {
		return "."
	}
	return strings.TrimPrefix(p, core+"/")
}
