package pathguard

import (
	"errors"
	"testing"
)

// FuzzBashWriteTargets: any line gives targets or an error, never a panic, and never an empty
// target.
func FuzzBashWriteTargets(f *testing.F) {
	for _, s := range []string{"echo hi > notes.txt", "make 2> err.log 1>out.log", "cmd >&file", "echo > $HOME/x",
		"cd /etc && echo x > passwd", "cat <<EOF\nx\nEOF", "echo $(echo x > inner)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		targets, err := BashWriteTargets(line)
		if err != nil && targets != nil {
			t.Fatalf("BashWriteTargets(%q) = %q and %v", line, targets, err)
		}
		for _, tg := range targets {
			if tg == "" {
				t.Fatalf("BashWriteTargets(%q): an empty target in %q", line, targets)
			}
		}
		_ = errors.Is(err, ErrUnknownTarget)
	})
}
