package shellparse

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/syntax"
)

// word is what the helpers make of the first word after the command name (or of the first
// redirection's word, when the line has one).
type word struct {
	Static       string
	IsStatic     bool
	Flat         string
	Glob, Tilde  bool
	Writes, HasR bool
}

func TestWords(t *testing.T) {
	tests := []struct {
		line string
		want word
	}{
		{`echo plain`, word{Static: "plain", IsStatic: true, Flat: "plain"}},
		{`echo my\ file`, word{Static: "my file", IsStatic: true, Flat: "my file"}},
		{`echo 'a $b'`, word{Static: "a $b", IsStatic: true, Flat: "a $b"}},
		{`echo "a \$b \q"`, word{Static: `a $b \q`, IsStatic: true, Flat: `a $b \q`}},
		{`echo "$HOME/"`, word{Flat: "$HOME/"}},
		{`echo ${HOME}x`, word{Flat: "${HOME}x"}},
		{`echo $(id)`, word{Flat: "$(id)"}},
		{`echo $'\x41'`, word{Flat: `\x41`}},
		{`echo *.go`, word{Static: "*.go", IsStatic: true, Flat: "*.go", Glob: true}},
		{`echo '*.go'`, word{Static: "*.go", IsStatic: true, Flat: "*.go"}},
		{`echo ~/x`, word{Static: "~/x", IsStatic: true, Flat: "~/x", Tilde: true}},
		{`x > out`, word{Static: "out", IsStatic: true, Flat: "out", Writes: true, HasR: true}},
		{`x >> out`, word{Static: "out", IsStatic: true, Flat: "out", Writes: true, HasR: true}},
		{`x >| out`, word{Static: "out", IsStatic: true, Flat: "out", Writes: true, HasR: true}},
		{`x &> out`, word{Static: "out", IsStatic: true, Flat: "out", Writes: true, HasR: true}},
		{`x <> out`, word{Static: "out", IsStatic: true, Flat: "out", Writes: true, HasR: true}},
		{`x >&out`, word{Static: "out", IsStatic: true, Flat: "out", Writes: true, HasR: true}},
		{`x 2>&1`, word{Static: "1", IsStatic: true, Flat: "1", HasR: true}},
		{`x >&-`, word{Static: "-", IsStatic: true, Flat: "-", HasR: true}},
		{`x < in`, word{Static: "in", IsStatic: true, Flat: "in", HasR: true}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			f, err := Parse(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			var w *syntax.Word
			var got word
			if rs := Redirects(f); len(rs) > 0 {
				w, got.HasR, got.Writes = rs[0].Word, true, Writes(rs[0])
			} else {
				w = Calls(f)[0].Args[1]
			}
			got.Static, got.IsStatic = Static(w)
			got.Flat, got.Glob, got.Tilde = Flat(w), Glob(w), Tilde(w)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Calls finds commands wherever Bash runs them: substitutions, functions, loops, coproc.
func TestCalls(t *testing.T) {
	f, err := Parse("a $(b `c`) <(d); f() { e; }; for x in y; do g; done; coproc h; cat <<EOF\n$(i)\nEOF")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range Calls(f) {
		v, _ := Static(c.Args[0])
		got = append(got, v)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d", "e", "g", "h", "cat", "i"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	for _, line := range []string{`echo 'open`, `echo >`, `if true; then`, `echo $(`} {
		if _, err := Parse(line); err == nil {
			t.Errorf("Parse(%q): no error", line)
		}
	}
}
