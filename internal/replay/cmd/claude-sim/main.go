// Command claude-sim is a small stand-in for the Claude CLI, for demos on machines without the real
// one: see replay.Simulator. Build it and point the SDK at it:
//
//	go build -o /tmp/claude-sim ./internal/replay/cmd/claude-sim
package main

import (
	"os"

	"github.com/hookwire/agent-sdk-go/internal/replay"
)

func main() { os.Exit(replay.Simulator()) }
