package temporalagent_test

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/contrib/pgstore"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// crashPoint is where a crash test kills the first worker (SIGKILL) in a turn of four Bash calls
// (A B C D, one per model request) or of three parallel ones (A B C in one model answer), each
// appending its letter to ran.log.
type crashPoint struct {
	name     string
	parallel bool              // A B C in one assistant message
	commands map[string]string // a letter's command, when not "echo X >> ran.log"
	// When to kill: holdFirst holds the model's first request until the kill; afterAnswer kills
	// right after the model answered with that letter's call; fileExists kills once the file (in
	// the project) exists.
	holdFirst   bool
	afterAnswer string
	fileExists  string
	content     string // fileExists's content must hold it
	// inFlight is the call that may run twice (it was running, or its result was not recorded,
	// when the worker died): at least once. Every other call runs exactly once.
	inFlight string
	// tool makes the calls the in-process tool's (effectsTool) instead of Bash's: it applies its
	// side effect once per idempotency key. calledTwice is the call its tool is asked for twice
	// (the call in flight): with one key, so it runs once.
	tool        bool
	calledTwice string
}

// crashPoints are the crash tests' kill points.
var crashPoints = []crashPoint{
	{name: "before the first call", holdFirst: true},
	{name: "right after a call's side effect", commands: map[string]string{"B": "echo B >> ran.log; sleep 3"},
		fileExists: "ran.log", content: "B", inFlight: "B"},
	{name: "mid-call, before its side effect", commands: map[string]string{"B": "touch b.started; sleep 3; echo B >> ran.log"},
		fileExists: "b.started", inFlight: "B"},
	{name: "right after the model's answer", afterAnswer: "C", inFlight: "C"},
	{name: "parallel calls, after the second one's side effect", parallel: true,
		commands: map[string]string{"B": "echo B >> ran.log; sleep 3"}, fileExists: "ran.log", content: "B", inFlight: "B"},
	{name: "a tool given the idempotency key, right after its side effect", tool: true,
		fileExists: "ran.log", content: "B", calledTwice: "B"},
}

// A worker process dies (SIGKILL) at each kill point of a turn; the retry runs on another worker
// process, with another HOME (the transcript comes from the store), with the SDK's heartbeat
// throttle at its default, and the fake model answers every CLI, an orphaned one too. Each call
// that completed ran once, the call in flight at most twice, the retry resumed the same session,
// the store (PostgreSQL in CI) holds the turn, and nothing the dead worker started is left.
// TEMPORALAGENT_CRASH_NO_LEDGER=1 runs it without WithLedger (the resume point from the throttled
// heartbeat, as before issue 37): completed calls run again, and it fails.
func TestCrashNeverRunsACompletedCallTwice(t *testing.T) {
	for _, cp := range crashPoints {
		t.Run(cp.name, func(t *testing.T) {
			d := crashAndResume(t, cp, testHeartbeatTimeout)
			t.Logf("kill -> resumed model call %s, -> result %s, -> no process of the dead worker %s",
				d.toResumed.Round(time.Millisecond), d.toResult.Round(time.Millisecond), d.toNoOrphan.Round(time.Millisecond))
		})
	}
}

// crashTimes are the durations of one crash test, from the kill of the first worker.
type crashTimes struct {
	toResumed  time.Duration // to the resumed session's first model call (the heartbeat timeout, the retry, the restore, the CLI's start)
	toResult   time.Duration // to the workflow's result
	toNoOrphan time.Duration // to the end of the last process the dead worker had started
}

// orphanBound is how long the dead worker's CLI and its children may outlive it: the SDK starts
// each CLI with a parent-death signal and a watchdog that kills the session's tagged processes
// (issue 33). It is not a timing target (they end within a few hundred milliseconds): a process
// still there after it is an orphan.
const orphanBound = 5 * time.Second

// crashModel is the fake model of a crash test: it asks for the calls one by one (or all at once),
// then says "all done"; a resumed CLI's calls get other ids (as a real model's would). It holds or
// triggers the kill as cp says, and records when a resumed CLI first asks.
type crashModel struct {
	cp        crashPoint
	kill      chan struct{} // the model asks the test to kill the first worker
	killed    chan struct{} // closed once it is dead
	resumedAt atomic.Pointer[time.Time]
	once      sync.Once
}

