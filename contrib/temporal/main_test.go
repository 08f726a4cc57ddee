package temporalagent_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/contrib/pgstore"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
	"github.com/hookwire/agent-sdk-go/contrib/temporal/pgledger"
)

// TestMain runs a worker instead of the tests when the crash test starts the test binary as one
// (workerEnv set): a worker in an OS process of its own, which the test can SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(runWorkerProcess())
	}
	code := m.Run()
	if srv != nil {
		srv.Stop()
	}
	os.Exit(code)
}

// The environment of a worker process.
const (
	workerEnv     = "TEMPORALAGENT_TEST_WORKER" // the Temporal frontend host:port
	workerNSEnv   = "TEMPORALAGENT_TEST_NAMESPACE"
	workerQueue   = "TEMPORALAGENT_TEST_QUEUE"
	workerCLI     = "TEMPORALAGENT_TEST_CLI"
	workerHome    = "TEMPORALAGENT_TEST_HOME"
	workerModel   = "TEMPORALAGENT_TEST_MODEL"
	workerProject = "TEMPORALAGENT_TEST_PROJECT"
	workerStore   = "TEMPORALAGENT_TEST_STORE"     // a FileStore's directory
	workerPG      = "TEMPORALAGENT_TEST_PG"        // or a PostgreSQL DSN for contrib/pgstore
	workerSchema  = "TEMPORALAGENT_TEST_SCHEMA"    // and its schema
	workerLedger  = "TEMPORALAGENT_TEST_LEDGER"    // a FileLedger's directory, when not on PostgreSQL
	workerTag     = "TEMPORALAGENT_TEST_TAG"       // set for the CLI and all it starts: finds what is left
	workerTagTo   = "TEMPORALAGENT_TEST_TAG_VALUE" // the worker's tag (not in its own environment)
)

// workerConfig is what a worker needs to run turns against a test's fake model.
type workerConfig struct {
	cli, home, modelURL, project, store, pg, schema, tag string
	ledger                                               string // a FileLedger's directory, or on PostgreSQL any non-empty value ("": no ledger)
}

// activities returns the worker's activities: sessions run the real CLI against the fake model,
// with their own HOME, in the project, mirrored to the FileStore at store.
func (c workerConfig) activities(logger *slog.Logger, more ...temporalagent.Option) (*temporalagent.Activities, error) {
	var acts *temporalagent.Activities // the effects tool's, set below before any turn runs
	opts := []temporalagent.Option{
		temporalagent.WithSessionOptions(
			v2.WithCLIPath(c.cli),
			v2.WithBaseEnv(claudetest.CLIEnv(c.home, c.modelURL)...),
			v2.WithEnv(workerTag+"="+c.tag),
			v2.WithLogger(logger),
			v2.WithMCPServer("effects", mcptools.Server(effectsServer(c.project, &acts))),
		),
		temporalagent.WithConfigDir(filepath.Join(c.home, ".claude")),
		temporalagent.WithWorkspaceRoot(c.project),
		temporalagent.WithLogger(logger),
	}
	switch {
	case c.pg != "":
		pool, err := pgxpool.New(context.Background(), c.pg) // lives as long as the worker process
		if err != nil {
			return nil, err
		}
		opts = append(opts, temporalagent.WithStore(pgstore.New(pool, pgstore.WithSchema(c.schema))))
		if c.ledger != "" {
			opts = append(opts, temporalagent.WithLedger(pgledger.New(pool, pgledger.WithSchema(c.schema))))
		}
	case c.store != "":
		opts = append(opts, temporalagent.WithStore(sessions.FileStore{Dir: sessions.Dir(c.store)}))
		if c.ledger != "" {
			opts = append(opts, temporalagent.WithLedger(temporalagent.FileLedger{Dir: c.ledger}))
		}
	}
	acts, err := temporalagent.NewActivities(append(opts, more...)...)
	return acts, err
}

