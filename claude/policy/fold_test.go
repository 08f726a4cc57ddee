package policy

import "testing"

// On a case-insensitive file system (macOS, Windows) paths compare without case: a write to
// /PROJ/x is inside /proj, and .GIT/config is protected.
func TestCaseInsensitive(t *testing.T) {
	p := &Policy{fold: true, realWrite: []string{"/work/proj"}, protected: DefaultProtected, absPatterns: map[string]string{}}
	for name, want := range map[string]string{
		"/WORK/Proj/x": RuleAllowed, "/work/PROJ2/x": RuleOutsideRoots, "/work/proj/.GIT/config": RuleProtected,
		"/work/proj/.Env": RuleProtected, "/work/proj/.claude/Settings.JSON": RuleProtected,
	} {
		if got := p.checkWrite(name, name).Rule; got != want {
			t.Errorf("fold: %s = %s, want %s", name, got, want)
		}
	}
	p.fold = false
	if got := p.checkWrite("/WORK/proj/x", "x").Rule; got != RuleOutsideRoots {
		t.Errorf("no fold: /WORK/proj/x = %s", got)
	}
}
