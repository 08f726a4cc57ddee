package v2_test

import (
	"context"
	"os/exec"

	"github.com/hookwire/agent-sdk-go/claude/subprocess"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A session whose CLI runs in a container: the spawner starts `docker exec` with the CLI's
// arguments on the SDK's pipes, and passes on only the variables the CLI there needs.
func ExampleWithSpawner() {
	inContainer := subprocess.SpawnFunc(func(_ context.Context, c subprocess.SpawnCommand) (subprocess.Process, error) {
		args := append([]string{"exec", "-i", "-w", "/work", "-e", "ANTHROPIC_API_KEY", "agent-box", "claude"}, c.Args...)
		cmd := exec.Command("docker", args...)
		cmd.Env = c.Env // docker reads ANTHROPIC_API_KEY from here for -e
		cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, c.Stdout, c.Stderr
		return subprocess.CmdProcess(cmd)
	})
	s, err := v2.CreateSession(context.Background(), v2.WithSpawner(inContainer))
	if err != nil {
		return
	}
	defer s.Close()
}
