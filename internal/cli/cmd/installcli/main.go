// Command installcli makes sure the pinned Claude Code CLI is installed
// (under <repo root>/.cache/claude-cli unless CLAUDE_CLI_PATH is set) and
// prints its path.
//
//	go run ./internal/cli/cmd/installcli
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/hookwire/agent-sdk-go/internal/cli"
)

func main() {
	p, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "installcli:", err)
		os.Exit(1)
	}
	fmt.Println(p)
}

func run() (string, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	return cli.Ensure(ctx)
}
