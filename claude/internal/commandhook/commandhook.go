package commandhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/hookwire/agent-sdk-go/claude/internal/childenv"
	"github.com/hookwire/agent-sdk-go/claude/internal/procgroup"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// DefaultOutputLimit bounds what a command hook's stdout and stderr may hold each.
const DefaultOutputLimit = 1 << 20

// EnvLimit bounds the size of HOOK_TOOL_INPUT and HOOK_TOOL_OUTPUT in a command hook's
// environment: 32 KiB. Linux refuses to start a program with one environment variable over 128 KiB
// (MAX_ARG_STRLEN), and all of them together must fit in a few MiB, so a larger value is left out
// and HOOK_TOOL_INPUT_OMITTED (HOOK_TOOL_OUTPUT_OMITTED) holds its size in bytes instead. The JSON on
// stdin always carries the whole input and output.
const EnvLimit = 32 << 10

// AsyncPhaseEnv is set to "1" in the environment of the second run of a command hook that answered
// {"async":true} (see New).
const AsyncPhaseEnv = "HOOK_ASYNC_PHASE"

// New returns a HookHandler that runs command through a shell with the protocol of command hooks;
// v2.CommandHandler documents it (it is the public constructor).
func New(command string, opts shared.CommandHookOptions) shared.HookHandler {
	if len(opts.Shell) == 0 {
		opts.Shell = []string{"sh", "-c"}
	}
	if opts.OutputLimit <= 0 {
		opts.OutputLimit = DefaultOutputLimit
	}
	return shared.HookHandlerFunc(func(ctx context.Context, in shared.HookInput) (shared.HookOutput, error) {
		out, err := runCommandHook(ctx, command, opts, in, nil)
		a, ok := out.(*shared.AsyncHookOutput)
		if err != nil || !ok {
			return out, err
		}
		timeout := time.Duration(a.AsyncTimeout) * time.Millisecond
		return shared.Async(timeout, func(ctx context.Context) (shared.HookOutput, error) {
			out, err := runCommandHook(ctx, command, opts, in, []string{AsyncPhaseEnv + "=1"})
			if _, again := out.(*shared.AsyncHookOutput); again {
				return nil, fmt.Errorf("command hook %q answered async again in its background run", command)
			}
			return out, err
		}), nil
	})
}

// runCommandHook runs command once with the command-hook protocol; env is added last.
func runCommandHook(ctx context.Context, command string, opts shared.CommandHookOptions, in shared.HookInput, env []string) (shared.HookOutput, error) {
	stdin, err := hookStdin(in)
	if err != nil {
		return nil, err
	}
	cmd := hookCommand(command, opts, in, env)
	cmd.Stdin = bytes.NewReader(stdin)
	progress := progressOf(ctx, opts)
	stdout := &capped{limit: opts.OutputLimit, stream: "stdout", progress: progress}
	stderr := &capped{limit: opts.OutputLimit, stream: "stderr", progress: progress}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("command hook %q: %w", command, err)
	}
	werr, err := wait(ctx, cmd)
	if err != nil {
		return nil, err
	}
	stdout.flush()
	stderr.flush()
	code := 0
	if werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			return nil, fmt.Errorf("command hook %q: %w", command, werr)
		}
		code = ee.ExitCode()
	}
	return answer(command, in.Base().HookEventName, code, stdout.String(), stderr.String())
}

// hookStdin returns what the command reads: the CLI's hook input as it came, or in encoded.
func hookStdin(in shared.HookInput) ([]byte, error) {
	if raw := in.Base().Raw; len(raw) > 0 {
		return []byte(raw), nil
	}
	return json.Marshal(in)
}

