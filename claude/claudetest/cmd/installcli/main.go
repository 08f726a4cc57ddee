// Command installcli makes sure the Claude Code CLI version that package claudetest is tested
// against (claudetest.CLIVersion) is installed, and prints its path (claudetest.InstallCLI). By
// default it does nothing when claudetest.FindCLI finds that version, and otherwise installs it
// with npm into the per-user cache FindCLI looks at, so that every repository of the user finds
// it. With -dir it installs there instead, unless that version is already there (-dir
// .cache/claude-cli at a repository's root makes a project-local install, which FindCLI also
// finds).
//
// In a module that requires github.com/hookwire/agent-sdk-go:
//
//	go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/installcli
//
// -version installs another version instead (into -dir, or the per-user cache directory of that
// version), e.g. the oldest supported one for CI's run against it:
//
//	CLAUDE_CLI_PATH=$(go run ./claude/claudetest/cmd/installcli -version 2.1.330) go test ./claude/v2/
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
	dir := flag.String("dir", "", "install directory (an npm --prefix; default: what claudetest.FindCLI finds if it is the pinned version, else the per-user cache)")
	version := flag.String("version", claudetest.CLIVersion, "the CLI version to install (default: the pinned one, claudetest.CLIVersion)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	p, err := claudetest.InstallCLIVersion(ctx, *dir, *version)
	if err != nil {
		fmt.Fprintln(os.Stderr, "installcli:", err)
		os.Exit(1)
	}
	fmt.Println(p)
}
