package main

import (
	"fmt"
	"path"
	"strings"
)

// checkPackageNames checks the one naming rule of production packages (issue 36): a package is
// named as its directory, so that its import path's last element is the name a user's code
// reads. One exception, the same for every integration: the root package of a contrib module
// whose directory names the library it integrates, and which imports that library's package of
// the same name (contrib/otel imports go.opentelemetry.io/otel, package otel; contrib/temporal
// imports go.temporal.io/sdk/temporal, package temporal), is named <directory>agent (otelagent,
// temporalagent), so that a user's file imports both without an alias. Any other integration
// (contrib/pgstore, contrib/temporal/pgledger) is named as its directory.
func checkPackageNames(r *repo) []violation {
	prod := func(f *file) bool { return !f.test && isProduction(f.pkg) && f.ast.Name.Name != "main" }
	imports := map[string]map[string]bool{} // package -> the last elements of what it imports
	for _, f := range r.files {
		if !prod(f) {
			continue
		}
		if imports[f.pkg] == nil {
			imports[f.pkg] = map[string]bool{}
		}
		for _, imp := range f.imports {
			imports[f.pkg][path.Base(imp)] = true
		}
	}
	var out []violation
	seen := map[string]bool{}
	for _, f := range r.files {
		if !prod(f) || seen[f.pkg] {
			continue
		}
		dir := path.Base(f.pkg)
		want := dir
		if m, ok := r.moduleOfImport(f.pkg); ok && m.path == f.pkg && strings.HasPrefix(m.dir, "contrib/") && imports[f.pkg][dir] {
			want = dir + "agent"
		}
		if name := f.ast.Name.Name; name != want {
			seen[f.pkg] = true
			out = append(out, violation{"pkgname " + rel(f.pkg),
				fmt.Sprintf("%s: package %s should be named %s (a package is named as its directory; a contrib module's root package that imports the library of its directory's name is <directory>agent)", f.name, name, want)})
		}
	}
	return out
}
