// Package demo is the harness shared by the programs under examples/. It turns a handful of flags
// into the v2.Options of a session that runs the real Claude Code CLI against a scripted fake
// Messages API on 127.0.0.1 (package claudetest), so that every example runs offline in one command:
//
//	go run -C examples ./hooks-validation
//
// With -real-api (and ANTHROPIC_API_KEY set) the fake API is skipped and the CLI talks to the real
// Anthropic API with the user's own environment.
//
// A typical main:
//
//	func run() int {
//		fs := flag.NewFlagSet("hooks-x", flag.ContinueOnError)
//		f := demo.NewFlags(fs, "default prompt")
//		return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
//			s, err := v2.CreateSession(ctx, env.Options(v2.WithHooks(hooks))...)
//			...
//		})
//	}
package demo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// pathEnv names the variable that overrides the CLI location (see claudetest.FindCLI).
const pathEnv = "CLAUDE_CLI_PATH"

// Timeout bounds one whole example run, so that a stuck CLI never hangs a newcomer's terminal.
const Timeout = 5 * time.Minute

// Flags are the flags every example shares.
type Flags struct {
	// CLI is -cli: the CLI binary. Default: what claudetest.FindCLI finds ($CLAUDE_CLI_PATH, a
	// .cache/claude-cli install, the per-user install, claude on PATH of the pinned version),
	// else the pinned version installed with npm into the per-user cache when npm is on PATH.
	CLI string
	// Prompt is -prompt: the first prompt sent. With the fake API it only labels the turn (the
	// script decides what the "model" does); with -real-api it is what the model reads.
	Prompt string
	// Dir is -dir: the project (working) directory, created if missing and kept. Default: a fresh
	// temporary directory, removed at the end.
	Dir string
	// RealAPI is -real-api: use the real Anthropic API (needs ANTHROPIC_API_KEY) instead of the
	// fake one. Default: off.
	RealAPI bool
}

// NewFlags registers -cli, -prompt, -dir and -real-api on fs, with prompt as -prompt's default.
func NewFlags(fs *flag.FlagSet, prompt string) *Flags {
	f := &Flags{}
	fs.StringVar(&f.CLI, "cli", "", "Claude CLI binary (default: $"+pathEnv+", else the pinned install claudetest.FindCLI finds)")
	fs.StringVar(&f.Prompt, "prompt", prompt, "first prompt (with the fake API, the script decides what the model does)")
	fs.StringVar(&f.Dir, "dir", "", "project directory (default: a fresh temporary directory, removed at the end)")
	fs.BoolVar(&f.RealAPI, "real-api", false, "use the real Anthropic API (needs ANTHROPIC_API_KEY) instead of the local fake")
	return f
}

// Script computes the fake model's replies from the project directory (absolute, symlinks
// resolved). It is not called with -real-api.
type Script func(dir string) []claudetest.Reply

// Env is one prepared example run. Close releases it.
type Env struct {
	// Dir is the project directory: absolute, symlinks resolved.
	Dir string
	// CLIPath is the CLI binary in use.
	CLIPath string
	// API is the fake Messages API, nil with -real-api.
	API *claudetest.Model
	// RealAPI reports that the run talks to the real Anthropic API.
	RealAPI bool

	opts     []v2.Option
	cleanups []func()
}

// Options returns the options that point a session at the CLI, the project directory and the API,
// followed by more.
func (e *Env) Options(more ...v2.Option) []v2.Option {
	return append(append([]v2.Option{}, e.opts...), more...)
}

// Close stops the fake API and removes what Setup created (the scratch HOME, and the project
// directory when it was a temporary one). It is safe to call more than once.
func (e *Env) Close() {
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		e.cleanups[i]()
	}
	e.cleanups = nil
}

// Setup finds the CLI, prepares the project directory and, unless f.RealAPI, starts the fake API
// with script(dir) and makes a scratch HOME so that the user's own CLI settings never leak in.
// The caller must Close the Env.
func Setup(ctx context.Context, f *Flags, script Script) (env *Env, err error) {
	env = &Env{RealAPI: f.RealAPI}
	defer func() {
		if err != nil {
			env.Close()
			env = nil
		}
	}()
	if f.RealAPI && os.Getenv("ANTHROPIC_API_KEY") == "" {
		return env, errors.New("demo: -real-api needs ANTHROPIC_API_KEY in the environment")
	}
	if env.CLIPath, err = FindCLI(ctx, f.CLI); err != nil {
		return env, err
	}
	if env.Dir, err = projectDir(f.Dir, env); err != nil {
		return env, err
	}
	env.opts = []v2.Option{v2.WithCLIPath(env.CLIPath), v2.WithCwd(env.Dir)}
	if f.RealAPI {
		return env, nil // the user's environment, HOME and credentials, as is
	}
	home, err := os.MkdirTemp("", "demo-home-")
	if err != nil {
		return env, fmt.Errorf("demo: scratch HOME: %w", err)
	}
	env.cleanups = append(env.cleanups, func() { os.RemoveAll(home) })
	env.API = claudetest.NewModel(script(env.Dir)...)
	env.cleanups = append(env.cleanups, env.API.Close)
	env.opts = append(env.opts, v2.WithBaseEnv(claudetest.CLIEnv(home, env.API.URL())...))
	return env, nil
}

