package temporalagent_test

import (
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
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/contrib/pgstore"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

// A worker dies (SIGKILL) in the middle of a turn of three tool calls, after two of them ran;
// the retry runs on another worker process, with another HOME (the transcript comes from the
// store), resumes the session at the second call's result, and finishes: each completed call
// ran once, the third ran once, and the store holds the whole turn.
func TestCrashResumesOnAnotherWorker(t *testing.T) {
	d := crashAndResume(t)
	t.Logf("from the kill to the resumed session's first model call: %s; to the result: %s",
		d.toResumed.Round(time.Millisecond), d.toResult.Round(time.Millisecond))
}

// crashTimes are the durations of one crash test, from the kill of the first worker.
type crashTimes struct {
	toResumed time.Duration // to the resumed session's first model call (the heartbeat timeout, the retry, the restore, the CLI's start)
	toResult  time.Duration // to the workflow's result (and the rest of the turn: one tool call, two model calls)
}

// crashAndResume runs the crash test once and returns its durations.
func crashAndResume(t *testing.T) crashTimes {
	ts := server(t)
	c := ts.GetDefaultClient()
	wfQueue := startWorkflowWorker(t, ts)
	actQueue := "act-" + t.Name() + "-" + randomTag()
	killed := make(chan struct{})
	var resumedAt atomic.Pointer[time.Time]
	env := claudetest.NewEnv(t, func(project string) *claudetest.Model {
		return claudetest.NewModelFunc(func(r claudetest.Request) claudetest.Reply {
			results := len(r.ToolResults())
			switch {
			case r.Contains("has been resumed here"):
				now := time.Now()
				resumedAt.CompareAndSwap(nil, &now)
				if results == 2 {
					return claudetest.ToolReply("toolu_C", "Bash", map[string]any{"command": "echo C >> ran.log"})
				}
				return claudetest.TextReply("all done")
			case results == 0:
				return claudetest.ToolReply("toolu_A", "Bash", map[string]any{"command": "echo A >> ran.log"})
			case results == 1:
				return claudetest.ToolReply("toolu_B", "Bash", map[string]any{"command": "echo B >> ran.log"})
			default:
				// The first worker's CLI asks for the third call: hold it until that worker is
				// dead, then end the orphaned CLI's turn.
				<-killed
				return claudetest.TextReply("orphan: nothing more")
			}
		})
	})
	t.Cleanup(func() {
		select {
		case <-killed:
		default:
			close(killed)
		}
	})
	store, pg, schema := testStore(t)
	tag := randomTag()
	cfg := func(home string) workerConfig {
		return workerConfig{cli: claudetest.RequireCLI(t), home: home, modelURL: env.Model.URL(), project: env.Project,
			store: store, pg: pg, schema: schema, tag: tag}
	}
	first := startWorkerProcess(t, ts.GetFrontendHostPort(), ts.GetDefaultNamespace(), actQueue, cfg(env.Home))

	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // only catches a hang
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: wfQueue}, turnWorkflow, actQueue,
		temporalagent.TurnInput{Prompt: "log three letters", Options: temporalagent.SessionOptions{AllowedTools: []string{"Bash"}}})
	if err != nil {
		t.Fatal(err)
	}
	var before temporalagent.Progress
	waitFor(t, "the heartbeat to report two completed calls", func() bool {
		p, ok := progress(ctx, c, run.GetID())
		before = p
		return ok && len(p.CompletedToolUses) == 2
	})
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killedAt := time.Now()
	_ = first.Wait()
	close(killed)
	startWorkerProcess(t, ts.GetFrontendHostPort(), ts.GetDefaultNamespace(), actQueue, cfg(t.TempDir()))

	var res temporalagent.TurnResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("the workflow: %v", err)
	}
	// The figures docs/TEMPORAL.md reports: the heartbeat timeout + the retry + the CLI start +
	// restore + the rest of the turn (two model calls and a tool).
	times := crashTimes{toResult: time.Since(killedAt)}
	if at := resumedAt.Load(); at != nil {
		times.toResumed = at.Sub(killedAt)
	}
	if res.Result != "all done" || res.Resumes != 1 || res.SessionID != before.SessionID {
		t.Errorf("result = %q, resumes %d, session %s; want \"all done\", 1, %s", res.Result, res.Resumes, res.SessionID, before.SessionID)
	}
	ran, _ := os.ReadFile(env.Path("ran.log"))
	if diff := cmp.Diff("A\nB\nC\n", string(ran)); diff != "" {
		t.Errorf("the tool calls' side effects (-want +got):\n%s", diff)
	}
	// The store has the turn: both attempts, the resumed one after the second result.
	var texts []string
	for m, err := range storeMessages(t, store, pg, schema, env.Project, res.SessionID) {
		if err != nil {
			t.Fatal(err)
		}
		if a, ok := m.(*shared.AssistantMessage); ok {
			for _, b := range a.Message.Content {
				switch b.Type {
				case "tool_use":
					texts = append(texts, "use "+b.ID)
				case "text":
					texts = append(texts, b.Text)
				}
			}
		}
	}
	if diff := cmp.Diff([]string{"use toolu_A", "use toolu_B", "use toolu_C", "all done"}, texts); diff != "" {
		t.Errorf("the store's transcript, assistant side (-want +got):\n%s", diff)
	}
	waitFor(t, "the killed worker's CLI to end", func() bool { return len(tagged(tag)) == 0 })
	return times
}

// TestCrashResumeTimes runs the crash test $TEMPORALAGENT_CRASH_RUNS times (skipped when unset)
// and logs the median durations docs/TEMPORAL.md reports:
//
//	TEMPORALAGENT_CRASH_RUNS=10 go test -race -run TestCrashResumeTimes -v .
func TestCrashResumeTimes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TEMPORALAGENT_CRASH_RUNS"))
	if n <= 0 {
		t.Skip("set TEMPORALAGENT_CRASH_RUNS to the number of crash tests to time")
	}
	var resumed, result []time.Duration
	for i := range n {
		t.Run(itoa(i), func(t *testing.T) {
			d := crashAndResume(t)
			resumed, result = append(resumed, d.toResumed), append(result, d.toResult)
			t.Logf("kill -> resumed model call %s, -> result %s", d.toResumed.Round(time.Millisecond), d.toResult.Round(time.Millisecond))
		})
	}
	t.Logf("%d crash tests, heartbeat timeout %s: kill -> resumed model call p50 %s (min %s, max %s); kill -> result p50 %s (min %s, max %s)",
		len(resumed), testHeartbeatTimeout, p50(resumed), slices.Min(resumed), slices.Max(resumed), p50(result), slices.Min(result), slices.Max(result))
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
		workerPG+"="+cfg.pg, workerSchema+"="+cfg.schema)
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
