package pgstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// installHint is the one line a skipped test says: how to get what it needs.
const installHint = "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: " +
	"`apt-get install -y postgresql` (Debian, Ubuntu), `brew install postgresql` (macOS), " +
	"or set PGSTORE_TEST_DSN to a database the tests may write to"

// server is the throw-away PostgreSQL the tests share: started by the first test that needs it,
// stopped and removed by TestMain.
var server struct {
	once sync.Once
	dsn  string
	err  error // nil, errNoServer, or why it did not start
	stop func()
}

var errNoServer = errors.New(installHint)

func TestMain(m *testing.M) {
	code := m.Run()
	if server.stop != nil {
		server.stop()
	}
	os.Exit(code)
}

// testDSN is the database the tests use: $PGSTORE_TEST_DSN, else a throw-away cluster of the
// installed PostgreSQL (in a temporary directory, on a unix socket there only, no TCP port).
// Without PostgreSQL the test is skipped with installHint, or fails when CI=true.
func testDSN(t *testing.T) string {
	t.Helper()
	if dsn := os.Getenv("PGSTORE_TEST_DSN"); dsn != "" {
		return dsn
	}
	server.once.Do(func() { server.dsn, server.stop, server.err = startServer() })
	switch {
	case server.err == nil:
		return server.dsn
	case errors.Is(server.err, errNoServer) && os.Getenv("CI") != "true":
		t.Skip(installHint)
	}
	t.Fatalf("pgstore tests: %v", server.err)
	return ""
}

// postgresBin is the directory of initdb and pg_ctl: PATH's, else the newest of Debian's
// /usr/lib/postgresql/VERSION/bin (not on PATH there).
func postgresBin() (string, bool) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), true
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return majorOf(a) - majorOf(b) })
	for _, d := range slices.Backward(dirs) {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, true
		}
	}
	return "", false
}

// majorOf is VERSION of /usr/lib/postgresql/VERSION/bin.
func majorOf(bin string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bin)))
	return n
}

// startServer makes a cluster in a new temporary directory and starts it, as .ci/postgres did:
// trust authentication for the local socket, no fsync. PostgreSQL refuses to run as root, so as
// root the server runs as the user "postgres" (which Debian's package creates).
func startServer() (dsn string, stop func(), err error) {
	bin, ok := postgresBin()
	if !ok {
		return "", nil, errNoServer
	}
	dir, err := os.MkdirTemp("", "pgstore-test-")
	if err != nil {
		return "", nil, err
	}
	var asOwner []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return "", nil, fmt.Errorf("running as root, and PostgreSQL refuses to: no user \"postgres\" to run it as (%w)", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return "", nil, err
		}
		asOwner = []string{"runuser", "-u", "postgres", "--"}
	}
	pg := func(ctx context.Context, name string, args ...string) error {
		argv := append(slices.Clone(asOwner), append([]string{filepath.Join(bin, name)}, args...)...)
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			return fmt.Errorf("%s: %w\n%s%s", strings.Join(argv, " "), err, out.Bytes(), log)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // only catches a hang
	defer cancel()
	data := filepath.Join(dir, "data")
	if err := pg(ctx, "initdb", "-D", data, "-U", "pgstore", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	if err := pg(ctx, "pg_ctl", "-D", data, "-l", filepath.Join(dir, "server.log"), "-w",
		"-o", "-F -k "+dir+" -c listen_addresses=''", "start"); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := pg(ctx, "pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"); err != nil {
			fmt.Fprintln(os.Stderr, "pgstore tests: stopping the throw-away PostgreSQL:", err)
		}
		os.RemoveAll(dir)
	}
	return "host=" + dir + " user=pgstore dbname=postgres sslmode=disable", stop, nil
}
