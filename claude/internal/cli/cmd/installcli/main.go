// Command installcli makes sure the pinned Claude Code CLI is installed
// (under <repo root>/.cache/claude-cli unless CLAUDE_CLI_PATH is set) and
// prints its path.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	p, err := cli.Ensure(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "installcli:", err)
		os.Exit(1)
	}
	fmt.Println(p)
}
