// Package replay is a scripted stand-in for the Claude CLI, for tests of what the real CLI cannot be
// made to do on demand: crashes, malformed lines, slow readers, odd orderings. The fake CLI reads a
// transcript of directives and plays it against the SDK on its stdin and stdout.
//
// Transcript directives, one per line (blank lines and lines starting with # are skipped):
//
//	send JSON          write JSON as one line on stdout ($name is replaced by a captured value)
//	sendraw TEXT       write TEXT as one line, as is (noise, truncated JSON, ...)
//	sendbig N          write one JSON line of N bytes
//	expect JSON        read one stdin line; it must contain JSON as a subset; a string value
//	                   "$capture:name" in JSON captures the line's value there into $name;
//	                   "$any" matches any value; "~TEXT*" matches a string containing TEXT
//	unordered N        the next N expect lines may be satisfied in any order
//	stderr TEXT        write TEXT on stderr
//	exit N             exit with code N at once
//	eof                read stdin until EOF (the SDK closed it), then exit 0
//
// Every stdin line read is appended to $CLAUDE_REPLAY_LOG when set. A failed expectation prints the
// reason on stderr and exits with code 97.
package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
)

// TranscriptEnv names the transcript file; the default is "transcript.txt" in the working directory.
const TranscriptEnv = "CLAUDE_REPLAY"

// LogEnv names the file every stdin line is appended to.
const LogEnv = "CLAUDE_REPLAY_LOG"

// FakeCLI plays the transcript and returns the exit code. It is the "claude" command of the
// testscript tests.
func FakeCLI() int {
	for _, a := range os.Args[1:] {
		if a == "--version" || a == "-v" {
			fmt.Println("2.1.330 (Claude Code replay)")
			return 0
		}
	}
	path := os.Getenv(TranscriptEnv)
	if path == "" {
		path = "transcript.txt"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		return 98
	}
	p := &player{
		in:   bufio.NewReaderSize(os.Stdin, 1<<20),
		out:  bufio.NewWriter(os.Stdout),
		vars: map[string]string{},
	}
	if lp := os.Getenv(LogEnv); lp != "" {
		f, err := os.OpenFile(lp, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err == nil {
			defer f.Close()
			p.log = f
		}
	}
	// Record the arguments, so scripts can check the flags the SDK passed.
	if ap := os.Getenv("CLAUDE_REPLAY_ARGS"); ap != "" {
		_ = os.WriteFile(ap, []byte(strings.Join(os.Args[1:], "\n")+"\n"), 0o644)
	}
	return p.play(strings.Split(string(data), "\n"))
}

type player struct {
	in   *bufio.Reader
	out  *bufio.Writer
	log  io.Writer
	vars map[string]string
}

func (p *player) fail(format string, args ...any) int {
	p.out.Flush()
	fmt.Fprintf(os.Stderr, "replay: "+format+"\n", args...)
	return 97
}

func (p *player) play(lines []string) int {
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch verb {
		case "send":
			p.out.WriteString(p.subst(arg) + "\n")
			p.out.Flush()
		case "sendraw":
			p.out.WriteString(arg + "\n")
			p.out.Flush()
		case "sendbig":
			n, _ := strconv.Atoi(arg)
			pad := n - len(`{"type":"assistant_padding","pad":""}`)
			if pad < 0 {
				pad = 0
			}
			p.out.WriteString(`{"type":"assistant_padding","pad":"` + strings.Repeat("x", pad) + `"}` + "\n")
			p.out.Flush()
		case "stderr":
			fmt.Fprintln(os.Stderr, arg)
		case "exit":
			p.out.Flush()
			n, _ := strconv.Atoi(arg)
			return n
		case "eof":
			for {
				if _, err := p.readLine(); err != nil {
					return 0
				}
			}
		case "expect":
			if code := p.expect([]string{arg}, i+1); code != 0 {
				return code
			}
		case "unordered":
			n, _ := strconv.Atoi(arg)
			var wants []string
			for j := 0; j < n && i+1 < len(lines); j++ {
				i++
				v, a, _ := strings.Cut(strings.TrimSpace(lines[i]), " ")
				if v != "expect" {
					return p.fail("line %d: unordered needs %d expect lines", i+1, n)
				}
				wants = append(wants, a)
			}
			if code := p.expect(wants, i+1); code != 0 {
				return code
			}
		default:
			return p.fail("line %d: unknown directive %q", i+1, verb)
		}
	}
	p.out.Flush()
	// The transcript is over: behave like the CLI when idle, exit at stdin EOF.
	for {
		if _, err := p.readLine(); err != nil {
			return 0
		}
	}
}

func (p *player) readLine() (string, error) {
	s, err := p.in.ReadString('\n')
	if s != "" && p.log != nil {
		io.WriteString(p.log, strings.TrimRight(s, "\n")+"\n")
	}
	if err != nil && s == "" {
		return "", err
	}
	return strings.TrimRight(s, "\r\n"), nil
}

// expect reads len(wants) lines; each must match one not yet matched want.
func (p *player) expect(wants []string, lineNo int) int {
	pats := make([]any, len(wants))
	for i, w := range wants {
		if err := json.Unmarshal([]byte(p.subst(w)), &pats[i]); err != nil {
			return p.fail("line %d: bad expect JSON %q: %v", lineNo, w, err)
		}
	}
	done := make([]bool, len(wants))
	for range wants {
		got, err := p.readLine()
		if err != nil {
			return p.fail("line %d: stdin ended while expecting %s", lineNo, strings.Join(wants, " | "))
		}
		var v any
		if err := json.Unmarshal([]byte(got), &v); err != nil {
			return p.fail("line %d: SDK wrote a line that is not JSON: %q", lineNo, got)
		}
		matched := false
		for i, pat := range pats {
			if done[i] {
				continue
			}
			caps := map[string]string{}
			if subset(pat, v, caps) {
				done[i], matched = true, true
				for k, c := range caps {
					p.vars[k] = c
				}
				break
			}
		}
		if !matched {
			return p.fail("line %d: unexpected line from the SDK:\n  got  %s\n  want %s", lineNo, got, strings.Join(wants, "\n  or   "))
		}
	}
	return 0
}

func (p *player) subst(s string) string {
	for k, v := range p.vars {
		s = strings.ReplaceAll(s, "$"+k, v)
	}
	return s
}

// subset reports whether every field of pat is in v with an equal value (objects recursively;
// arrays and scalars exactly; "$capture:name" matches any string and records it; "$any" matches
// anything present).
func subset(pat, v any, caps map[string]string) bool {
	switch p := pat.(type) {
	case map[string]any:
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for k, pv := range p {
			mv, ok := m[k]
			if !ok {
				return false
			}
			if !subset(pv, mv, caps) {
				return false
			}
		}
		return true
	case string:
		if p == "$any" {
			return true
		}
		if name, ok := strings.CutPrefix(p, "$capture:"); ok {
			s, ok := v.(string)
			if ok {
				caps[name] = s
			}
			return ok
		}
		if pre, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(p, "~") {
			s, ok := v.(string)
			return ok && strings.Contains(s, strings.TrimPrefix(pre, "~"))
		}
	}
	return reflect.DeepEqual(pat, v)
}
