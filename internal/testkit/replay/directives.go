package replay

// The transcript's directives, one function each (the package doc lists them).

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// directive plays one transcript line: arg is the text after the verb, line its line number.
// stop ends the transcript with the fake's exit code.
type directive func(p *player, arg string, line int) (code int, stop bool)

// directives maps each verb of a transcript (but unordered, which reads the lines after it) to
// what plays it.
var directives = map[string]directive{
	"send":        (*player).send,
	"sendn":       (*player).sendN,
	"sendraw":     (*player).sendRaw,
	"sendhex":     (*player).sendHex,
	"sendbig":     (*player).sendBig,
	"sendpad":     (*player).sendPad,
	"stderr":      (*player).stderr,
	"stderrflood": (*player).stderrFlood,
	"spawn":       (*player).spawn,
	"closestdin":  func(*player, string, int) (int, bool) { os.Stdin.Close(); return 0, false },
	"closestdout": func(p *player, _ string, _ int) (int, bool) { p.out.Flush(); os.Stdout.Close(); return 0, false },
	"ignoreterm":  func(*player, string, int) (int, bool) { signal.Ignore(syscall.SIGTERM); return 0, false },
	"hang":        (*player).hang,
	"kill":        (*player).kill,
	"exit":        (*player).exit,
	"eof":         (*player).eof,
	"expect":      func(p *player, arg string, line int) (int, bool) { return p.stopOn(p.expect([]string{arg}, line)) },
	"expectn":     (*player).expectNLines,
}

// stopOn stops the transcript on a non-zero code.
func (p *player) stopOn(code int) (int, bool) { return code, code != 0 }

func (p *player) writeLine(s string) (int, bool) {
	p.out.WriteString(s + "\n")
	p.out.Flush()
	return 0, false
}

func (p *player) send(arg string, _ int) (int, bool)    { return p.writeLine(p.subst(arg)) }
func (p *player) sendRaw(arg string, _ int) (int, bool) { return p.writeLine(arg) }

func (p *player) sendN(arg string, _ int) (int, bool) {
	ns, tmpl, _ := strings.Cut(arg, " ")
	n, _ := strconv.Atoi(ns)
	for k := 1; k <= n; k++ {
		p.out.WriteString(p.subst(withIndex(tmpl, strconv.Itoa(k))) + "\n")
	}
	p.out.Flush()
	return 0, false
}

func (p *player) sendHex(arg string, line int) (int, bool) {
	b, err := hex.DecodeString(strings.ReplaceAll(arg, " ", ""))
	if err != nil {
		return p.fail("line %d: sendhex: %v", line, err), true
	}
	p.out.Write(append(b, '\n'))
	p.out.Flush()
	return 0, false
}

func (p *player) sendBig(arg string, _ int) (int, bool) {
	n, _ := strconv.Atoi(arg)
	pad := max(n-len(`{"type":"assistant_padding","pad":""}`), 0)
	return p.writeLine(`{"type":"assistant_padding","pad":"` + strings.Repeat("x", pad) + `"}`)
}

func (p *player) sendPad(arg string, _ int) (int, bool) {
	nStr, js, _ := strings.Cut(arg, " ")
	n, _ := strconv.Atoi(nStr)
	return p.writeLine(strings.ReplaceAll(p.subst(js), "$PAD", strings.Repeat("x", n)))
}

func (p *player) stderr(arg string, _ int) (int, bool) {
	fmt.Fprintln(os.Stderr, p.subst(arg))
	return 0, false
}

func (p *player) stderrFlood(arg string, _ int) (int, bool) {
	var n, l int
	fmt.Sscanf(arg, "%d %d", &n, &l)
	l = max(l, 1)
	w := bufio.NewWriterSize(os.Stderr, 64<<10)
	line := strings.Repeat("e", l-1) + "\n"
	for written := 0; written < n; written += l {
		w.WriteString(line)
	}
	w.Flush()
	return 0, false
}

func (p *player) spawn(arg string, line int) (int, bool) {
	f := strings.Fields(arg)
	if len(f) == 0 {
		return p.fail("line %d: spawn needs a command", line), true
	}
	c := exec.Command(f[0], f[1:]...)
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	p.out.Flush()
	if err := c.Start(); err != nil {
		return p.fail("line %d: spawn: %v", line, err), true
	}
	fmt.Fprintf(os.Stderr, "replay: spawned pid %d\n", c.Process.Pid)
	fmt.Fprintf(p.out, `{"type":"replay_child","pid":%d}`+"\n", c.Process.Pid)
	p.out.Flush()
	return 0, false
}

func (p *player) hang(string, int) (int, bool) {
	p.out.Flush()
	for {
		time.Sleep(time.Hour)
	}
}

func (p *player) kill(arg string, line int) (int, bool) {
	if _, ok := map[string]bool{"KILL": true, "TERM": true, "ABRT": true, "SEGV": true}[arg]; !ok {
		return p.fail("line %d: unknown signal %q", line, arg), true
	}
	p.out.Flush()
	// The Go runtime would catch SEGV and ABRT itself: become a shell (same pid, same pipes)
	// that dies of the signal, as a native CLI would.
	err := syscall.Exec("/bin/sh", []string{"sh", "-c", "kill -" + arg + " $$"}, os.Environ())
	return p.fail("line %d: kill: %v", line, err), true
}

func (p *player) exit(arg string, _ int) (int, bool) {
	p.out.Flush()
	n, _ := strconv.Atoi(arg)
	return n, true
}

// eof answers hook listings until stdin ends, then exits 0.
func (p *player) eof(string, int) (int, bool) {
	for {
		line, err := p.readLine()
		if err != nil {
			return 0, true
		}
		p.answerListing(line)
	}
}

func (p *player) expectNLines(arg string, line int) (int, bool) {
	ns, tmpl, _ := strings.Cut(arg, " ")
	n, _ := strconv.Atoi(ns)
	return p.stopOn(p.expectN(n, tmpl, line))
}

// unorderedWants reads the n expect lines after lines[i] ("unordered N"): their JSON, the index
// of the last, or a non-zero code when one is not an expect line.
func (p *player) unorderedWants(lines []string, i int, arg string) (wants []string, last, code int) {
	n, _ := strconv.Atoi(arg)
	for j := 0; j < n && i+1 < len(lines); j++ {
		i++
		v, a, _ := strings.Cut(strings.TrimSpace(lines[i]), " ")
		if v != "expect" {
			return nil, i, p.fail("line %d: unordered needs %d expect lines", i+1, n)
		}
		wants = append(wants, a)
	}
	return wants, i, 0
}
