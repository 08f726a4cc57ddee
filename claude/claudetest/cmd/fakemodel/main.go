// Command fakemodel runs a program of yours against a scripted fake model instead of the
// Anthropic API: no API key, no network, the real CLI. It starts claudetest's fake Messages API
// on loopback, then runs the command given after its flags with the environment
// claudetest.CLIEnv makes (ANTHROPIC_BASE_URL at the fake model, a dummy API key, a scratch HOME so
// that your own CLI settings and credentials stay out), plus CLAUDE_CLI_PATH set to the CLI
// claudetest.FindCLI finds and the go command's own directories (so that `go run` keeps your
// caches). Every session the program starts talks to the one fake model.
//
// The model asks for a Write of -write (a path relative to the working directory; default
// haiku.txt, as the README's quickstart asks) with a haiku, then answers -text; with -write ""
// it only answers -text. Later turns get "done".
//
// In a module that requires github.com/hookwire/agent-sdk-go, run the README's quickstart with:
//
//	go run github.com/hookwire/agent-sdk-go/claude/claudetest/cmd/fakemodel go run .
//
// It exits with the command's exit status.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

const haiku = "Hooks stand at the gate\nevery write asks to come in\nthe project stays whole\n"

func main() {
	write := flag.String("write", "haiku.txt", "the file the model asks to Write, relative to the working directory (\"\": none)")
	text := flag.String("text", "haiku.txt is written.", "the model's answer after the write")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: fakemodel [-write FILE] [-text TEXT] COMMAND [ARG...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	code, err := run(*write, *text, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakemodel:", err)
	}
	os.Exit(code)
}

// run starts the fake model and the command, and returns the command's exit status.
func run(write, text string, command []string) (int, error) {
	cli, err := claudetest.FindCLI()
	if err != nil {
		return 1, err
	}
	var replies []claudetest.Reply
	if write != "" {
		wd, err := os.Getwd()
		if err != nil {
			return 1, err
		}
		replies = append(replies, claudetest.ToolReply("toolu_fakemodel_1", "Write",
			map[string]any{"file_path": filepath.Join(wd, write), "content": haiku}))
	}
	model := claudetest.NewModel(append(replies, claudetest.TextReply(text))...)
	defer model.Close()
	home, err := os.MkdirTemp("", "fakemodel-home-")
	if err != nil {
		return 1, err
	}
	defer os.RemoveAll(home)

	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(claudetest.CLIEnv(home, model.URL()), "CLAUDE_CLI_PATH="+cli)
	cmd.Env = append(cmd.Env, goDirs()...)
	err = cmd.Run()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 1, err
	}
	return 0, nil
}

// goDirs are the go command's directories and settings file as the user's HOME gives them, so
// that a `go run` under the scratch HOME uses the user's caches; none when go is not on PATH.
func goDirs() []string {
	names := []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOENV"}
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		return nil
	}
	values := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(values) != len(names) {
		return nil
	}
	env := make([]string, len(names))
	for i, n := range names {
		env[i] = n + "=" + values[i]
	}
	return env
}
