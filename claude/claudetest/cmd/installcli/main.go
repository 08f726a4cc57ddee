// Command installcli installs the Claude Code CLI version that package claudetest is tested
// against (claudetest.CLIVersion) with npm, and prints its path. By default it installs into the
// per-user cache that claudetest.FindCLI looks at, so that every repository of the user finds it;
// with -dir it installs there instead (-dir .cache/claude-cli at a repository's root makes a
// project-local install, which FindCLI also finds). When the CLI is already there it does nothing.
//
// In a module that requires github.com/hookwire/agent-sdk-go:
//
//	go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/installcli
//
// It needs npm on PATH and the npm registry; it gives up after 10 minutes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

func main() {
	dir := flag.String("dir", "", "install directory (an npm --prefix; default: the per-user cache claudetest.FindCLI looks at)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	p, err := claudetest.InstallCLI(ctx, *dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "installcli:", err)
		os.Exit(1)
	}
	fmt.Println(p)
}
