package demo

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// fakeCLI returns an existing file to stand in for the CLI: Setup only checks that it exists.
func fakeCLI(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSetupFakeAPI(t *testing.T) {
	var gotDir string
	env, err := Setup(context.Background(), &Flags{CLI: fakeCLI(t)}, func(dir string) []claudetest.Reply {
		gotDir = dir
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if env.API == nil || env.RealAPI {
		t.Errorf("API = %v, RealAPI = %v; want a fake API", env.API, env.RealAPI)
	}
	if gotDir != env.Dir || !filepath.IsAbs(env.Dir) {
		t.Errorf("script got %q, Dir = %q", gotDir, env.Dir)
	}
	if real, _ := filepath.EvalSymlinks(env.Dir); real != env.Dir {
		t.Errorf("Dir %q is not symlink-resolved (%q)", env.Dir, real)
	}
	if n := len(env.Options()); n != 3 {
		t.Errorf("len(Options()) = %d, want 3 (CLI path, cwd, base env)", n)
	}
	env.Close()
	if _, err := os.Stat(env.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary project dir survived Close: %v", err)
	}
	env.Close() // twice is fine
}

func TestSetupKeepsGivenDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "project")
	env, err := Setup(context.Background(), &Flags{CLI: fakeCLI(t), Dir: dir}, func(string) []claudetest.Reply { return nil })
	if err != nil {
		t.Fatal(err)
	}
	env.Close()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("-dir was not created or not kept: %v", err)
	}
}

func TestSetupRealAPI(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	if _, err := Setup(context.Background(), &Flags{CLI: fakeCLI(t), RealAPI: true}, nil); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("-real-api without a key: err = %v", err)
	}
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-not-used")
	env, err := Setup(context.Background(), &Flags{CLI: fakeCLI(t), RealAPI: true}, func(string) []claudetest.Reply {
		t.Error("the script must not run with -real-api")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if env.API != nil || !env.RealAPI || len(env.Options()) != 2 {
		t.Errorf("API = %v, RealAPI = %v, %d options; want no fake API and the user's environment", env.API, env.RealAPI, len(env.Options()))
	}
}

func TestFindCLIErrors(t *testing.T) {
	if _, err := FindCLI(context.Background(), filepath.Join(t.TempDir(), "nope")); err == nil || !strings.Contains(err.Error(), "-cli") {
		t.Errorf("missing -cli: err = %v", err)
	}
	// A $CLAUDE_CLI_PATH that does not exist is never "fixed" by an install: say how to install.
	t.Setenv(pathEnv, filepath.Join(t.TempDir(), "nope"))
	_, err := FindCLI(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "installcli") || !strings.Contains(err.Error(), "@anthropic-ai/claude-code@"+claudetest.CLIVersion) {
		t.Errorf("missing CLI: err = %v", err)
	}
}

func TestMainExitCodes(t *testing.T) {
	newFS := func() (*flag.FlagSet, *Flags) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		return fs, NewFlags(fs, "p")
	}
	body := func(context.Context, *Env) error { return errors.New("boom") }
	fs, f := newFS()
	if got := Main(fs, []string{"-bogus"}, f, nil, body); got != 2 {
		t.Errorf("bad flag: exit %d, want 2", got)
	}
	fs, f = newFS()
	if got := Main(fs, []string{"-h"}, f, nil, body); got != 0 {
		t.Errorf("-h: exit %d, want 0", got)
	}
	fs, f = newFS()
	if got := Main(fs, []string{"-cli", fakeCLI(t)}, f, func(string) []claudetest.Reply { return nil }, body); got != 1 {
		t.Errorf("failing body: exit %d, want 1", got)
	}
	_, f = newFS()
	if f.Prompt != "p" || f.CLI != "" || f.Dir != "" || f.RealAPI {
		t.Errorf("defaults: %+v", f)
	}
}

func TestAbbrev(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"  padded \n", 10, "padded"},
		{"first\nsecond", 10, "first ..."},
		{"0123456789abc", 10, "0123456789..."},
		{"ééééé", 5, "éé..."}, // never cuts a rune in half
	}
	for _, tt := range tests {
		if got := Abbrev(tt.in, tt.n); got != tt.want {
			t.Errorf("Abbrev(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		tool string
		in   shared.ToolInput
		want string
	}{
		{"Bash", shared.ToolInput{"command": "ls -la", "description": "list"}, "ls -la"},
		{"Write", shared.ToolInput{"file_path": "/p/x", "content": "..."}, "/p/x"},
		{"Glob", shared.ToolInput{"pattern": "*.go"}, "*.go"},
		{"Other", shared.ToolInput{"a": 1}, `{"a":1}`},
		{"Other", nil, ""},
	}
	for _, tt := range tests {
		if got := Summary(tt.tool, tt.in); got != tt.want {
			t.Errorf("Summary(%s, %v) = %q, want %q", tt.tool, tt.in, got, tt.want)
		}
	}
}
