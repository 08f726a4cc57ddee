package bashpolicy

import (
	"strings"
	"testing"
)

// FuzzClassify: any line gets a verdict with a reason, never a panic; a line that is allowed has
// no expansion and no output redirection, and stays allowed when repeated after `;`.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"ls -la", "rm -rf /", "cat <<EOF\nx\nEOF", "echo $((1+2))", "f() { f | f & }; f",
		"coproc ls", "bash -c 'sudo id'", "cat $(echo x)", "ls > out", "git log --oneline"} {
		f.Add(s)
	}
	pol := Policy{Inside: inside}
	f.Fuzz(func(t *testing.T, line string) {
		d := pol.Classify(line)
		if d.Verdict != Allow && d.Verdict != Deny && d.Verdict != Ask || d.Reason == "" {
			t.Fatalf("Classify(%q) = %+v", line, d)
		}
		if d.Verdict != Allow {
			return
		}
		if strings.Contains(line, "$(") || strings.Contains(line, "`") || strings.Contains(line, "<(") {
			t.Fatalf("Classify(%q) allows a substitution: %s", line, d.Reason)
		}
		if again := pol.Classify(line + "\n" + line); again.Verdict != Allow {
			t.Fatalf("Classify(%q) allows the line but not twice: %+v", line, again)
		}
	})
}
