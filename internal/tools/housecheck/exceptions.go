package main

import (
	_ "embed"
	"fmt"
	"strings"
)

// exceptionsFile lists the findings the check lets through for now, one key a line (the key a
// finding prints), with "#" comments. An entry that matches no finding is itself a finding, so
// the list only shrinks.
//
//go:embed exceptions.txt
var exceptionsFile string

// applyExceptions drops the findings the exceptions list and reports the entries that matched
// nothing.
func applyExceptions(found []violation, list string) (kept []violation, excused int) {
	allowed := map[string]bool{}
	for _, line := range strings.Split(list, "\n") {
		line, _, _ = strings.Cut(line, "#")
		if key := strings.Join(strings.Fields(line), " "); key != "" {
			allowed[key] = false
		}
	}
	for _, v := range found {
		key := strings.Join(strings.Fields(v.key), " ")
		if _, ok := allowed[key]; ok {
			allowed[key] = true
			excused++
			continue
		}
		kept = append(kept, v)
	}
	for key, used := range allowed {
		if !used {
			kept = append(kept, violation{"stale " + key,
				fmt.Sprintf("exceptions.txt lists %q, which the check no longer finds: remove the line", key)})
		}
	}
	return kept, excused
}
