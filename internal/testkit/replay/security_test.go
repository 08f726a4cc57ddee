package replay

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// Security: the rollback switch is loud and refusable, the SDK's logs never carry tool inputs or
// environment values, and the temporary files the SDK makes are private and removed. The tests
// that set the environment (t.Setenv) do not run in parallel.

// TestRollbackSwitch: AGENT_SDK_HOOKS_ENABLED=false turns the Go hooks off, but never silently: it
// logs an error, reports it in Info().HooksDisabledByEnv, registers no hook with the CLI (a hook
// request that comes anyway is denied, the handler never runs), and WithStrictHooks refuses to
// start at all. Other values leave the hooks on.
func TestRollbackSwitch(t *testing.T) {
	tests := []struct {
		value    string
		disabled bool
	}{
		{"false", true},
		{" FALSE ", true},
		{"true", false},
		{"", false},
		{"0", false}, // only "false" switches hooks off
	}
	for _, tt := range tests {
		t.Run(strings.TrimSpace(tt.value)+"/"+map[bool]string{true: "disabled", false: "enabled"}[tt.disabled], func(t *testing.T) {
			t.Setenv(v2.HooksEnabledEnv, tt.value)
			answer := `expect {"type":"control_response","response":{"request_id":"c1","response":{"hookSpecificOutput":{"permissionDecision":"allow"}}}}`
			if tt.disabled {
				answer = `expect {"type":"control_response","response":{"request_id":"c1","response":{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"~no Go hook is registered*"}}}}`
			}
			f := newFake(t, initExpect, initAnswer, userExpect,
				hookCallback("c1", "PreToolUse", "Bash", map[string]any{"command": "ls"}), answer, resultLine)
			ran := false
			s := f.start(t, v2.WithHook(shared.HookEventPreToolUse, "Bash", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				ran = true
				return shared.Allow(), nil
			})))
			if got := s.Info().HooksDisabledByEnv; got != tt.disabled {
				t.Errorf("Info().HooksDisabledByEnv = %v, want %v", got, tt.disabled)
			}
			if _, err := s.Run(testCtx(t), "go"); err != nil {
				t.Fatalf("Run: %v (the fake checks the hook's answer)", err)
			}
			s.Close()
			if ran == tt.disabled {
				t.Errorf("the Go hook ran = %v with %s=%q", ran, v2.HooksEnabledEnv, tt.value)
			}
			init := f.written(t)[0]
			_, registered := init["request"].(map[string]any)["hooks"]
			if registered == tt.disabled {
				t.Errorf("hooks registered with the CLI = %v, want %v: %v", registered, !tt.disabled, init)
			}
			logged := strings.Contains(f.logs.String(), "level=ERROR") && strings.Contains(f.logs.String(), "DISABLED by the rollback switch")
			if logged != tt.disabled {
				t.Errorf("the rollback switch logged at error level = %v, want %v; log:\n%s", logged, tt.disabled, f.logs.String())
			}
		})
	}
	t.Run("strict refuses to start", func(t *testing.T) {
		t.Setenv(v2.HooksEnabledEnv, "false")
		f := newFake(t, initExpect, initAnswer, "eof")
		args := filepath.Join(f.dir, "args.txt")
		t.Setenv("CLAUDE_REPLAY_ARGS", args)
		s, err := v2.CreateSession(testCtx(t), append(f.options(t), v2.WithStrictHooks(),
			v2.WithHook(shared.HookEventPreToolUse, "", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil })))...)
		if err == nil {
			s.Close()
			t.Fatal("CreateSession succeeded with strict hooks and hooks switched off")
		}
		if !errors.Is(err, v2.ErrHooksNotEnforced) || !strings.Contains(err.Error(), v2.HooksEnabledEnv) {
			t.Errorf("CreateSession = %v, want ErrHooksNotEnforced naming %s", err, v2.HooksEnabledEnv)
		}
		if _, err := os.Stat(args); err == nil {
			t.Error("the CLI was started")
		}
	})
}