// projectDir returns dir (created if missing), or a fresh temporary directory removed at Close;
// either way absolute with symlinks resolved, as the CLI reports its cwd.
func projectDir(dir string, env *Env) (string, error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "demo-project-")
		if err != nil {
			return "", fmt.Errorf("demo: project dir: %w", err)
		}
		env.cleanups = append(env.cleanups, func() { os.RemoveAll(tmp) })
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("demo: project dir: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("demo: project dir: %w", err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// FindCLI returns explicit if set (it must exist), else the CLI claudetest.FindCLI finds, else
// installs the pinned one with npm into the per-user cache (claudetest.InstallCLI) when npm is on
// PATH. The error says how to install it by hand.
func FindCLI(ctx context.Context, explicit string) (string, error) {
	if explicit != "" {
		if st, err := os.Stat(explicit); err != nil || st.IsDir() {
			return "", fmt.Errorf("demo: -cli %q: not a file", explicit)
		}
		return explicit, nil
	}
	p, findErr := claudetest.FindCLI()
	if findErr == nil {
		return p, nil
	}
	howTo := fmt.Sprintf("install it with `go run ./claude/claudetest/cmd/installcli` from the repository (needs npm), "+
		"or `npm install @anthropic-ai/claude-code@%s` and pass -cli <path>/node_modules/.bin/claude (or set %s)", claudetest.CLIVersion, pathEnv)
	if os.Getenv(pathEnv) != "" {
		return "", fmt.Errorf("%w\n%s", findErr, howTo)
	}
	var installErr error
	if _, err := exec.LookPath("npm"); err == nil {
		fmt.Fprintf(os.Stderr, "demo: Claude CLI not found; installing @anthropic-ai/claude-code@%s with npm into the per-user cache ...\n", claudetest.CLIVersion)
		p, installErr = claudetest.InstallCLI(ctx, "")
		if installErr == nil {
			return p, nil
		}
	} else {
		installErr = errors.New("npm is not on PATH")
	}
	// Last resort, never in CI: the CLI simulator of claude/claudetest/claudesim, so that the demo still shows
	// the hooks at work. It is not the real CLI, and the demo says so.
	if os.Getenv("CI") != "true" {
		if sim, err := buildSimulator(ctx); err == nil {
			fmt.Fprintf(os.Stderr, "demo: the real Claude CLI is not available (%v); running against the CLI SIMULATOR (claude/claudetest/claudesim), not the real CLI\n", installErr)
			return sim, nil
		}
	}
	return "", fmt.Errorf("demo: installing the CLI: %w\n%s", installErr, howTo)
}

// buildSimulator builds claude/claudetest/claudesim/cmd/claude-sim into a temporary directory, with the go
// command of the working directory's module (this repository, or its examples module).
func buildSimulator(ctx context.Context) (string, error) {
	dir, err := os.MkdirTemp("", "claude-sim")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "claude-sim")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/hookwire/agent-sdk-go/claude/claudetest/claudesim/cmd/claude-sim")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the simulator: %v: %s", err, out)
	}
	return bin, nil
}

// Main parses args into fs (on which f was registered), sets up the Env, runs body and returns the
// process exit code: 0 on success, 2 for bad flags, 1 when setup or body fails (the error is
// printed on stderr). The context passed to body is cancelled on Ctrl-C and after Timeout.
func Main(fs *flag.FlagSet, args []string, f *Flags, script Script, body func(context.Context, *Env) error) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	env, err := Setup(ctx, f, script)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", fs.Name(), err)
		return 1
	}
	defer env.Close()
	api := "local fake API"
	if env.RealAPI {
		api = "real Anthropic API"
	}
	fmt.Fprintf(os.Stderr, "%s: CLI %s, %s, project %s\n", fs.Name(), env.CLIPath, api, env.Dir)
	if err := body(ctx, env); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", fs.Name(), err)
		return 1
	}
	return 0
}
