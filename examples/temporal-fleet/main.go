package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/contrib/pgstore"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
	"github.com/hookwire/agent-sdk-go/contrib/temporal/pgledger"
)

// flags are the command's flags.
type flags struct {
	hostPort, namespace, repo, root, pg, schema, storeDir, fakeModel, home string
	worker, crash                                                          bool
	n                                                                      int
}

func main() {
	var f flags
	flag.StringVar(&f.hostPort, "temporal", "", "Temporal frontend host:port; empty runs the demonstration on an in-process server")
	flag.StringVar(&f.namespace, "namespace", "default", "Temporal namespace")
	flag.BoolVar(&f.worker, "worker", false, "run a worker instead of starting a fleet")
	flag.StringVar(&f.repo, "repo", ".", "the repository the sessions work on (cloned once per session)")
	flag.StringVar(&f.root, "root", filepath.Join(os.TempDir(), "agent-fleet"), "where the checkouts are (the workers' workspace root)")
	flag.StringVar(&f.pg, "pg", os.Getenv("DATABASE_URL"), "PostgreSQL DSN for the transcripts and the ledger; empty: files under -store")
	flag.StringVar(&f.schema, "schema", "temporal_fleet", "the PostgreSQL schema of the store and the ledger")
	flag.StringVar(&f.storeDir, "store", filepath.Join(os.TempDir(), "agent-fleet-store"), "the directory of the transcripts and the ledger without -pg")
	flag.StringVar(&f.fakeModel, "fake-model", "", "a worker's fake Messages API URL (the demonstration's)")
	flag.StringVar(&f.home, "home", "", "with -fake-model: the CLI's HOME")
	flag.IntVar(&f.n, "n", 3, "the demonstration's number of sessions")
	flag.BoolVar(&f.crash, "crash", true, "the demonstration kills its first worker mid-turn")
	flag.Parse()
	ctx := context.Background()
	if f.hostPort == "" && !f.worker {
		if err := demo(ctx, f); err != nil {
			log.Fatal(err)
		}
		return
	}
	c, err := client.Dial(client.Options{HostPort: f.hostPort, Namespace: f.namespace})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if f.worker {
		w, err := f.newWorker(ctx, c)
		if err != nil {
			log.Fatal(err)
		}
		log.Fatal(w.Run(worker.InterruptCh()))
	}
	tasks := flag.Args()
	dirs, err := Checkouts(ctx, f.repo, f.root, len(tasks))
	if err != nil {
		log.Fatal(err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: TaskQueue}, Fleet,
		FleetInput{Checkouts: dirs, Tasks: tasks, Options: temporalagent.SessionOptions{PermissionMode: string(v2.PermissionModeAcceptEdits)}})
	if err != nil {
		log.Fatal(err)
	}
	var results []FleetResult
	if err := run.Get(ctx, &results); err != nil {
		log.Fatal(err)
	}
	for _, r := range results {
		fmt.Printf("%s\n  session %s, $%.4f, resumed %d times\n  %s%s\n", r.Task, r.SessionID, r.CostUSD, r.Resumes, r.Result, r.Err)
	}
}

// newWorker makes the worker: the store and ledger (PostgreSQL or files), and with -fake-model
// the sessions on the demonstration's fake model.
func (f flags) newWorker(ctx context.Context, c client.Client) (worker.Worker, error) {
	var opts []temporalagent.Option
	if f.pg != "" {
		pool, err := pgxpool.New(ctx, f.pg) // lives as long as the process
		if err != nil {
			return nil, err
		}
		opts = append(opts, temporalagent.WithStore(pgstore.New(pool, pgstore.WithSchema(f.schema))),
			temporalagent.WithLedger(pgledger.New(pool, pgledger.WithSchema(f.schema))))
	} else {
		opts = append(opts, temporalagent.WithStore(sessions.FileStore{Dir: sessions.Dir(filepath.Join(f.storeDir, "transcripts"))}),
			temporalagent.WithLedger(temporalagent.FileLedger{Dir: filepath.Join(f.storeDir, "ledger")}))
	}
	if f.fakeModel != "" {
		cli, err := claudetest.FindCLI()
		if err != nil {
			return nil, err
		}
		opts = append(opts, temporalagent.WithConfigDir(filepath.Join(f.home, ".claude")),
			temporalagent.WithSessionOptions(v2.WithCLIPath(cli), v2.WithBaseEnv(claudetest.CLIEnv(f.home, f.fakeModel)...)))
	}
	return NewWorker(c, f.root, opts...)
}

// pgReachable reports whether dsn names a database that answers within a few seconds.
func pgReachable(ctx context.Context, dsn string) bool {
	if dsn == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return false
	}
	defer pool.Close()
	return pool.Ping(ctx) == nil
}