// TestNoSecretsInLogs: tool inputs carry file contents and commands, the environment carries
// tokens. A session runs through every failure path that logs, with a secret in the tool inputs,
// in the environment and on the CLI's stderr, and logs at debug level: the failures are logged,
// the secrets never.
func TestNoSecretsInLogs(t *testing.T) {
	t.Parallel()
	const secret, envSecret = "sk-live-SECRET-7f3a9c", "ENV-SECRET-41d2"
	cmd := map[string]any{"command": "curl -H 'Authorization: Bearer " + secret + "' https://x"}
	file := map[string]any{"file_path": "/proj/.env", "content": "TOKEN=" + secret}
	badType := `send {"type":"control_request","request_id":"b1","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","input":{"session_id":"s1","cwd":"/proj","hook_event_name":"PreToolUse","tool_name":42,"tool_input":{"command":"` + secret + `"}}}}`
	noEvent := `send {"type":"control_request","request_id":"b2","request":{"subtype":"hook_callback","callback_id":"hook_PreToolUse","input":{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"` + secret + `"}}}}`
	f := newFake(t,
		initExpect, initAnswer, userExpect,
		"stderr the CLI prints its environment: MY_TOKEN="+envSecret+" and a tool input "+secret,
		hookCallback("c1", "PreToolUse", "Bash", cmd),   // panics
		hookCallback("c2", "PreToolUse", "Write", file), // times out
		hookCallback("c3", "PostToolUse", "Bash", cmd),  // answers nonsense
		hookCallback("c4", "PermissionRequest", "Bash", cmd),
		canUseToolLine("p1", "Bash", cmd), // panics
		badType, noEvent,
		hookCallback("c2", "PreToolUse", "Write", file), // a duplicate while c2 runs (for 1 s)
		`sendraw {"type":"assistant","message":{"content":"`+secret,
		`sendraw not JSON at all: `+secret,
		`send {"type":"brand_new","secret":"`+secret+`"}`,
		`send {"type":"control_response","response":{"subtype":"success","request_id":"nobody","response":{"x":"`+secret+`"}}}`,
		`send {"type":"control_cancel_request","request_id":"`+secret+`"}`,
		`send {"type":"hook_event","hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":"`+secret+`","tool_use_id":"t9"}`,
		`send {"type":"system","subtype":"init","session_id":"s1","pad":"`+strings.Repeat(secret, 300)+`"}`, // over the line limit
		"unordered 9",
		`expect {"type":"control_response","response":{"request_id":"c1","response":{"hookSpecificOutput":{"permissionDecision":"deny"}}}}`,
		`expect {"type":"control_response","response":{"request_id":"c2","response":{"hookSpecificOutput":{"permissionDecision":"deny"}}}}`,
		// The duplicate c2 is denied at once; the first c2 is denied at its timeout.
		`expect {"type":"control_response","response":{"request_id":"c2","response":{"hookSpecificOutput":{"permissionDecision":"deny"}}}}`,
		`expect {"type":"control_response","response":{"request_id":"c3"}}`,
		`expect {"type":"control_response","response":{"request_id":"c4","response":{"hookSpecificOutput":{"decision":{"behavior":"deny"}}}}}`,
		`expect {"type":"control_response","response":{"request_id":"p1","response":{"behavior":"deny"}}}`,
		`expect {"type":"control_response","response":{"request_id":"b1","response":{"hookSpecificOutput":{"permissionDecision":"deny"}}}}`,
		`expect {"type":"control_response","response":{"subtype":"success","request_id":"b2","response":{"hookSpecificOutput":{"permissionDecision":"deny"}}}}`,
		`expect {"type":"hook_response","tool_use_id":"t9","hookSpecificOutput":{"permissionDecision":"deny"}}`,
		resultLine,
		"stderr fatal: crashed with "+secret,
		"exit 3",
	)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	s := f.start(t,
		v2.WithEnv("MY_TOKEN="+envSecret),
		v2.WithMaxLineSize(4096),
		v2.WithHookTimeout(200*time.Millisecond),
		v2.WithHooks(shared.Hooks{
			shared.HookEventPreToolUse: {
				{Matcher: "Bash", Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { panic("the handler exploded") })},
				{Matcher: "Write", Timeout: time.Second, Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
					<-release
					return shared.Allow(), nil
				})},
			},
			shared.HookEventPostToolUse: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				return &shared.SyncHookOutput{Decision: "maybe"}, nil
			})}},
			shared.HookEventPermissionRequest: {{Handler: shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) {
				return nil, errors.New("the policy service is down")
			})}},
		}),
		v2.WithCanUseTool(func(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
			panic("the permission callback exploded")
		}),
	)
	// The failed guards are the turn's refusals (v2.ErrGuardFailed); anything else is not.
	if _, err := s.Run(testCtx(t), "go"); err != nil && !errors.Is(err, v2.ErrGuardFailed) {
		t.Fatalf("Run: %v (the fake checks every answer)", err)
	}
	for range s.Receive(testCtx(t)) {
	}
	closeErr := s.Close()
	if closeErr == nil || !strings.Contains(closeErr.Error(), "exited with code 3") {
		t.Errorf("Close = %v, want the crash", closeErr)
	}
	logs := f.logs.String()
	for _, want := range []string{"hook panicked", "hook timed out", "invalid hook output", "policy service is down",
		"permission callback panicked", "duplicate request id", "skipped a line"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not show %q: the failure path was not taken", want)
		}
	}
	for _, s := range []string{secret, envSecret, "SECRET"} {
		if strings.Contains(logs, s) {
			t.Errorf("the log contains %q:\n%s", s, logs)
		}
	}
}