// runWorkerProcess is the body of a worker process: it polls the activity queue until killed.
func runWorkerProcess() int {
	cfg := workerConfig{
		cli: os.Getenv(workerCLI), home: os.Getenv(workerHome), modelURL: os.Getenv(workerModel),
		project: os.Getenv(workerProject), store: os.Getenv(workerStore), tag: os.Getenv(workerTagTo),
		pg: os.Getenv(workerPG), schema: os.Getenv(workerSchema), ledger: os.Getenv(workerLedger),
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c, err := client.Dial(client.Options{HostPort: os.Getenv(workerEnv), Namespace: os.Getenv(workerNSEnv), Logger: logger})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	defer c.Close()
	acts, err := cfg.activities(logger)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	w := worker.New(c, os.Getenv(workerQueue), activityWorkerOptions)
	acts.Register(w)
	if err := w.Run(worker.InterruptCh()); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	return 0
}

// testHeartbeatTimeout is the tests' activity heartbeat timeout: a dead worker is noticed within
// it. 3 s was too short on this shared 2-core machine under a load of 30: heartbeat calls of a live
// worker timed out (the in-process server, built with -race, answers slowly) and the turn was
// retried.
const testHeartbeatTimeout = 10 * time.Second

// activityWorkerOptions are the test workers' options: the SDK's defaults (a heartbeat reaches the
// server at most every 0.8 x the heartbeat timeout).
var activityWorkerOptions = worker.Options{}

var (
	srvOnce sync.Once
	srv     *temporaltest.TestServer
	srvErr  error
)

// server returns the package's Temporal server, a real one in this process, started once.
// Its namespace takes workflows before the first test starts one (a loaded machine takes a while).
func server(t testing.TB) *temporaltest.TestServer {
	srvOnce.Do(func() {
		srv = temporaltest.NewServer()
		srvErr = awaitNamespace(srv.GetDefaultClient())
	})
	if srvErr != nil {
		t.Fatalf("the Temporal test server's namespace: %v", srvErr)
	}
	return srv
}

// awaitNamespace returns once c's namespace takes a workflow: it starts one nobody runs, and
// terminates it. On a loaded machine, the namespace answered a DescribeNamespace (and even a
// listing) while starting a workflow still failed with "Namespace ... is not found". The bound
// only catches a server that never comes up.
func awaitNamespace(c client.Client) error {
	deadline := time.Now().Add(3 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: "readiness-" + randomTag()}, "readiness")
		if err == nil {
			err = c.TerminateWorkflow(ctx, run.GetID(), run.GetRunID(), "the namespace is ready")
		}
		cancel()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// turnWorkflow runs one turn on the activity queue with short timeouts (a dead worker is noticed
// within testHeartbeatTimeout), and approvals.
func turnWorkflow(ctx workflow.Context, queue string, in temporalagent.TurnInput) (*temporalagent.TurnResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           queue,
		StartToCloseTimeout: 5 * time.Minute,
		HeartbeatTimeout:    testHeartbeatTimeout,
		RetryPolicy:         &temporalRetry,
	})
	ap, err := temporalagent.NewApprovals(ctx, time.Hour)
	if err != nil {
		return nil, err
	}
	return temporalagent.RunTurn(ctx, ap, in)
}

// crashWorkflow runs one turn on the activity queue with DefaultActivityOptions but for the
// heartbeat timeout (when not 0) and a quick retry.
func crashWorkflow(ctx workflow.Context, queue string, heartbeatTimeout time.Duration, in temporalagent.TurnInput) (*temporalagent.TurnResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{TaskQueue: queue, HeartbeatTimeout: heartbeatTimeout, RetryPolicy: &temporalRetry})
	return temporalagent.RunTurn(ctx, nil, in)
}

// startWorkflowWorker runs turnWorkflow on its own queue in this process, and returns the queue.
func startWorkflowWorker(t testing.TB, ts *temporaltest.TestServer) string {
	t.Helper()
	queue := "wf-" + t.Name()
	ts.NewWorker(queue, func(r worker.Registry) {
		r.RegisterWorkflow(turnWorkflow)
		r.RegisterWorkflow(crashWorkflow)
		r.RegisterWorkflow(twoSessions)
	}) // stopped by the server
	return queue
}

// waitFor polls cond until it holds; the bound only catches hangs.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute) // a loaded machine's CLI can take a minute to start
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tagged returns the pids of the processes whose environment has tag (Linux: /proc).
func tagged(tag string) []int {
	entries, _ := os.ReadDir("/proc")
	want := []byte(workerTag + "=" + tag + "\x00")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		if bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...)) {
			if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
				s := string(stat)
				if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && s[i+2] == 'Z' {
					continue // a zombie: it has ended
				}
			}
			pids = append(pids, pid)
		}
	}
	return pids
}

// testLogger logs to t.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

func itoa(n int) string { return strconv.Itoa(n) }