// call returns the tool and input of a letter's call.
func (m *crashModel) call(letter string) (string, map[string]any) {
	if m.cp.tool {
		return effectsTool, map[string]any{"letter": letter}
	}
	return "Bash", m.command(letter)
}

func (m *crashModel) command(letter string) map[string]any {
	cmd, ok := m.cp.commands[letter]
	if !ok {
		cmd = "echo " + letter + " >> ran.log"
	}
	return map[string]any{"command": cmd}
}

func (m *crashModel) reply(r claudetest.Request) claudetest.Reply {
	suffix := ""
	n := len(r.ToolResults())
	dead := isClosed(m.killed)
	// The retry's first request: a resumed session's (it carries the continue prompt), or, when the
	// kill came before anything reached the store, a new session's first (the dead worker's CLI
	// asked its first request before the kill).
	if r.Contains("has been resumed here") || (dead && n == 0) {
		now := time.Now()
		m.resumedAt.CompareAndSwap(nil, &now)
	}
	if r.Contains("has been resumed here") {
		suffix = "-resumed"
	}
	if m.cp.holdFirst && n == 0 && !dead {
		m.once.Do(func() { close(m.kill) })
		<-m.killed // the first worker is dead: this answer goes to its orphan, if it has one
	}
	var reply claudetest.Reply
	switch {
	case m.cp.parallel && n == 0:
		var uses []claudetest.ToolUse
		for _, l := range []string{"A", "B", "C"} {
			name, input := m.call(l)
			uses = append(uses, claudetest.ToolUse{ID: "toolu_" + l + suffix, Name: name, Input: input})
		}
		reply = claudetest.ToolsReply(uses...)
	case !m.cp.parallel && n < 4:
		l := string("ABCD"[n])
		name, input := m.call(l)
		reply = claudetest.ToolReply("toolu_"+l+suffix, name, input)
		if l == m.cp.afterAnswer && !dead {
			m.once.Do(func() { close(m.kill) })
		}
	default:
		reply = claudetest.TextReply("all done")
	}
	return reply
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// crashAndResume runs one crash test and returns its durations; heartbeatTimeout 0 runs the
// turn with DefaultActivityOptions' (1 min).
func crashAndResume(t *testing.T, cp crashPoint, heartbeatTimeout time.Duration) crashTimes {
	ts := server(t)
	c := ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(t, ts)
	actQueue := "act-" + randomTag()
	m := &crashModel{cp: cp, kill: make(chan struct{}), killed: make(chan struct{})}
	env := claudetest.NewEnv(t, func(string) *claudetest.Model { return claudetest.NewModelFunc(m.reply) })
	t.Cleanup(func() {
		if !isClosed(m.killed) {
			close(m.killed)
		}
	})
	store, pg, schema := testStore(t)
	tag := randomTag() // the first worker's processes: what is left of them after the kill
	ledgerDir := t.TempDir()
	if os.Getenv("TEMPORALAGENT_CRASH_NO_LEDGER") != "" {
		ledgerDir = "" // the workers run without a ledger, as before issue 37: the test fails
	}
	cfg := func(home, tag string) workerConfig {
		return workerConfig{cli: claudetest.RequireCLI(t), home: home, modelURL: env.Model.URL(), project: env.Project,
			store: store, pg: pg, schema: schema, tag: tag, ledger: ledgerDir}
	}
	first := startWorkerProcess(t, ts.GetFrontendHostPort(), ts.GetDefaultNamespace(), actQueue, cfg(env.Home, tag))

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute) // only catches a hang
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, crashWorkflow, actQueue, heartbeatTimeout,
		temporalagent.TurnInput{Prompt: "log the letters", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash", effectsTool}}})
	if err != nil {
		t.Fatal(err)
	}
	if cp.fileExists != "" {
		waitFor(t, cp.fileExists+" to hold "+cp.content, func() bool {
			b, err := os.ReadFile(env.Path(cp.fileExists))
			return err == nil && strings.Contains(string(b), cp.content)
		})
	} else {
		waitFor(t, "the model to ask for the kill", func() bool { return isClosed(m.kill) })
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killedAt := time.Now()
	_ = first.Wait()
	close(m.killed)
	startWorkerProcess(t, ts.GetFrontendHostPort(), ts.GetDefaultNamespace(), actQueue, cfg(t.TempDir(), randomTag()))
	times := crashTimes{}
	// The dead worker's CLI and what it started end within orphanBound (a parent-death signal).
	for len(tagged(tag)) > 0 && time.Since(killedAt) < orphanBound {
		time.Sleep(10 * time.Millisecond)
	}
	times.toNoOrphan = time.Since(killedAt)
	if left := tagged(tag); len(left) > 0 {
		t.Errorf("the dead worker's CLI or its children (pids %v) ran %s after the kill, want them ended within %s",
			left, times.toNoOrphan.Round(time.Millisecond), orphanBound)
	}

	var res temporalagent.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("the workflow: %v", err)
	}
	times.toResult = time.Since(killedAt)
	if at := m.resumedAt.Load(); at != nil {
		times.toResumed = at.Sub(killedAt)
	}
	// The next worker never resumes while the dead one's CLI still runs.
	checkRetry(t, cp, "kill", "the dead worker's last process", times.toResumed, times.toNoOrphan, &res, env.Project)
	checkStoredTurn(t, cp, store, pg, schema, env.Project, res.SessionID)
	return times
}

// checkRetry checks a retried turn: the retry asked the model (toResumed after the event) only
// after what the old attempt left had ended (toOldEnd), the result is "all done" after one
// resume, and each call's side effects in the project are as cp says.
func checkRetry(t *testing.T, cp crashPoint, event, old string, toResumed, toOldEnd time.Duration, res *temporalagent.TurnResult, project string) {
	t.Helper()
	if toResumed <= toOldEnd {
		t.Errorf("the retry asked the model %s after the %s, before %s ended (%s)", toResumed.Round(time.Millisecond), event, old, toOldEnd.Round(time.Millisecond))
	}
	if res.Result != "all done" || res.Resumes != 1 {
		t.Errorf("result = %q, resumes %d; want \"all done\", 1", res.Result, res.Resumes)
	}
	checkSideEffects(t, cp, filepath.Join(project, "ran.log"))
	if cp.tool {
		checkKeys(t, cp, filepath.Join(project, "calls.log"))
	}
}

// checkSideEffects counts each call's letter in ran.log: once each, the call in flight at most
// twice.
func checkSideEffects(t *testing.T, cp crashPoint, path string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	counts := map[string]int{}
	for _, l := range strings.Fields(string(b)) {
		counts[l]++
	}
	letters := "ABCD"
	if cp.parallel {
		letters = "ABC"
	}
	for _, l := range strings.Split(letters, "") {
		n, want := counts[l], "once"
		ok := n == 1
		if l == cp.inFlight {
			ok, want = n == 1 || n == 2, "once or twice (in flight at the crash)"
		}
		if !ok {
			t.Errorf("call %s ran %d times, want %s (ran.log: %q)", l, n, want, b)
		}
	}
}

// checkStoredTurn reads the session back from the store: the resumed session is the first
// attempt's (its first call, asked before the kill, is in it, unless the kill came before any
// call), and the turn ends with "all done".
func checkStoredTurn(t *testing.T, cp crashPoint, store, pg, schema, project, session string) {
	t.Helper()
	var uses []string
	last := ""
	for m, err := range storeMessages(t, store, pg, schema, project, session) {
		if err != nil {
			t.Fatal(err)
		}
		if a, ok := m.(*shared.AssistantMessage); ok {
			for _, b := range a.Message.Content {
				switch b.Type {
				case "tool_use":
					uses = append(uses, b.ID)
				case "text":
					last = b.Text
				}
			}
		}
	}
	if !cp.holdFirst && !slices.Contains(uses, "toolu_A") {
		t.Errorf("the store's session %s lacks the first attempt's call toolu_A (calls %v): the retry did not resume the same session", session, uses)
	}
	if last != "all done" {
		t.Errorf("the store's session %s ends with %q, want \"all done\" (calls %v)", session, last, uses)
	}
}

// TestCrashResumeTimes runs the crash test (a kill right after a call's side effect)
// $TEMPORALAGENT_CRASH_RUNS times (skipped when unset) with DefaultActivityOptions' heartbeat
// timeout (or $TEMPORALAGENT_CRASH_HEARTBEAT_TIMEOUT), and logs the medians docs/TEMPORAL.md
// reports:
//
//	TEMPORALAGENT_CRASH_RUNS=10 go test -run TestCrashResumeTimes -v -timeout 60m .
func TestCrashResumeTimes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TEMPORALAGENT_CRASH_RUNS"))
	if n <= 0 {
		t.Skip("set TEMPORALAGENT_CRASH_RUNS to the number of crash tests to time")
	}
	hb, _ := time.ParseDuration(os.Getenv("TEMPORALAGENT_CRASH_HEARTBEAT_TIMEOUT"))
	var resumed, result, orphan []time.Duration
	for i := range n {
		t.Run(itoa(i), func(t *testing.T) {
			d := crashAndResume(t, crashPoints[1], hb)
			resumed, result, orphan = append(resumed, d.toResumed), append(result, d.toResult), append(orphan, d.toNoOrphan)
			t.Logf("kill -> resumed model call %s, -> result %s, -> no orphan %s", d.toResumed.Round(time.Millisecond),
				d.toResult.Round(time.Millisecond), d.toNoOrphan.Round(time.Millisecond))
		})
	}
	if len(resumed) == 0 {
		return
	}
	t.Logf("%d crash tests, heartbeat timeout %s: kill -> resumed model call p50 %s (min %s, max %s); kill -> result p50 %s (min %s, max %s); kill -> no orphan p50 %s (max %s)",
		len(resumed), cmp.Or(hb, time.Minute), p50(resumed), slices.Min(resumed), slices.Max(resumed), p50(result), slices.Min(result), slices.Max(result), p50(orphan), slices.Max(orphan))
}

