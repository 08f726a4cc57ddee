// Command record records a real session's model answers into a script file that
// claudetest.LoadScript and claudetest.NewModel replay offline: an incident becomes a regression
// test in two commands.
//
//	go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/record -o testdata/incident.json
//
// It starts a claudetest.Recorder on 127.0.0.1 in front of the Messages API (-upstream, default
// https://api.anthropic.com) and prints the line to export, ANTHROPIC_BASE_URL=http://127.0.0.1:PORT.
// Run the session with that variable set (the claude CLI, or a program using this SDK) and your
// usual key: the requests go to the API unchanged, and nothing of them (no key, no prompt) is
// written. The script is saved to the -o file when the command is interrupted (Ctrl-C, SIGTERM) or,
// with -n N, when N main-loop answers have been recorded. It exits 1 when an answer could not be
// recorded (the file then holds the others) or the file could not be written.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: it records until ctx is done or -n answers have ended, then saves, and
// returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the script file to write (required)")
	n := fs.Int("n", 0, "save and stop after `N` main-loop answers (0: when interrupted)")
	upstream := fs.String("upstream", "https://api.anthropic.com", "the Messages API to record, a base `URL`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 || *n < 0 {
		fmt.Fprintln(stderr, "usage: record -o FILE [-n N] [-upstream URL]")
		fs.PrintDefaults()
		return 2
	}
	// Fail now rather than after a long session when the file cannot be written there.
	if fi, err := os.Stat(filepath.Dir(*out)); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "record: -o %s: the directory %s does not exist\n", *out, filepath.Dir(*out))
		return 2
	}
	rec, err := claudetest.NewRecorder(*upstream)
	if err != nil {
		fmt.Fprintln(stderr, "record:", err)
		return 2
	}
	fmt.Fprintf(stdout, "ANTHROPIC_BASE_URL=%s\n", rec.URL())
	stopWhen := "interrupted (Ctrl-C)"
	if *n > 0 {
		stopWhen = fmt.Sprintf("%d answers are recorded or when interrupted", *n)
	}
	fmt.Fprintf(stderr, "record: recording %s; export the line above where the session runs; the script goes to %s when %s\n", *upstream, *out, stopWhen)

	if *n > 0 {
		_ = rec.Wait(ctx, *n) // its only error is ctx's: interrupted first, save what there is
	} else {
		<-ctx.Done()
	}
	rec.Close() // lets answers in flight finish briefly, then cuts them: those are not recorded
	replies, _ := rec.Replies()
	if err := rec.Save(*out); err != nil { // written with the other answers when some are missing
		fmt.Fprintf(stderr, "record: %d answers to %s: %v\n", len(replies), *out, err)
		return 1
	}
	fmt.Fprintf(stderr, "record: wrote %d answers to %s\n", len(replies), *out)
	return 0
}
