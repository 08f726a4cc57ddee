package subprocess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
)

// Spawner starts the CLI where and how the program chooses: in a container, on another host over
// SSH, in a VM, through its own process supervisor. It is the Go form of the TypeScript SDK's
// spawnClaudeCodeProcess and of the Python SDK's custom Transport, for what a command prefix
// (Config.Wrapper) cannot do: an API call instead of a command, streams of the program's own,
// an environment or working directory translated for the other side.
//
// The transport still owns the protocol, the pipes and the stop sequence: Spawn gets the
// command line, environment and working directory the transport would have run, and the child's
// ends of three pipes; it starts something that speaks the CLI's stdio protocol on them and
// returns a handle to stop it and wait for it.
//
// A spawned process is not confined by the SDK: claude/v2 refuses a Spawner in a session whose
// WithPolicy confines the CLI with the kernel, unless WithoutOSConfinement says otherwise.
type Spawner interface {
	// Spawn starts the CLI described by c and returns without waiting for it to end. ctx is
	// Start's, which bounds the transport's life (claude/v2: CreateSession's); the transport
	// stops the process with Signal when it closes, so the process need not be tied to ctx
	// (exec.CommandContext would kill it without the stop sequence's grace). An error fails
	// Start. A spawned process has no parent-death signal: if this program dies, the CLI sees
	// its stdin end and exits, as the protocol's end.
	Spawn(ctx context.Context, c SpawnCommand) (Process, error)
}

// SpawnFunc adapts a function to a Spawner.
type SpawnFunc func(ctx context.Context, c SpawnCommand) (Process, error)

// Spawn calls f.
func (f SpawnFunc) Spawn(ctx context.Context, c SpawnCommand) (Process, error) { return f(ctx, c) }

var _ Spawner = SpawnFunc(nil)

// SpawnCommand is what a Spawner starts: the CLI's command line, environment and working
// directory as the transport would have run them locally, and the child's ends of its pipes.
type SpawnCommand struct {
	// Path is the CLI (Config.CLIPath): a local path, or a name for the other side to resolve.
	Path string
	// Args are the CLI's arguments, without Path.
	Args []string
	// Dir is the working directory ("" means the current one), a local path.
	Dir string
	// Env is the whole environment the transport would give the CLI (Config.BaseEnv and Env,
	// cleaned as for a local start, and the transport's process tag). It holds the API key and
	// whatever else the caller set: pass on what the other side needs, no more.
	Env []string
	// Stdin, Stdout and Stderr are the child's ends of the transport's pipes (each an *os.File,
	// so that an exec.Cmd hands them to its child without a copying goroutine). The process
	// reads protocol lines from Stdin and writes them to Stdout, one JSON object a line, and may
	// write anything to Stderr. The transport closes them once Process.Wait has returned: Wait
	// must not return before everything the process wrote has been written to them.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Process is a CLI that a Spawner started.
type Process interface {
	// Signal asks the process to stop: the transport sends syscall.SIGTERM, then os.Kill when it
	// has not exited CloseGrace later. An error is ignored (the next step follows).
	Signal(sig os.Signal) error
	// Wait blocks until the process has exited and returns its error: nil for a clean exit, an
	// *exec.ExitError (which becomes a *shared.ProcessError with the stderr tail), or any other
	// error. It is called once, from one goroutine.
	Wait() error
}

// CmdProcess starts cmd, an exec.Cmd the caller built with c's Stdin, Stdout and Stderr (or its
// own streams), and returns it as a Process. It is the usual body of a Spawner:
//
//	cmd := exec.Command("docker", append([]string{"exec", "-i", box, "claude"}, c.Args...)...)
//	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Stdin, c.Stdout, c.Stderr
//	return subprocess.CmdProcess(cmd)
func CmdProcess(cmd *exec.Cmd) (Process, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmdProcess{cmd}, nil
}

type cmdProcess struct{ cmd *exec.Cmd }

func (p cmdProcess) Signal(sig os.Signal) error { return p.cmd.Process.Signal(sig) }
func (p cmdProcess) Wait() error                { return p.cmd.Wait() }

// terminateSignal is the first signal of the stop sequence for a spawned process (on Windows
// os.Process.Signal refuses it, and os.Kill follows after the grace).
var terminateSignal os.Signal = syscall.SIGTERM

// errNilProcess is a Spawner's nil Process with a nil error.
var errNilProcess = errors.New("subprocess: the Spawner returned no Process and no error")

// spawn starts the CLI through cfg.Spawner, with the pipes of p. Its waiter goroutine
// closes the child's ends and then exited, once the process has exited.
func (p *process) spawn(ctx context.Context, cfg Config, c SpawnCommand, childEnds []*os.File) error {
	sp, err := cfg.Spawner.Spawn(ctx, c)
	if err == nil && sp == nil {
		err = errNilProcess
	}
	if err != nil {
		return fmt.Errorf("subprocess: the Spawner could not start %s: %w", c.Path, err)
	}
	p.spawned = sp
	go func() { // the process waiter of a spawned CLI: it ends when Wait returns
		p.waitErr = sp.Wait()
		for _, f := range childEnds {
			f.Close()
		}
		close(p.exited)
	}()
	return nil
}
