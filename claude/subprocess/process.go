package subprocess

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/internal/childenv"
	"github.com/hookwire/agent-sdk-go/claude/internal/procgroup"
	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// FindCLI returns the CLI to run: explicit if not "", else $CLAUDE_CLI_PATH, else "claude" on PATH,
// else the newest that claudetest's installer put in the per-user cache (see installedCLI).
// The error is a *CLINotFoundError naming every place tried, and why a path given was not usable.
func FindCLI(explicit string) (string, error) {
	var tried []string
	if explicit != "" {
		if err := CheckCLIPath(explicit); err != nil {
			return "", &shared.CLINotFoundError{Tried: []string{fmt.Sprintf("the CLI path option %q (%v)", explicit, err)}, Unusable: true}
		}
		return explicit, nil
	}
	if env := os.Getenv("CLAUDE_CLI_PATH"); env != "" {
		err := CheckCLIPath(env)
		if err == nil {
			return env, nil
		}
		return "", &shared.CLINotFoundError{Tried: []string{fmt.Sprintf("CLAUDE_CLI_PATH=%s (%v)", env, err)}, Unusable: true}
	}
	tried = append(tried, "CLAUDE_CLI_PATH (unset)")
	if p, err := exec.LookPath("claude"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return p, nil
	}
	tried = append(tried, "claude on PATH")
	p, where := installedCLI()
	if p != "" {
		return p, nil
	}
	tried = append(tried, where)
	return "", &shared.CLINotFoundError{Tried: tried}
}

// CheckCLIPath says why p cannot be run as the CLI: it does not exist, is a directory, or is not
// executable. It returns nil for a file that may be run (whether it is the Claude Code CLI shows
// when it starts).
func CheckCLIPath(p string) error {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errors.New("no such file")
	case err != nil:
		return err
	case fi.IsDir():
		return errors.New("a directory, not the CLI executable")
	case !executable(fi):
		return fmt.Errorf("not executable (mode %v)", fi.Mode().Perm())
	}
	return nil
}

// newProcessTag returns the name of an environment variable unique to one transport. The CLI gets
// it (set to 1), and so does every process the CLI starts, unless it clears its environment. The
// name carries the tag, so that the tags of nested sessions add up instead of replacing each other.
func newProcessTag() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "AGENT_SDK_PROC_" + strings.ToUpper(hex.EncodeToString(b[:]))
}

// process is the CLI process: its pipes, its waiter and its one stop sequence. The transport reads
// stdout and stderr; the process only owns their ends.
type process struct {
	cmd *exec.Cmd // nil for a process started by Config.Spawner
	// spawned is Config.Spawner's process, else nil.
	spawned Process
	tag     string        // see newProcessTag
	stdin   *os.File      // written by the transport's lineWriter
	stdout  *os.File      // read by the transport's reader
	stderr  *os.File      // read by drainStderr
	exited  chan struct{} // closed when Wait has returned
	// waitErr is Wait's error, set before exited is closed.
	waitErr error
	stopMu  sync.Mutex // serialises stop
	// watchdog, if not nil, is the write end of the watchdog's pipe (watchdog_unix.go): closed by
	// killDescendants, or by the kernel when this process dies.
	watchdog *os.File
}

// startProcess starts the CLI with pipes on its stdin, stdout and stderr. Its waiter goroutine
// closes exited when the CLI has exited.
func startProcess(ctx context.Context, cfg Config) (*process, error) {
	var files []*os.File // every pipe end, closed on failure
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		files = append(files, r, w)
		return r, w, err
	}
	fail := func(err error) (*process, error) {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
		return nil, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return fail(fmt.Errorf("subprocess: stdin pipe: %w", err))
	}
	outR, outW, err := pipe()
	if err != nil {
		return fail(fmt.Errorf("subprocess: stdout pipe: %w", err))
	}
	errR, errW, err := pipe()
	if err != nil {
		return fail(fmt.Errorf("subprocess: stderr pipe: %w", err))
	}
	tag := newProcessTag()
	env := append(childenv.Build(cfg.BaseEnv, cfg.Env), tag+"=1")
	if cfg.Spawner != nil {
		p := &process{tag: tag, stdin: inW, stdout: outR, stderr: errR, exited: make(chan struct{})}
		c := SpawnCommand{Path: cfg.CLIPath, Args: cfg.Args, Dir: cfg.Dir, Env: env, Stdin: inR, Stdout: outW, Stderr: errW}
		if err := p.spawn(ctx, cfg, c, []*os.File{inR, outW, errW}); err != nil {
			return fail(err)
		}
		return p, nil
	}
	cmd := exec.Command(cfg.CLIPath, cfg.Args...)
	if len(cfg.Wrapper) > 0 {
		cmd = exec.Command(cfg.Wrapper[0], append(append(append([]string{}, cfg.Wrapper[1:]...), cfg.CLIPath), cfg.Args...)...)
	}
	cmd.Dir = cfg.Dir
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	procgroup.Own(cmd)        // so that the stop sequence reaches the tools the CLI started
	setParentDeathSignal(cmd) // so that the CLI ends when this process dies (Linux)
	p := &process{cmd: cmd, tag: tag, stdin: inW, stdout: outR, stderr: errR, exited: make(chan struct{})}
	started := make(chan error, 1)
	go p.startAndWait(cfg.Confine, started)
	if err := <-started; err != nil {
		return fail(fmt.Errorf("subprocess: starting %s: %w", cfg.CLIPath, err))
	}
	inR.Close()
	outW.Close()
	errW.Close()
	p.watchdog = startWatchdog(cmd.Process.Pid, tag)
	return p, nil
}

