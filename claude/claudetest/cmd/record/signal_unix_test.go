//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
)

// The command, a process of its own, saves the script when it gets SIGINT (Ctrl-C) or SIGTERM.
func TestRecordSavesOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			model := claudetest.NewModel(upstreamScript...)
			defer model.Close()
			out := filepath.Join(t.TempDir(), "incident.json")
			cmd := exec.Command(os.Args[0], "-o", out, "-upstream", model.URL())
			cmd.Env = append(os.Environ(), "RECORD_TEST_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			u := baseURL(t, stdout)
			send(t, u, true)
			send(t, u, false)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("record: %v, stderr:\n%s", err, &stderr)
			}
			got, err := claudetest.LoadScript(out)
			if err != nil {
				t.Fatalf("%v, stderr:\n%s", err, &stderr)
			}
			if diff := cmp.Diff(want(1), got); diff != "" {
				t.Errorf("script (-want +got):\n%s", diff)
			}
		})
	}
}