// p50 returns the median of ds (the upper one of an even count), rounded to the millisecond.
func p50(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Millisecond)
}

// startWorkerProcess starts the test binary as a worker process (TestMain), stopped at cleanup.
func startWorkerProcess(t *testing.T, hostPort, namespace, queue string, cfg workerConfig) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(),
		workerEnv+"="+hostPort, workerNSEnv+"="+namespace, workerQueue+"="+queue,
		workerCLI+"="+cfg.cli, workerHome+"="+cfg.home, workerModel+"="+cfg.modelURL,
		workerProject+"="+cfg.project, workerStore+"="+cfg.store, workerTagTo+"="+cfg.tag,
		workerPG+"="+cfg.pg, workerSchema+"="+cfg.schema, workerLedger+"="+cfg.ledger)
	logPath := filepath.Join(t.TempDir(), "worker.log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		f.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("worker %d log:\n%s", cmd.Process.Pid, strings.TrimSpace(string(b)))
		}
	})
	return cmd
}

func randomTag() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// testStore returns the crash test's store: PostgreSQL (contrib/pgstore, in a schema of its own,
// dropped at cleanup) when $PGSTORE_TEST_DSN names one (.ci/run starts it; it is required when
// CI=true), else a FileStore in a temporary directory.
func testStore(t *testing.T) (dir, dsn, schema string) {
	t.Helper()
	dsn = os.Getenv("PGSTORE_TEST_DSN")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("PGSTORE_TEST_DSN is not set (CI=true): start a database with eval \"$(.ci/postgres)\"")
		}
		t.Log("PGSTORE_TEST_DSN is not set: the transcripts go to a FileStore")
		return t.TempDir(), "", ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	schema = "temporalagent_" + randomTag()
	if err := pgstore.New(pool, pgstore.WithSchema(schema)).Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = pool.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
	})
	return "", dsn, schema
}

// storeMessages reads a session back from the test's store.
func storeMessages(t *testing.T, dir, dsn, schema, cwd, id string) iter.Seq2[shared.Message, error] {
	t.Helper()
	if dsn == "" {
		return sessions.Dir(dir).Messages(cwd, id)
	}
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return sessions.StoreMessages(context.Background(), pgstore.New(pool, pgstore.WithSchema(schema)), sessions.Key{ProjectKey: sessions.ProjectKey(cwd), SessionID: id})
}