// hookCommand returns the command to run, in opts.Dir or the hook input's cwd, with its own
// process group.
func hookCommand(command string, opts shared.CommandHookOptions, in shared.HookInput, env []string) *exec.Cmd {
	args := append(append([]string{}, opts.Shell[1:]...), command)
	cmd := exec.Command(opts.Shell[0], args...)
	cmd.Dir = opts.Dir
	if cwd := in.Base().Cwd; cmd.Dir == "" && cwd != "" {
		if fi, err := os.Stat(cwd); err == nil && fi.IsDir() {
			cmd.Dir = cwd
		}
	}
	cmd.Env = childenv.Build(nil, commandEnv(in), opts.Env, env)
	procgroup.Own(cmd)
	// A background grandchild may hold the output pipes open after the command exits.
	cmd.WaitDelay = 500 * time.Millisecond
	return cmd
}

// progressOf returns the function the output lines go to (opts.Progress and ctx's
// shared.HookProgressFrom), or nil when there is none.
func progressOf(ctx context.Context, opts shared.CommandHookOptions) func(stream, line string) {
	report := shared.HookProgressFrom(ctx)
	if report == nil && opts.Progress == nil {
		return nil
	}
	// stdout and stderr are copied on two goroutines: one line at a time to the receivers.
	var mu sync.Mutex
	return func(stream, line string) {
		mu.Lock()
		defer mu.Unlock()
		if opts.Progress != nil {
			opts.Progress(stream, line)
		}
		if report != nil {
			report(stream, line)
		}
	}
}

// wait returns the started cmd's Wait error, or ctx's error when ctx ends first (the command's
// group is then killed). Tools the command left in the background are killed either way.
func wait(ctx context.Context, cmd *exec.Cmd) (werr, ctxErr error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // ends when the command and its output pipes are done
	select {
	case werr = <-done:
	case <-ctx.Done():
		procgroup.Kill(cmd.Process)
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			// A grandchild kept the output pipes open; its group is killed, give up waiting.
		}
		return nil, ctx.Err()
	}
	// Tools left in the background by the command must not outlive it.
	procgroup.Kill(cmd.Process)
	return werr, nil
}

// answer reads a finished command's exit code and output as the CLI does: 0 with JSON is an
// answer, 0 with text a system message, 2 a block with stderr as the reason, anything else an
// error.
func answer(command string, e shared.HookEvent, code int, stdout, stderr string) (shared.HookOutput, error) {
	switch code {
	case 0:
		out := strings.TrimSpace(stdout)
		if out == "" {
			return nil, nil
		}
		if strings.HasPrefix(out, "{") {
			o, err := decodeCommandOutput(e, []byte(out))
			if err != nil {
				return nil, fmt.Errorf("command hook %q printed an answer the SDK refuses: %w", command, err)
			}
			return o, nil
		}
		return &shared.SyncHookOutput{SystemMessage: strings.ToValidUTF8(out, "\uFFFD")}, nil
	case 2:
		// A command's bytes may be anything; the answer must encode (JSON v2 refuses invalid UTF-8).
		reason := strings.ToValidUTF8(strings.TrimSpace(stderr), "\uFFFD")
		if reason == "" {
			reason = "blocked by command hook " + command
		}
		return shared.Block(reason), nil // each event's own denial (shared.SyncHookOutput.Decision)
	}
	return nil, &shared.CommandExitError{Command: command, ExitCode: code, Stderr: stderr}
}

// commandOutput is a command hook's stdout as the CLI reads it: exact key names, unknown keys
// ignored.
type commandOutput struct {
	Continue           *bool          `json:"continue"`
	SuppressOutput     bool           `json:"suppressOutput"`
	StopReason         string         `json:"stopReason"`
	Decision           string         `json:"decision"`
	Reason             string         `json:"reason"`
	SystemMessage      string         `json:"systemMessage"`
	HookSpecificOutput map[string]any `json:"hookSpecificOutput"`
	Async              bool           `json:"async"`
	AsyncTimeout       int            `json:"asyncTimeout"`
}

