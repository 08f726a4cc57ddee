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
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"time"
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
		switch verb {
		case "send":
			p.out.WriteString(p.subst(arg) + "\n")
			p.out.Flush()
		case "sendn":
			ns, tmpl, _ := strings.Cut(arg, " ")
			n, _ := strconv.Atoi(ns)
			for k := 1; k <= n; k++ {
				p.out.WriteString(p.subst(withIndex(tmpl, strconv.Itoa(k))) + "\n")
			}
			p.out.Flush()
		case "sendraw":
			p.out.WriteString(arg + "\n")
			p.out.Flush()
		case "sendhex":
			b, err := hex.DecodeString(strings.ReplaceAll(arg, " ", ""))
			if err != nil {
				return p.fail("line %d: sendhex: %v", i+1, err)
			}
			p.out.Write(append(b, '\n'))
			p.out.Flush()
		case "sendbig":
			n, _ := strconv.Atoi(arg)
			pad := n - len(`{"type":"assistant_padding","pad":""}`)
			if pad < 0 {
				pad = 0
			}
			p.out.WriteString(`{"type":"assistant_padding","pad":"` + strings.Repeat("x", pad) + `"}` + "\n")
			p.out.Flush()
		case "sendpad":
			nStr, js, _ := strings.Cut(arg, " ")
			n, _ := strconv.Atoi(nStr)
			p.out.WriteString(strings.ReplaceAll(p.subst(js), "$PAD", strings.Repeat("x", n)) + "\n")
			p.out.Flush()
		case "stderr":
			fmt.Fprintln(os.Stderr, p.subst(arg))
		case "stderrflood":
			var n, l int
			fmt.Sscanf(arg, "%d %d", &n, &l)
			if l < 1 {
				l = 1
			}
			w := bufio.NewWriterSize(os.Stderr, 64<<10)
			line := strings.Repeat("e", l-1) + "\n"
			for written := 0; written < n; written += l {
				w.WriteString(line)
			}
			w.Flush()
		case "spawn":
			f := strings.Fields(arg)
			if len(f) == 0 {
				return p.fail("line %d: spawn needs a command", i+1)
			}
			c := exec.Command(f[0], f[1:]...)
			c.Stdout, c.Stderr = os.Stdout, os.Stderr
			p.out.Flush()
			if err := c.Start(); err != nil {
				return p.fail("line %d: spawn: %v", i+1, err)
			}
			fmt.Fprintf(os.Stderr, "replay: spawned pid %d\n", c.Process.Pid)
			fmt.Fprintf(p.out, `{"type":"replay_child","pid":%d}`+"\n", c.Process.Pid)
			p.out.Flush()
		case "closestdin":
			os.Stdin.Close()
		case "closestdout":
			p.out.Flush()
			os.Stdout.Close()
		case "ignoreterm":
			signal.Ignore(syscall.SIGTERM)
		case "hang":
			p.out.Flush()
			for {
				time.Sleep(time.Hour)
			}
		case "kill":
			if _, ok := map[string]bool{"KILL": true, "TERM": true, "ABRT": true, "SEGV": true}[arg]; !ok {
				return p.fail("line %d: unknown signal %q", i+1, arg)
			}
			p.out.Flush()
			// The Go runtime would catch SEGV and ABRT itself: become a shell (same pid, same pipes)
			// that dies of the signal, as a native CLI would.
			err := syscall.Exec("/bin/sh", []string{"sh", "-c", "kill -" + arg + " $$"}, os.Environ())
			return p.fail("line %d: kill: %v", i+1, err)
		case "exit":
			p.out.Flush()
			n, _ := strconv.Atoi(arg)
			return n
		case "eof":
			for {
				line, err := p.readLine()
				if err != nil {
					return 0
				}
				p.answerListing(line)
			}
		case "expect":
			if code := p.expect([]string{arg}, i+1); code != 0 {
				return code
			}
		case "expectn":
			ns, tmpl, _ := strings.Cut(arg, " ")
			n, _ := strconv.Atoi(ns)
			if code := p.expectN(n, tmpl, i+1); code != 0 {
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
		line, err := p.readLine()
		if err != nil {
			return 0
		}
		p.answerListing(line)
	}
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
		if pre, post, ok := strings.Cut(p, indexMark); ok && !strings.Contains(post, indexMark) {
			// An expectn pattern: the number in place of $i must be the same everywhere.
			s, ok := v.(string)
			if !ok || len(s) <= len(pre)+len(post) || !strings.HasPrefix(s, pre) || !strings.HasSuffix(s, post) {
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
