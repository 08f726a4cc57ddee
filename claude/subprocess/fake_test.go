package subprocess

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/hookwire/agent-sdk-go/internal/testkit/proctest"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/tidwall/gjson"
	"go.uber.org/goleak"
)

// The test binary doubles as a fake CLI: when SUBPROCESS_FAKE_CLI is set, TestMain runs the fake
// instead of the tests. Each test hands the fake its script in the environment, so tests never
// share state with it.
const (
	envFakeMode   = "SUBPROCESS_FAKE_CLI"
	envFakeScript = "SUBPROCESS_FAKE_SCRIPT"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(envFakeMode); mode != "" {
		os.Exit(runFake(mode))
	}
	code := m.Run()
	if code == 0 {
		// Once every test is done, no goroutine may remain: none of a transport (named in the
		// report), and none at all (goleak).
		if left := waitNoTransportGoroutines(5 * time.Second); left != "" {
			fmt.Fprintf(os.Stderr, "goroutines of the transport left after all tests:\n%s\n", left)
			code = 1
		} else if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

func runFake(mode string) int {
	switch mode {
	case "script":
		return fakeScript(os.Getenv(envFakeScript))
	case "bench":
		return fakeBench()
	}
	fmt.Fprintf(os.Stderr, "fake CLI: unknown mode %q\n", mode)
	return 2
}

// fakeScript runs one verb per line:
//
//	out TEXT        write TEXT and a newline on stdout
//	raw QUOTED      write the Go-quoted bytes as they are (CRLF, no newline, ...)
//	pad N           write a JSON line of exactly N bytes ({"type":"pad","p":"xx..."}) and a newline
//	nest N TEXT     write TEXT with $NEST replaced by N '[' and N ']', and a newline
//	stderr TEXT     write TEXT and a newline on stderr
//	read            read one stdin line and write {"type":"echo","line":LINE} (or echo_eof)
//	echo-until-eof  echo every stdin line, then write {"type":"eof"}
//	skip            read one stdin line silently
//	wait-eof        read stdin silently until EOF
//	respond KIND [JSON|MSG]  read one control_request and answer it (success with JSON, or error)
//	respond-reversed N       read N control_requests, answer them last first
//	env NAME        write {"type":"env","name":NAME,"set":bool,"value":...}
//	spawn-sleep     start `sleep 1000` (it inherits stdout) and write {"type":"child","pid":N}
//	ignore-term     ignore SIGTERM
//	hang            sleep for an hour
//	kill-self       kill itself (SIGKILL on Unix)
//	exit N          exit with code N
func fakeScript(script string) int {
	in := bufio.NewReader(os.Stdin)
	readLine := func() (string, bool) {
		l, err := in.ReadString('\n')
		if err != nil && l == "" {
			return "", false
		}
		return strings.TrimRight(l, "\r\n"), true
	}
	emit := func(v any) {
		b, _ := json.Marshal(v)
		os.Stdout.Write(append(b, '\n'))
	}
	for _, cmd := range strings.Split(script, "\n") {
		verb, arg, _ := strings.Cut(strings.TrimLeft(cmd, " \t"), " ")
		switch verb {
		case "", "#":
		case "out":
			os.Stdout.WriteString(arg + "\n")
		case "raw":
			s, err := strconv.Unquote(arg)
			if err != nil {
				fmt.Fprintf(os.Stderr, "fake CLI: raw %s: %v\n", arg, err)
				return 2
			}
			os.Stdout.WriteString(s)
		case "pad":
			n, _ := strconv.Atoi(arg)
			const head, tail = `{"type":"pad","p":"`, `"}`
			os.Stdout.WriteString(head + strings.Repeat("x", max(0, n-len(head)-len(tail))) + tail + "\n")
		case "nest":
			ns, text, _ := strings.Cut(arg, " ")
			n, _ := strconv.Atoi(ns)
			nest := strings.Repeat("[", n) + strings.Repeat("]", n)
			os.Stdout.WriteString(strings.Replace(text, "$NEST", nest, 1) + "\n")
		case "stderr":
			os.Stderr.WriteString(arg + "\n")
		case "read":
			l, ok := readLine()
			if !ok {
				emit(map[string]string{"type": "echo_eof"})
				continue
			}
			emit(map[string]string{"type": "echo", "line": l})
		case "echo-until-eof":
			for {
				l, ok := readLine()
				if !ok {
					break
				}
				emit(map[string]string{"type": "echo", "line": l})
			}
			emit(map[string]string{"type": "eof"})
		case "skip":
			readLine()
		case "wait-eof":
			io.Copy(io.Discard, in)
		case "respond":
			l, _ := readLine()
			id := gjson.Get(l, "request_id").String()
			kind, rest, _ := strings.Cut(arg, " ")
			r := map[string]any{"subtype": kind, "request_id": id}
			if kind == "error" {
				r["error"] = rest
			} else if rest != "" {
				r["response"] = jsontext.Value(rest)
			}
			emit(map[string]any{"type": "control_response", "response": r})
		case "respond-reversed":
			n, _ := strconv.Atoi(arg)
			var reqs []string
			for range n {
				l, _ := readLine()
				reqs = append(reqs, l)
			}
			for i := len(reqs) - 1; i >= 0; i-- {
				id := gjson.Get(reqs[i], "request_id").String()
				sub := gjson.Get(reqs[i], "request.subtype").String()
				emit(map[string]any{"type": "control_response", "response": map[string]any{
					"subtype": "success", "request_id": id, "response": map[string]string{"subtype": sub, "id": id}}})
			}
		case "env":
			v, set := os.LookupEnv(arg)
			emit(map[string]any{"type": "env", "name": arg, "set": set, "value": v})
		case "spawn-sleep":
			c := exec.Command("sleep", "1000")
			c.Stdout, c.Stderr = os.Stdout, os.Stderr
			if err := c.Start(); err != nil {
				fmt.Fprintf(os.Stderr, "fake CLI: %v\n", err)
				return 2
			}
			emit(map[string]any{"type": "child", "pid": c.Process.Pid})
		case "ignore-term":
			signal.Ignore(syscall.SIGTERM)
		case "hang":
			time.Sleep(time.Hour)
		case "kill-self":
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Kill()
			}
			time.Sleep(time.Hour)
		case "exit":
			n, _ := strconv.Atoi(arg)
			return n
		default:
			fmt.Fprintf(os.Stderr, "fake CLI: unknown verb %q\n", verb)
			return 2
		}
	}
	return 0
}

// startFake starts a Transport on the fake CLI running script. cfg's CLIPath, Args and Env are
// filled in; the transport is closed when the test ends.
func startFake(t testing.TB, cfg Config, script string) *Transport {
	t.Helper()
	tr, err := Start(context.Background(), fakeConfig(cfg, "script", script))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func fakeConfig(cfg Config, mode, script string) Config {
	cfg.CLIPath = os.Args[0]
	cfg.Args = []string{"-test.run=^$"}
	cfg.Env = append(cfg.Env, envFakeMode+"="+mode, envFakeScript+"="+script,
		// A race-enabled fake would otherwise sleep 1 s at exit.
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return cfg
}

// script joins verbs into a fake CLI script.
func script(lines ...string) string { return strings.Join(lines, "\n") }

// next returns the next message, failing the test on an error or after 10 s.
func next(t testing.TB, tr *Transport) shared.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := tr.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return m
}

// nextRaw returns the next message, which must be a *shared.RawMessage of type typ (the fake's own
// lines: echo, env, child, eof).
func nextRaw(t testing.TB, tr *Transport, typ string) *shared.RawMessage {
	t.Helper()
	m := next(t, tr)
	r, ok := m.(*shared.RawMessage)
	if !ok || r.MessageType != typ {
		t.Fatalf("Next = %T %+v, want a %q line", m, m, typ)
	}
	return r
}

// nextEcho returns the stdin line the fake echoed, decoded as JSON.
func nextEcho(t testing.TB, tr *Transport) map[string]any {
	t.Helper()
	r := nextRaw(t, tr, "echo")
	return decodeJSON(t, gjson.GetBytes(r.Raw, "line").String())
}

func decodeJSON(t testing.TB, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not a JSON object: %q: %v", s, err)
	}
	return v
}

// drain reads messages until the terminal error and returns the messages and that error.
func drain(t testing.TB, tr *Transport) ([]shared.Message, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var msgs []shared.Message
	for {
		m, err := tr.Next(ctx)
		if err != nil {
			var pe *shared.ProtocolError
			if errors.As(err, &pe) {
				continue
			}
			return msgs, err
		}
		msgs = append(msgs, m)
	}
}

// transportMarks name the transport's own code in a goroutine's stack: the reader, drainer,
// waiter, request goroutines and handler runs.
var transportMarks = []string{"claude/subprocess.(*Transport)", "claude/subprocess.Start", "claude/subprocess.(*hooks.Engine)"}

// transportGoroutines returns the stacks of the goroutines running the transport's code, or "".
func transportGoroutines() string { return proctest.Goroutines(transportMarks...) }

// waitNoTransportGoroutines gives exiting goroutines a bounded chance to finish.
func waitNoTransportGoroutines(limit time.Duration) string {
	return proctest.WaitNoGoroutines(limit, transportMarks...)
}
