package policy

import (
	"strings"
	"testing"
)

// FuzzBash: no input panics or hangs the analysis, and every denial names a rule and a reason.
// Time per input is bounded by the analysis's limits (maxCommandBytes, maxDepth, maxShells,
// maxGlobDirs, maxArgs, maxSteps), beyond which it denies; the fuzzer's own per-input timeout
// catches a hang.
func FuzzBash(f *testing.F) {
	for _, c := range benign {
		f.Add(c)
	}
	for _, e := range escapes {
		f.Add(e.cmd)
	}
	f.Add(strings.Repeat("$(", 50))
	f.Add("f() { f; }; f")
	fx := newFixture(f)
	p := fx.policy()
	f.Fuzz(func(t *testing.T, cmd string) {
		d := p.Bash(fx.root, cmd)
		if !d.Allow && (d.Rule == "" || d.Reason == "") {
			t.Fatalf("%q: a denial without a rule or reason: %+v", cmd, d)
		}
		if d.Allow && d.Rule != RuleAllowed {
			t.Fatalf("%q: allowed by %q", cmd, d.Rule)
		}
	})
}
