package main

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// TestOptions runs the program's options on the real CLI against a scripted model.
func TestOptions(t *testing.T) {
	env := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		return claudetest.NewModel(claudetest.TextReply("done"))
	})
	res, err := env.Run("hello", options(env.Project)...)
	if err != nil {
		t.Fatal(err)
	}
	if res.Result != "done" {
		t.Errorf("result %q, want %q", res.Result, "done")
	}
}
