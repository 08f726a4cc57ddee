package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/server/temporaltest"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// demo runs the demonstration: an in-process Temporal server, a fake model, f.n sessions, each
// logging the letters A B C to ran.log in its checkout with one Bash call per letter; the first
// worker process is killed (SIGKILL) right after session 1's call B wrote its letter, and a second
// worker process, with another HOME, resumes what was running. It prints what each session did and
// what the crash changed.
func demo(ctx context.Context, f flags) error {
	tmp, err := os.MkdirTemp("", "temporal-fleet-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if _, err := claudetest.FindCLI(); err != nil {
		return err
	}
	storage := "PostgreSQL (" + f.schema + " schema)"
	if !pgReachable(ctx, f.pg) {
		f.pg, f.storeDir = "", filepath.Join(tmp, "store")
		storage = "files (" + f.storeDir + "; set -pg or DATABASE_URL for PostgreSQL)"
	}
	ts := temporaltest.NewServer()
	defer ts.Stop()
	dm := &demoModel{n: f.n}
	model := claudetest.NewModelFunc(dm.reply)
	defer model.Close()
	fmt.Printf("temporal-fleet: Temporal server in this process (%s), transcripts and ledger in %s,\n  %d sessions on a fake model\n",
		ts.GetFrontendHostPort(), storage, f.n)

	repo := filepath.Join(tmp, "app")
	if err := gitInit(repo); err != nil {
		return err
	}
	f.root = filepath.Join(tmp, "checkouts")
	dirs, err := Checkouts(ctx, repo, f.root, f.n)
	if err != nil {
		return err
	}
	f.hostPort, f.namespace, f.fakeModel = ts.GetFrontendHostPort(), ts.GetDefaultNamespace(), model.URL()
	first, err := startDemoWorker(f, tmp, "1")
	if err != nil {
		return err
	}
	defer stopProcess(first)
	tasks := make([]string, f.n)
	for i := range tasks {
		tasks[i] = fmt.Sprintf("session %d: log the letters A, B and C", i+1)
	}
	c := ts.GetDefaultClient()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: TaskQueue}, Fleet, FleetInput{Checkouts: dirs, Tasks: tasks,
		Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}, HeartbeatTimeout: 10 * time.Second})
	if err != nil {
		return err
	}
	var killedAt time.Time
	if f.crash {
		if err := waitForLetter(ctx, filepath.Join(dirs[0], "ran.log"), "B"); err != nil {
			return err
		}
		_ = first.Process.Kill()
		killedAt = time.Now()
		_ = first.Wait()
		fmt.Printf("killed worker 1 (pid %d, SIGKILL) right after session 1's call B wrote its letter\n", first.Process.Pid)
		reportOrphans(filepath.Join(tmp, "home-1"), killedAt)
		second, err := startDemoWorker(f, tmp, "2")
		if err != nil {
			return err
		}
		defer stopProcess(second)
	}
	var results []FleetResult
	if err := run.Get(ctx, &results); err != nil {
		return err
	}
	report(results, dirs, killedAt, dm)
	return nil
}

// demoModel is the demonstration's fake model: it asks for one Bash call per letter (each
// appends its letter to ran.log, then takes a second), then sums up; a resumed session's calls get
// other ids, as a real model's would. It notes when a resumed session first asks, and the session
// each task's first request came from (the CLI's X-Claude-Code-Session-Id header).
type demoModel struct {
	n int // sessions

	mu        sync.Mutex
	resumedAt time.Time
	first     map[int]string // session number -> the session id of its first request
}

func (m *demoModel) reply(r claudetest.Request) claudetest.Reply {
	m.mu.Lock()
	for i := 1; i <= m.n; i++ {
		if r.Contains(fmt.Sprintf("session %d:", i)) && m.first[i] == "" {
			if m.first == nil {
				m.first = map[int]string{}
			}
			m.first[i] = r.Header.Get("X-Claude-Code-Session-Id")
		}
	}
	suffix := ""
	if r.Contains("has been resumed here") {
		suffix = "r"
		if m.resumedAt.IsZero() {
			m.resumedAt = time.Now()
		}
	}
	m.mu.Unlock()
	n := len(r.ToolResults())
	if n < 3 {
		l := string("ABC"[n])
		return claudetest.ToolReply("toolu_"+l+suffix, "Bash", map[string]any{"command": "echo " + l + " >> ran.log; sleep 1"})
	}
	return claudetest.TextReply("logged A, B and C")
}

