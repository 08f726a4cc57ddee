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
	var rep Report
	var hooks string
	switch spec.Hooks {
	case hooksNone:
	case hooksPass:
		hooks = `,"hooks":{"PreToolUse":[{"hookCallbackIds":["hook_PreToolUse"],"timeout":10,"onFailure":"block"}],` +
			`"PostToolUse":[{"hookCallbackIds":["hook_PostToolUse"],"timeout":10}]}`
	case hooksDeny:
		hooks = `,"hooks":{"PreToolUse":[{"hookCallbackIds":["hook_PreToolUse"],"timeout":10,"onFailure":"block"}]}`
	default:
		return rep, fmt.Errorf("the bare loop has no %q", spec.Hooks)
	}
	cmd := exec.Command(spec.CLI, "--output-format=stream-json", "--verbose", "--input-format=stream-json",
		"--allowedTools=Bash", "--system-prompt="+benchSystemPrompt)
	cmd.Dir = spec.Dir
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return rep, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return rep, err
	}
	t0, sc0 := time.Now(), processCPU()
	if err := cmd.Start(); err != nil {
		return rep, err
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	br := bufio.NewReaderSize(stdout, 64<<10)
	out := make([]byte, 0, 512)
	write := func(b []byte) error {
		_, err := stdin.Write(b)
		return err
	}
	if err := write([]byte(`{"type":"control_request","request_id":"init","request":{"subtype":"initialize"` + hooks + `}}` + "\n")); err != nil {
		return rep, err
	}
	rep.RoundTripNS = make([]int64, 0, 2*spec.Calls)
	// answer answers a hook_callback line.
	answer := func(line []byte, read time.Time) error {
		id := gjson.GetBytes(line, "request_id").String()
		out = append(out[:0], `{"type":"control_response","response":{"subtype":"success","request_id":"`...)
		out = append(out, id...)
		if spec.Hooks == hooksDeny && gjson.GetBytes(line, "request.input.hook_event_name").String() == "PreToolUse" {
			out = append(out, `","response":{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by the benchmark"}}}}`+"\n"...)
		} else {
			out = append(out, `","response":{}}}`+"\n"...)
		}
		if err := write(out); err != nil {
			return err
		}
		rep.RoundTripNS = append(rep.RoundTripNS, int64(time.Since(read)))
		return nil
	}
	var c0 time.Duration
	var w0 time.Time
	started := false
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A long line (a big tool result): read the rest of it.
			rest, err2 := br.ReadBytes('\n')
			line, err = append(append([]byte(nil), line...), rest...), err2
		}
		if err != nil {
			return rep, fmt.Errorf("reading the CLI: %w", err)
		}
		read := time.Now()
		switch gjson.GetBytes(line, "type").String() {
		case "control_request":
			if gjson.GetBytes(line, "request.subtype").String() != "hook_callback" {
				return rep, fmt.Errorf("unexpected request %s", line)
			}
			if err := answer(line, read); err != nil {
				return rep, err
			}
		case "control_response":
			if started || gjson.GetBytes(line, "response.request_id").String() != "init" {
				continue
			}
			if gjson.GetBytes(line, "response.subtype").String() != "success" {
				return rep, fmt.Errorf("initialize: %s", line)
			}
			rep.StartNS, rep.StartCPUNS = int64(time.Since(t0)), int64(processCPU()-sc0)
			started = true
			defer startProfile()()
			c0, w0 = processCPU(), time.Now()
			if err := write([]byte(`{"type":"user","message":{"role":"user","content":"run the benchmark"},"parent_tool_use_id":null,"session_id":"default"}` + "\n")); err != nil {
				return rep, err
			}
		case "user":
			for _, c := range gjson.GetBytes(line, "message.content").Array() {
				if c.Get("type").String() == "tool_result" {
					rep.ToolResults++
				}
			}
		case "result":
			rep.WallNS, rep.CPUNS = int64(time.Since(w0)), int64(processCPU()-c0)
			if gjson.GetBytes(line, "is_error").Bool() {
				return rep, fmt.Errorf("the turn failed: %s", line)
			}
			return rep, nil
		}
	}
}