// TestTempFiles: the SDK's only temporary file is the --settings file of settings command hooks:
// mode 0600 while the session runs, removed by Close, and removed when the session fails to start
// (the CLI crashes, or ctx ends during initialize). A session without settings hooks makes none.
func TestTempFiles(t *testing.T) {
	// The SDK asks the CLI whether it runs the settings hooks (get_hooks_listing): in force.
	const (
		listingExpect = `expect {"type":"control_request","request_id":"$capture:hl","request":{"subtype":"get_hooks_listing"}}`
		listingAnswer = `send {"type":"control_response","response":{"subtype":"success","request_id":"$hl","response":{"hooks":[{"event":"PreToolUse","source":"flagSettings"}],"policy":{}}}}`
	)
	cmdHooks := v2.WithCommandHooks(map[shared.HookEvent][]v2.SettingsCommandHook{
		shared.HookEventPreToolUse: {{Matcher: "Bash", Command: "./check-command.sh --token-file /run/secret"}},
	})
	tests := []struct {
		name       string
		transcript []string
		opts       []v2.Option
		settings   bool
		startFails bool
	}{
		{"Go hooks only", []string{initExpect, initAnswer, "eof"}, []v2.Option{v2.WithHook(shared.HookEventPreToolUse, "", shared.HookHandlerFunc(func(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil }))}, false, false},
		{"settings command hooks", []string{initExpect, initAnswer, listingExpect, listingAnswer, "eof"}, []v2.Option{cmdHooks}, true, false},
		{"settings hooks, crash at start", []string{"stderr boom", "exit 1"}, []v2.Option{cmdHooks}, true, true},
		// ctx ends during initialize: the fake says "waiting" on stderr once it has read the
		// initialize request (and written its arguments), and the test cancels ctx then. No
		// timeout decides the case, so a loaded machine cannot turn it into another.
		{"settings hooks, CLI never answers", []string{initExpect, "stderr waiting", "hang"}, []v2.Option{cmdHooks}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			f := newFake(t, tt.transcript...)
			args := filepath.Join(f.dir, "args.txt")
			t.Setenv("CLAUDE_REPLAY_ARGS", args)
			ctx, cancel := context.WithCancel(testCtx(t))
			defer cancel()
			cancelOnWaiting := v2.WithStderr(func(line string) {
				if line == "waiting" {
					cancel()
				}
			})
			s, err := v2.CreateSession(ctx, append(append(f.options(t), cancelOnWaiting), tt.opts...)...)
			if (err != nil) != tt.startFails {
				t.Fatalf("CreateSession = %v, want failure %v", err, tt.startFails)
			}
			a, _ := os.ReadFile(args)
			var settings string
			if as := strings.Split(string(a), "\n"); true {
				for i := range as {
					if v, ok := strings.CutPrefix(as[i], "--settings="); ok {
						settings = v
					}
				}
			}
			if (settings != "") != tt.settings {
				t.Fatalf("--settings %q, want a settings file: %v", settings, tt.settings)
			}
			if settings != "" && !strings.HasPrefix(settings, tmp+string(filepath.Separator)) {
				t.Errorf("the settings file %s is not in TMPDIR", settings)
			}
			if err == nil {
				if settings != "" {
					fi, err := os.Stat(settings)
					if err != nil {
						t.Fatalf("the settings file is missing while the session runs: %v", err)
					}
					if fi.Mode().Perm() != 0o600 {
						t.Errorf("the settings file has mode %v, want 0600", fi.Mode().Perm())
					}
					if b, _ := os.ReadFile(settings); !strings.Contains(string(b), "check-command.sh") {
						t.Errorf("the settings file does not hold the hook: %s", b)
					}
				}
				if err := s.Close(); err != nil {
					t.Errorf("Close = %v", err)
				}
			}
			left, _ := os.ReadDir(tmp)
			for _, e := range left {
				t.Errorf("%s is left in TMPDIR", e.Name())
			}
		})
	}
}
