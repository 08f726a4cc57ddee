package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/policy"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// childEnv makes the test binary the program fakemodel runs: the README's quickstart, in short.
const childEnv = "FAKEMODEL_TEST_QUICKSTART"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(quickstart())
	}
	os.Exit(m.Run())
}

// quickstart is what the README's quickstart does: a session confined to the working directory
// asked to write haiku.txt; it prints the result and fails when the file is not there.
func quickstart() int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // only catches a hang
	defer cancel()
	project, err := os.Getwd()
	if err != nil {
		fmt.Println(err)
		return 1
	}
	s, err := v2.CreateSession(ctx, v2.WithCwd(project), v2.WithPolicy(policy.Confined(project)))
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer s.Close()
	res, err := s.Run(ctx, "write a haiku to haiku.txt")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println(res.Result)
	if _, err := os.Stat(filepath.Join(project, "haiku.txt")); err != nil {
		fmt.Println(err)
		return 1
	}
	return 0
}

// TestRunsAProgramAgainstTheFakeModel: with no API key in the environment, a program run by
// fakemodel starts a session on the real CLI, whose model writes haiku.txt in the working
// directory, and fakemodel returns the program's exit status.
func TestRunsAProgramAgainstTheFakeModel(t *testing.T) {
	claudetest.RequireCLI(t)
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	t.Chdir(dir)
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv(childEnv, "1")
	code, err := run("haiku.txt", "written", []string{os.Args[0]})
	if err != nil || code != 0 {
		t.Fatalf("run = %d, %v; want 0 (the program's output is above)", code, err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "haiku.txt"))
	if err != nil || string(got) != haiku {
		t.Errorf("haiku.txt = %q, %v; want the model's haiku %q", got, err, haiku)
	}

	// The program's failure is fakemodel's exit status: the model writes outside the directory,
	// which the policy refuses, so Run fails and the program exits 1.
	code, err = run("../outside.txt", "written", []string{os.Args[0]})
	if err != nil || code != 1 {
		t.Errorf("run with a write outside = %d, %v; want 1", code, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "outside.txt")); err == nil {
		t.Error("outside.txt was written")
	}
}
