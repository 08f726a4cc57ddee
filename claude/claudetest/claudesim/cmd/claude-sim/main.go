// Command claude-sim is a small stand-in for the Claude Code CLI, for tests and demos on machines
// without Node: see package claudesim for what it has and has not. Build it and point the SDK at
// it (v2.WithCLIPath), with ANTHROPIC_BASE_URL set to a claudetest.Model:
//
//	go build -o /tmp/claude-sim github.com/hookwire/agent-sdk-go/claude/claudetest/claudesim/cmd/claude-sim
package main

import (
	"os"

	"github.com/hookwire/agent-sdk-go/claude/claudetest/claudesim"
)

func main() { os.Exit(claudesim.Main()) }