// report prints what each session did and what the crash changed, from each checkout's ran.log
// and what the model saw.
func report(results []FleetResult, dirs []string, killedAt time.Time, m *demoModel) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Println()
	for i, r := range results {
		b, _ := os.ReadFile(filepath.Join(dirs[i], "ran.log"))
		counts := map[string]int{}
		for _, l := range strings.Fields(string(b)) {
			counts[l]++
		}
		fmt.Printf("session %d (%s): %q%s\n  calls run: A x%d, B x%d, C x%d", i+1, short(r.SessionID), r.Result, r.Err, counts["A"], counts["B"], counts["C"])
		var twice []string
		for _, l := range []string{"A", "B", "C"} {
			if counts[l] > 1 {
				twice = append(twice, l)
			}
		}
		if r.Resumes > 0 {
			fmt.Printf("; the crash: retried %d time(s)", r.Resumes)
			switch first := m.first[i+1]; {
			case first == "":
			case first == r.SessionID:
				fmt.Print(", resumed in the session it started in")
			default:
				fmt.Printf(", in a new session (it started in %s: nothing of it had reached the store)", short(first))
			}
		}
		switch {
		case len(twice) == 1:
			fmt.Printf("; %s ran again (in flight at the crash: at least once), no completed call ran again", twice[0])
		case len(twice) > 1:
			fmt.Printf("; %s ran again: more than the one call in flight", strings.Join(twice, ", "))
		}
		fmt.Println()
	}
	if !killedAt.IsZero() && !m.resumedAt.IsZero() {
		fmt.Printf("\nfrom the kill to the first resumed model call: %s (the 10 s heartbeat timeout, the retry, the transcript restored from the store)\n",
			m.resumedAt.Sub(killedAt).Round(100*time.Millisecond))
	}
}

// reportOrphans prints how long the killed worker's CLIs and what they started outlived it: the
// processes whose environment has the worker's HOME (Linux: /proc). The SDK starts each CLI so
// that it dies with the worker (a parent-death signal and a watchdog on the session's processes).
func reportOrphans(home string, killedAt time.Time) {
	if runtime.GOOS != "linux" {
		return
	}
	want := []byte("\x00HOME=" + home + "\x00")
	left := func() int {
		n := 0
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			if err == nil && bytes.Contains(append([]byte{0}, env...), want) {
				n++
			}
		}
		return n
	}
	for left() > 0 && time.Since(killedAt) < 10*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if n := left(); n > 0 {
		fmt.Printf("  %d processes of worker 1's sessions still run 10 s after the kill: orphans\n", n)
		return
	}
	fmt.Printf("  worker 1's CLIs and what they ran ended %s after the kill (no orphan acts on a checkout)\n",
		time.Since(killedAt).Round(10*time.Millisecond))
}

// startDemoWorker starts this program as a worker process, logging to tmp/worker-<name>.log.
func startDemoWorker(f flags, tmp, name string) (*exec.Cmd, error) {
	home := filepath.Join(tmp, "home-"+name)
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	logf, err := os.Create(filepath.Join(tmp, "worker-"+name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(os.Args[0], "-worker", "-temporal", f.hostPort, "-namespace", f.namespace, "-root", f.root,
		"-fake-model", f.fakeModel, "-home", home, "-pg", f.pg, "-schema", f.schema, "-store", f.storeDir)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	fmt.Printf("worker %s started (pid %d)\n", name, cmd.Process.Pid)
	return cmd, nil
}

// stopProcess ends a worker process that is still running.
func stopProcess(cmd *exec.Cmd) {
	if cmd.ProcessState == nil {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}
}

// waitForLetter waits until the file holds letter (bounded: a demonstration that hangs says so).
func waitForLetter(ctx context.Context, path, letter string) error {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), letter) {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("temporal-fleet: %s never held %s (see the worker logs)", path, letter)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// gitInit makes a repository with one commit at dir.
func gitInit(dir string) error {
	for _, args := range [][]string{
		{"init", "--quiet", dir},
		{"-C", dir, "-c", "user.name=fleet", "-c", "user.email=fleet@example.com", "commit", "--quiet", "--allow-empty", "-m", "init"},
	} {
		if b, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("temporal-fleet: git %v: %v: %s", args, err, b)
		}
	}
	return nil
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