// decodeCommandOutput reads a command hook's JSON stdout for event e with JSON v2 semantics (exact
// key names; duplicate keys and invalid UTF-8 are errors). hookSpecificOutput is kept raw: the SDK
// reads it as the CLI would on events that guard an action (shared.RawSpecificOutput).
func decodeCommandOutput(e shared.HookEvent, b []byte) (shared.HookOutput, error) {
	var w commandOutput
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	if w.Async {
		return &shared.AsyncHookOutput{Async: true, AsyncTimeout: w.AsyncTimeout}, nil
	}
	var d shared.Decision
	switch w.Decision {
	case "":
	case "approve":
		d = shared.DecisionAllow
	case "block":
		d = shared.DecisionBlock
	default:
		return nil, fmt.Errorf("decision %q is not one the CLI reads (approve, block)", w.Decision)
	}
	out := &shared.SyncHookOutput{
		StopReason:     w.StopReason,
		SuppressOutput: w.SuppressOutput,
		Decision:       d,
		Reason:         w.Reason,
		SystemMessage:  w.SystemMessage,
	}
	if w.Continue != nil {
		out.Continue = shared.ContinueNo
		if *w.Continue {
			out.Continue = shared.ContinueYes
		}
	}
	if w.HookSpecificOutput != nil {
		if name, ok := w.HookSpecificOutput["hookEventName"]; ok && name != string(e) {
			return nil, fmt.Errorf("hookSpecificOutput is for %v, not %s", name, e)
		}
		out.HookSpecificOutput = &shared.RawSpecificOutput{Fields: w.HookSpecificOutput}
	}
	return out, nil
}

func commandEnv(in shared.HookInput) []string {
	b := in.Base()
	env := []string{
		"HOOK_EVENT=" + string(b.HookEventName),
		"CLAUDE_PROJECT_DIR=" + b.Cwd,
		"CLAUDE_SESSION_ID=" + b.SessionID,
	}
	capped := func(name, value string) {
		if len(value) > EnvLimit {
			env = append(env, fmt.Sprintf("%s_OMITTED=%d", name, len(value)))
			return
		}
		env = append(env, name+"="+value)
	}
	if tc := shared.ToolCall(in); tc != nil {
		ti, _ := json.Marshal(tc.ToolInput)
		env = append(env, "HOOK_TOOL_NAME="+tc.ToolName)
		capped("HOOK_TOOL_INPUT", string(ti))
	}
	switch v := in.(type) {
	case *shared.PostToolUseHookInput:
		capped("HOOK_TOOL_OUTPUT", string(v.ToolResponse))
		env = append(env, "HOOK_TOOL_IS_ERROR=0")
	case *shared.PostToolUseFailureHookInput:
		capped("HOOK_TOOL_OUTPUT", v.Error)
		env = append(env, "HOOK_TOOL_IS_ERROR=1")
	}
	return env
}

// capped keeps at most limit bytes and reports complete lines to progress as they come.
type capped struct {
	mu       sync.Mutex
	limit    int
	buf      bytes.Buffer
	cut      bool
	stream   string
	progress func(stream, line string)
	partial  []byte
	skipping bool // inside a line longer than limit: dropped up to its newline
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.limit - c.buf.Len(); room > 0 {
		if len(p) > room {
			c.buf.Write(p[:room])
			c.cut = true
		} else {
			c.buf.Write(p)
		}
	} else if len(p) > 0 {
		c.cut = true
	}
	if c.progress != nil {
		for len(p) > 0 {
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				if !c.skipping {
					c.partial = append(c.partial, p...)
					if len(c.partial) > c.limit {
						c.partial, c.skipping = c.partial[:0], true
					}
				}
				break
			}
			if !c.skipping {
				c.partial = append(c.partial, p[:i]...)
				if len(c.partial) <= c.limit {
					c.progress(c.stream, string(c.partial))
				}
			}
			c.partial, c.skipping = c.partial[:0], false
			p = p[i+1:]
		}
	}
	return n, nil
}

func (c *capped) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress != nil && len(c.partial) > 0 && !c.skipping {
		c.progress(c.stream, string(c.partial))
		c.partial = nil
	}
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.buf.String()
	if c.cut {
		s += "\n[output cut at " + fmt.Sprint(c.limit) + " bytes]"
	}
	return s
}
