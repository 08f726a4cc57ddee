package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The part of docs/ARCHITECTURE.md that the house table writes, between these markers.
const (
	docFile     = "docs/ARCHITECTURE.md"
	docBegin    = "<!-- house: written by `go run -C internal/tools ./housecheck -write-doc` from internal/tools/housecheck/house.go -->"
	docEnd      = "<!-- end of house -->"
	writeDocCmd = "go run -C internal/tools ./housecheck -write-doc"
)

// houseMarkdown draws the floors as a Markdown table, top floor first.
func houseMarkdown() string {
	var b strings.Builder
	b.WriteString("| floor | packages | what for |\n| --- | --- | --- |\n")
	for _, fl := range floors {
		pkgs := make([]string, len(fl.packages))
		for i, p := range fl.packages {
			pkgs[i] = "`" + p + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", fl.name, strings.Join(pkgs, ", "), fl.job)
	}
	b.WriteString("\nNamed edges that are forbidden on their own:\n\n")
	for _, e := range forbidden {
		fmt.Fprintf(&b, "- `%s` -> `%s`: %s\n", e.from, e.to, e.why)
	}
	b.WriteString("\nTooling (no production package imports it; tests may):\n\n")
	for _, t := range tooling {
		fmt.Fprintf(&b, "- `%s`\n", strings.TrimSuffix(rel(t), "/"))
	}
	return b.String()
}

// docSection splits the document around the generated part: before, the part, after.
func docSection(doc string) (before, part, after string, ok bool) {
	i := strings.Index(doc, docBegin)
	j := strings.Index(doc, docEnd)
	if i < 0 || j < i {
		return "", "", "", false
	}
	start := i + len(docBegin) + 1
	if start > j {
		start = j
	}
	return doc[:start], doc[start:j], doc[j:], true
}

// checkDoc reports a house drawing in docs/ARCHITECTURE.md that differs from the table.
func checkDoc(root string) []violation {
	data, err := os.ReadFile(filepath.Join(root, docFile))
	if err != nil {
		return []violation{{"doc " + docFile, fmt.Sprintf("%v: the house drawing lives there", err)}}
	}
	_, part, _, ok := docSection(string(data))
	if !ok {
		return []violation{{"doc " + docFile, fmt.Sprintf("%s has no %q ... %q section", docFile, docBegin, docEnd)}}
	}
	if part != houseMarkdown() {
		return []violation{{"doc " + docFile, fmt.Sprintf("%s: the house drawing differs from internal/tools/housecheck/house.go: run %s", docFile, writeDocCmd)}}
	}
	return nil
}

// writeDoc rewrites the house drawing in docs/ARCHITECTURE.md.
func writeDoc(root string) error {
	name := filepath.Join(root, docFile)
	data, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("housecheck: %w", err)
	}
	before, _, after, ok := docSection(string(data))
	if !ok {
		return fmt.Errorf("housecheck: %s has no %q ... %q section to write", docFile, docBegin, docEnd)
	}
	return os.WriteFile(name, []byte(before+houseMarkdown()+after), 0o644)
}
