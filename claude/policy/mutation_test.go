package policy

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// corpusRows are TestCorpus's rows without the wrapping, each with what the analysis alone decides
// (no kernel confinement): "allow", or a rule.
func corpusRows() []bashCase {
	var rows []bashCase
	for _, c := range append(slices.Clone(benign), modelBenign...) {
		want := "allow"
		if r, ok := kernelOnlyBenign[c]; ok {
			want = r
		}
		if !knownFalsePositives[c] {
			rows = append(rows, bashCase{c, want})
		}
	}
	for _, e := range append(slices.Clone(escapes), classEscapes...) {
		if e.want != "deny" {
			rows = append(rows, e)
		}
	}
	return rows
}

// failing counts the rows holding word whose decision by p differs from the row's.
func failing(p *Policy, root string, rows []bashCase, word string) int {
	n := 0
	for _, r := range rows {
		if !strings.Contains(r.cmd, word) {
			continue
		}
		d := p.Bash(root, r.cmd)
		got := "allow"
		if !d.Allow {
			got = d.Rule
		}
		if got != r.want {
			n++
		}
	}
	return n
}

// TestMutation: removing any program model, any model of a subcommand, or any default rule makes
// at least one corpus row fail, so that no part of the allowlist or the rules is untested. (It
// changes the package's models while it runs: not parallel.)
func TestMutation(t *testing.T) {
	f := newFixture(t)
	p := f.policy()
	rows := corpusRows()
	if n := failing(p, f.root, rows, ""); n != 0 {
		t.Fatalf("%d corpus rows fail before any mutation", n)
	}
	for _, name := range slices.Sorted(maps.Keys(models)) {
		m := models[name]
		delete(models, name)
		if failing(p, f.root, rows, name) == 0 {
			t.Errorf("removing the model of %s fails no corpus row", name)
		}
		models[name] = m
		for _, sub := range slices.Sorted(maps.Keys(m.subs)) {
			sm := m.subs[sub]
			delete(m.subs, sub)
			if failing(p, f.root, rows, name+" "+sub) == 0 {
				t.Errorf("removing the model of %s %s fails no corpus row", name, sub)
			}
			m.subs[sub] = sm
		}
	}
	for i, r := range DefaultRules {
		others := slices.Delete(slices.Clone(DefaultRules), i, i+1)
		q := f.policy(WithoutDefaultRules(), WithRules(others...))
		if failing(q, f.root, rows, "") == 0 {
			t.Errorf("removing the rule %s fails no corpus row", r.Name)
		}
	}
}
