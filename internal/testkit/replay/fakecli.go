// Package replay is a scripted stand-in for the Claude CLI, for tests of what the real CLI cannot be
// made to do on demand: crashes, malformed lines, slow readers, odd orderings. The fake CLI reads a
// transcript of directives and plays it against the SDK on its stdin and stdout.
//
// Transcript directives, one per line (blank lines and lines starting with # are skipped):
//
//	send JSON          write JSON as one line on stdout ($name is replaced by a captured value;
//	                   $pid by the fake's process id)
//	sendn N TEMPLATE   write N lines: TEMPLATE with $i replaced by 1, 2, ... N (a load burst)
//	sendraw TEXT       write TEXT as one line, as is (noise, truncated JSON, ...)
//	sendhex HEX        write the hex-decoded bytes and a newline (NUL bytes, invalid UTF-8, ...)
//	sendbig N          write one JSON line of N bytes
//	sendpad N JSON     write JSON with every $PAD replaced by N 'x' characters
//	expect JSON        read one stdin line; it must contain JSON as a subset; a string value
//	                   "$capture:name" in JSON captures the line's value there into $name;
//	                   "$any" matches any value; "~TEXT*" matches a string containing TEXT
//	unordered N        the next N expect lines may be satisfied in any order
//	expectn N TEMPLATE read N lines, in any order, that match TEMPLATE for $i = 1..N, each i once
//	                   ($i, inside JSON strings, once per string, stands for the same number
//	                   everywhere in one line)
//	stderr TEXT        write TEXT on stderr ($name and $pid replaced as in send)
//	stderrflood N L    write N bytes on stderr, in lines of L bytes
//	spawn CMD ARGS...  start CMD in the background (its stdout and stderr are the fake's: a tool
//	                   the CLI started) and write {"type":"replay_child","pid":PID}, and
//	                   "replay: spawned pid PID" on stderr
//	closestdin         close stdin (the SDK's writes then fail with EPIPE)
//	closestdout        close stdout (the SDK's reader sees EOF while the fake lives on)
//	ignoreterm         ignore SIGTERM
//	hang               stop: neither read nor write until killed (a stalled CLI)
//	kill SIGNAL        kill the fake with SIGNAL (KILL, TERM, ABRT, SEGV): a crash
//	exit N             exit with code N at once
//	eof                read stdin until EOF (the SDK closed it), then exit 0
//
// A get_hooks_listing control request that no expect line matches (while expecting, at eof, or
// once the transcript is over) is answered at once with a listing of no hooks,
// {"hooks":[],"policy":{}}: the answer of a CLI that runs no settings hook, which the SDK asks for
// when the session guards tool calls. Expect it to answer otherwise.
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
		vars: map[string]string{"pid": strconv.Itoa(os.Getpid())},
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
		if verb == "unordered" {
			wants, last, code := p.unorderedWants(lines, i, arg)
			if code == 0 {
				i = last
				code = p.expect(wants, i+1)
			}
			if code != 0 {
				return code
			}
			continue
		}
		do, ok := directives[verb]
		if !ok {
			return p.fail("line %d: unknown directive %q", i+1, verb)
		}
		if code, stop := do(p, arg, i+1); stop {
			return code
		}
	}
	p.out.Flush()
	// The transcript is over: behave like the CLI when idle, exit at stdin EOF.
	code, _ := p.eof("", 0)
	return code
}

// answerListing answers line with the default hook listing (no hooks) if it is a
// get_hooks_listing control request, and reports whether it was one.
func (p *player) answerListing(line string) bool {
	var m struct {
		Type    string `json:"type"`
		ID      string `json:"request_id"`
		Request struct {
			Subtype string `json:"subtype"`
		} `json:"request"`
	}
	if json.Unmarshal([]byte(line), &m) != nil || m.Type != "control_request" || m.Request.Subtype != "get_hooks_listing" {
		return false
	}
	id, _ := json.Marshal(m.ID)
	p.out.WriteString(`{"type":"control_response","response":{"subtype":"success","request_id":` + string(id) + `,"response":{"hooks":[],"policy":{}}}}` + "\n")
	p.out.Flush()
	return true
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
	for n := 0; n < len(wants); n++ {
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
		if !matched && p.answerListing(got) {
			n--
			continue
		}
		if !matched {
			return p.fail("line %d: unexpected line from the SDK:\n  got  %s\n  want %s", lineNo, got, strings.Join(wants, "\n  or   "))
		}
	}
	return 0
}

