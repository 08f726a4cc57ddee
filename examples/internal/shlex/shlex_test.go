package shlex

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// show renders commands compactly: words separated by spaces (a Dynamic word ends with ~), then
// redirections as [op target] ([op] without a target), commands separated by " / ".
func show(cmds []Command) string {
	var parts []string
	for _, c := range cmds {
		var w []string
		for _, a := range c.Args {
			s := a.Text
			if a.Dynamic {
				s += "~"
			}
			w = append(w, s)
		}
		for _, r := range c.Redirects {
			if r.HasTarget {
				t := r.Target.Text
				if r.Target.Dynamic {
					t += "~"
				}
				w = append(w, "["+r.Op+" "+t+"]")
			} else {
				w = append(w, "["+r.Op+"]")
			}
		}
		parts = append(parts, strings.Join(w, " "))
	}
	return strings.Join(parts, " / ")
}

func TestParse(t *testing.T) {
	tests := []struct {
		line string
		want string
	}{
		{"ls -la", "ls -la"},
		{"echo hi > out.txt", "echo hi [> out.txt]"},
		{"echo hi>>out.txt", "echo hi [>> out.txt]"},
		{"echo a2>x", "echo a2 [> x]"},
		{"cmd 2>err.log 2>&1", "cmd [2> err.log] [2>& 1]"},
		{"cmd &> all.log", "cmd [&> all.log]"},
		{"cmd >| f", "cmd [>| f]"},
		{`echo 'a > b' "c > d" e\>f`, "echo a > b c > d e>f"},
		{`echo "$HOME" > "$HOME/x"`, "echo $HOME~ [> $HOME/x~]"},
		{"echo > ~/x", "echo [> ~/x~]"},
		{"echo > *.txt", "echo [> *.txt~]"},
		{"echo hi > $(echo /etc/passwd)", "echo hi [>] / echo /etc/passwd"},
		{"echo > a$(b)c", "echo [> a~] / b / c~"},
		{"echo `id`x", "echo / id / x~"},
		{"cat <(curl x) | sh", "cat / curl x / sh"},
		{"a && b || c; d & e | f |& g", "a / b / c / d / e / f / g"},
		{"(cd /etc; echo x > passwd)", "cd /etc / echo x [> passwd]"},
		{"echo a # > /etc/passwd", "echo a"},
		{"echo a#b", "echo a#b"},
		{"echo \\\n  hi", "echo hi"},
		{"cat <<EOF > out\nline\nEOF", "cat [<< EOF] [> out] / line / EOF"},
		{"echo ${HOME}/x", "echo ${HOME}/x~"},
		{"", ""},
		{"   ", ""},
		{"x=1 y=$z cmd", "x=1 y=$z~ cmd"},
		{`echo "a\"b\\c"`, `echo a"b\c`},
		{"echo > /dev/null", "echo [> /dev/null]"},
		{"echo ＞ /etc/passwd", "echo ＞ /etc/passwd"}, // a fullwidth > is just a character
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cmds, err := Parse(tt.line)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, show(cmds)); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

func TestUnterminated(t *testing.T) {
	for _, line := range []string{`echo 'a`, `echo "a`, `echo ${a`} {
		if _, err := Parse(line); !errors.Is(err, ErrUnterminated) {
			t.Errorf("Parse(%q) error = %v, want ErrUnterminated", line, err)
		}
	}
}

func TestWrites(t *testing.T) {
	tests := []struct {
		line string
		want []bool
	}{
		{"c > a >> b >| c &> d &>> e 1> f 2>> g <> h", []bool{true, true, true, true, true, true, true, true}},
		{"c < a << b <<< c 2>&1 >&2 >&- <&0", []bool{false, false, false, false, false, false, false}},
		{"c >&file", []bool{true}},
	}
	for _, tt := range tests {
		cmds, err := Parse(tt.line)
		if err != nil || len(cmds) != 1 {
			t.Fatalf("Parse(%q) = %v, %v", tt.line, cmds, err)
		}
		var got []bool
		for _, r := range cmds[0].Redirects {
			got = append(got, r.Writes())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Writes for %q (-want +got):\n%s", tt.line, diff)
		}
	}
}
