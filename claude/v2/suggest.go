package v2

import (
	"fmt"
	"strings"
)

// didYouMean returns ` (did you mean "X"?)` for the candidate nearest to got when one is near
// enough to be a typo of it (an edit distance, ignoring case, of at most 1 + len(got)/5), or
// starts with it (at least 3 letters: "bypass" for "bypassPermissions"), else "". It makes the
// errors of a misspelt hook event, tool or option value name the fix.
func didYouMean[S ~string](got string, candidates []S) string {
	best, bestD := "", -1
	g := strings.ToLower(strings.TrimSpace(got))
	for _, c := range candidates {
		lc := strings.ToLower(string(c))
		d := editDistance(g, lc)
		if len(g) >= 3 && strings.HasPrefix(lc, g) {
			d = 0
		}
		if bestD < 0 || d < bestD {
			best, bestD = string(c), d
		}
	}
	if bestD < 0 || bestD > 1+len(g)/5 || best == got {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the edit distance of a and b by bytes (the names compared are ASCII): the
// fewest insertions, deletions, substitutions and swaps of two neighbours ("Wirte" is one from
// "Write").
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
