package benchkit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/tidwall/gjson"
)

// runBare runs the workload with no SDK: a hand-written loop that speaks the control protocol
// directly. It registers the same hooks as the Go SDK would (the same matcher, timeout and
// onFailure), answers each hook_callback by its request_id with {} (or a deny), and otherwise only
// looks at each line's type. It is the floor any SDK can reach: the CLI's own cost of a hook.
func runBare(spec Spec) (Report, error) {
	hooks, err := bareHooks(spec.Hooks)
	if err != nil {
		return Report{}, err
	}
	cmd := exec.Command(spec.CLI, "--output-format=stream-json", "--verbose", "--input-format=stream-json",
		"--allowedTools=Bash", "--system-prompt="+benchSystemPrompt)
	cmd.Dir = spec.Dir
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Report{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Report{}, err
	}
	b := &bareLoop{spec: spec, stdin: stdin, out: make([]byte, 0, 512), stopProfile: func() {}}
	b.t0, b.sc0 = time.Now(), processCPU()
	if err := cmd.Start(); err != nil {
		return b.rep, err
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	defer func() { b.stopProfile() }()
	if err := b.write([]byte(`{"type":"control_request","request_id":"init","request":{"subtype":"initialize"` + hooks + `}}` + "\n")); err != nil {
		return b.rep, err
	}
	b.rep.RoundTripNS = make([]int64, 0, 2*spec.Calls)
	br := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := readBareLine(br)
		if err != nil {
			return b.rep, fmt.Errorf("reading the CLI: %w", err)
		}
		if done, err := b.handle(line, time.Now()); done || err != nil {
			return b.rep, err
		}
	}
}

// bareHooks is the hooks part of the initialize request for a hooks configuration.
func bareHooks(h string) (string, error) {
	switch h {
	case hooksNone:
		return "", nil
	case hooksPass:
		return `,"hooks":{"PreToolUse":[{"hookCallbackIds":["hook_PreToolUse"],"timeout":10,"onFailure":"block"}],` +
			`"PostToolUse":[{"hookCallbackIds":["hook_PostToolUse"],"timeout":10}]}`, nil
	case hooksDeny:
		return `,"hooks":{"PreToolUse":[{"hookCallbackIds":["hook_PreToolUse"],"timeout":10,"onFailure":"block"}]}`, nil
	}
	return "", fmt.Errorf("the bare loop has no %q", h)
}

// bareLoop is the state of one run of the bare loop: the CLI's stdin, the answer buffer, the
// clocks and the report.
type bareLoop struct {
	spec        Spec
	rep         Report
	stdin       io.Writer
	out         []byte
	t0, w0      time.Time
	sc0, c0     time.Duration
	started     bool
	stopProfile func()
}

func (b *bareLoop) write(p []byte) error {
	_, err := b.stdin.Write(p)
	return err
}

// readBareLine reads one line of the CLI's stdout; a long line (a big tool result) is read whole.
func readBareLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		rest, err2 := br.ReadBytes('\n')
		line, err = append(append([]byte(nil), line...), rest...), err2
	}
	return line, err
}

// handle handles one line read at read; done is true at the turn's result.
func (b *bareLoop) handle(line []byte, read time.Time) (done bool, err error) {
	switch gjson.GetBytes(line, "type").String() {
	case "control_request":
		if gjson.GetBytes(line, "request.subtype").String() != "hook_callback" {
			return false, fmt.Errorf("unexpected request %s", line)
		}
		return false, b.answer(line, read)
	case "control_response":
		return false, b.initialized(line)
	case "user":
		for _, c := range gjson.GetBytes(line, "message.content").Array() {
			if c.Get("type").String() == "tool_result" {
				b.rep.ToolResults++
			}
		}
	case "result":
		b.rep.WallNS, b.rep.CPUNS = int64(time.Since(b.w0)), int64(processCPU()-b.c0)
		if gjson.GetBytes(line, "is_error").Bool() {
			return true, fmt.Errorf("the turn failed: %s", line)
		}
		return true, nil
	}
	return false, nil
}

// answer answers a hook_callback line.
func (b *bareLoop) answer(line []byte, read time.Time) error {
	id := gjson.GetBytes(line, "request_id").String()
	b.out = append(b.out[:0], `{"type":"control_response","response":{"subtype":"success","request_id":"`...)
	b.out = append(b.out, id...)
	if b.spec.Hooks == hooksDeny && gjson.GetBytes(line, "request.input.hook_event_name").String() == "PreToolUse" {
		b.out = append(b.out, `","response":{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by the benchmark"}}}}`+"\n"...)
	} else {
		b.out = append(b.out, `","response":{}}}`+"\n"...)
	}
	if err := b.write(b.out); err != nil {
		return err
	}
	b.rep.RoundTripNS = append(b.rep.RoundTripNS, int64(time.Since(read)))
	return nil
}

// initialized handles the answer to initialize: the start-up is over, the turn starts.
func (b *bareLoop) initialized(line []byte) error {
	if b.started || gjson.GetBytes(line, "response.request_id").String() != "init" {
		return nil
	}
	if gjson.GetBytes(line, "response.subtype").String() != "success" {
		return fmt.Errorf("initialize: %s", line)
	}
	b.rep.StartNS, b.rep.StartCPUNS = int64(time.Since(b.t0)), int64(processCPU()-b.sc0)
	b.started = true
	b.stopProfile = startProfile()
	b.c0, b.w0 = processCPU(), time.Now()
	return b.write([]byte(`{"type":"user","message":{"role":"user","content":"run the benchmark"},"parent_tool_use_id":null,"session_id":"default"}` + "\n"))
}