// indexMark stands for $i in an expectn pattern.
const indexMark = "⟨i⟩"

// withIndex replaces $i in s (but not $id, $init, ...) with v.
func withIndex(s, v string) string {
	var b strings.Builder
	for {
		j := strings.Index(s, "$i")
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:j])
		if k := j + 2; k < len(s) && (s[k] == '_' || s[k] >= '0' && s[k] <= '9' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
			b.WriteString("$i")
		} else {
			b.WriteString(v)
		}
		s = s[j+2:]
	}
}

// expectN reads n lines; each must match tmpl for one i in 1..n not seen before.
func (p *player) expectN(n int, tmpl string, lineNo int) int {
	var pat any
	if err := json.Unmarshal([]byte(p.subst(withIndex(tmpl, indexMark))), &pat); err != nil {
		return p.fail("line %d: bad expectn JSON %q: %v", lineNo, tmpl, err)
	}
	seen := make([]bool, n+1)
	for j := 0; j < n; j++ {
		got, err := p.readLine()
		if err != nil {
			return p.fail("line %d: stdin ended while expecting %s", lineNo, tmpl)
		}
		var v any
		if err := json.Unmarshal([]byte(got), &v); err != nil {
			return p.fail("line %d: SDK wrote a line that is not JSON: %q", lineNo, got)
		}
		caps := map[string]string{}
		ok := subset(pat, v, caps)
		if !ok && p.answerListing(got) {
			j--
			continue
		}
		if !ok {
			return p.fail("line %d: unexpected line from the SDK:\n  got  %s\n  want %s", lineNo, got, tmpl)
		}
		k, err := strconv.Atoi(caps[indexMark])
		if err != nil || k < 1 || k > n || seen[k] {
			return p.fail("line %d: line for $i=%q is out of range or repeated: %s", lineNo, caps[indexMark], got)
		}
		seen[k] = true
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
			if mv, ok := m[k]; !ok || !subset(pv, mv, caps) {
				return false
			}
		}
		return true
	case string:
		if match, special := subsetString(p, v, caps); special {
			return match
		}
	}
	return reflect.DeepEqual(pat, v)
}

// subsetString matches v against a pattern string with a special meaning ($any, an expectn
// index, $capture:name, ~TEXT*); special is false for a plain string.
func subsetString(p string, v any, caps map[string]string) (match, special bool) {
	s, isString := v.(string)
	if p == "$any" {
		return true, true
	}
	if pre, post, ok := strings.Cut(p, indexMark); ok && !strings.Contains(post, indexMark) {
		return isString && matchIndex(s, pre, post, caps), true
	}
	if name, ok := strings.CutPrefix(p, "$capture:"); ok {
		if isString {
			caps[name] = s
		}
		return isString, true
	}
	if pre, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(p, "~") {
		return isString && strings.Contains(s, strings.TrimPrefix(pre, "~")), true
	}
	return false, false
}

// matchIndex matches an expectn pattern pre$ipost: the number in place of $i must be the same
// everywhere in one line.
func matchIndex(s, pre, post string, caps map[string]string) bool {
	if len(s) <= len(pre)+len(post) || !strings.HasPrefix(s, pre) || !strings.HasSuffix(s, post) {
		return false
	}
	num := s[len(pre) : len(s)-len(post)]
	if _, err := strconv.Atoi(num); err != nil {
		return false
	}
	if prev, seen := caps[indexMark]; seen && prev != num {
		return false
	}
	caps[indexMark] = num
	return true
}