// startAndWait is the process waiter: it starts the CLI (confined by confine, if not nil), sends
// the start's error on started, and, if the CLI started, waits for it to exit. It runs locked to
// its OS thread from start to end and never unlocks it, so that the thread ends with it: the
// CLI's parent-death signal fires when the thread that started it ends, not the process
// (golang/go#27505), so this thread lives exactly as long as the CLI; and a thread restricted by
// confine must never run another goroutine.
func (p *process) startAndWait(confine func() error, started chan<- error) {
	runtime.LockOSThread() // never unlocked (see above)
	if confine != nil {
		if err := confine(); err != nil {
			started <- err
			return
		}
	}
	if err := p.cmd.Start(); err != nil {
		started <- err
		return
	}
	started <- nil
	p.waitErr = p.cmd.Wait()
	close(p.exited)
}

// waitExited reports whether the CLI exits within d.
func (p *process) waitExited(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.exited:
		return true
	case <-timer.C:
		return false
	}
}

// stop is the one stop sequence: close stdin (the CLI exits at EOF when idle), wait grace, ask the
// CLI and its process group to terminate, wait grace again, then kill them. It returns when the CLI
// has exited. closeStdin closes the CLI's stdin (the writer's, so that writes fail cleanly).
func (p *process) stop(grace time.Duration, closeStdin func()) {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	closeStdin()
	if p.waitExited(grace) {
		return
	}
	p.terminate()
	if p.waitExited(grace) {
		return
	}
	p.kill()
	<-p.exited
}

// killDescendants kills what the CLI started and left running, once the CLI has exited: its
// process group, and (on Linux) every process with the transport's tag in its environment,
// wherever it went (CLI 2.1.330 starts Bash commands with setsid, out of reach of the group).
func (p *process) killDescendants() {
	p.kill()
	killTagged(p.tag)
	if p.watchdog != nil {
		p.watchdog.Close()
	}
}

// terminate asks the CLI (and its process group) to end; a spawned CLI gets terminateSignal.
func (p *process) terminate() {
	if p.spawned != nil {
		_ = p.spawned.Signal(terminateSignal)
		return
	}
	procgroup.Terminate(p.cmd.Process)
}

// kill ends the CLI (and its process group) now; a spawned CLI gets os.Kill, which a Process
// that has exited ignores.
func (p *process) kill() {
	if p.spawned != nil {
		_ = p.spawned.Signal(os.Kill)
		return
	}
	procgroup.Kill(p.cmd.Process)
}

// exitError turns Wait's error into the transport's: nil for a clean exit, else a *ProcessError
// with the stderr tail.
func exitError(werr error, stderr string) error {
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		pe := &shared.ProcessError{ExitCode: ee.ExitCode(), Stderr: stderr, Err: ee}
		pe.Signal = exitSignal(ee)
		return pe
	}
	if werr != nil {
		return fmt.Errorf("subprocess: waiting for CLI: %w", werr)
	}
	return nil
}

// drainStderr reads the CLI's stderr line by line into tail (and to onLine) until EOF. Lines
// longer than 1 MiB are consumed and recorded as skipped.
func drainStderr(r io.Reader, tail *tailBuffer, onLine func(string)) {
	br := bufio.NewReaderSize(r, 16<<10)
	for {
		line, size, err := readLine(br, 1<<20)
		if line != nil {
			tail.Write(line)
			if onLine != nil {
				onLine(string(line))
			}
		} else if size > 0 {
			tail.Write(fmt.Appendf(nil, "[stderr line of %d bytes skipped]", size))
		}
		if err != nil {
			return
		}
	}
}

// tailBuffer keeps the last max bytes of stderr, line by line.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(line []byte) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, line...)
	b.buf = append(b.buf, '\n')
	// Cut back to the tail only once the buffer holds twice as much: one copy of max bytes per max
	// bytes written, so that a flood of short lines costs time linear in its size.
	if len(b.buf) > 2*b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := b.buf
	if over := len(tail) - b.max; over > 0 {
		tail = tail[over:]
	}
	return strings.TrimSpace(string(tail))
}
