package sessions_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/hookwire/agent-sdk-go/claude/sessions"
)

// benchLines returns a transcript's worth of lines: a prompt, then assistant and tool-result
// lines of about 2 KB each, the mix of a working session.
func writeBenchTranscript(b *testing.B, path string, size int64) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	pad := strings.Repeat("lorem ipsum ", 150)
	var n int64
	k, _ := fmt.Fprintln(w, prompt("bench prompt"))
	n += int64(k)
	for i := 0; n < size; i++ {
		k, _ = fmt.Fprintf(w, `{"parentUuid":"u%d","isSidechain":false,"message":{"id":"msg_%d","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"%s"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":20}},"type":"assistant","uuid":"a%d","timestamp":"2026-11-25T04:25:43.900Z","cwd":"/w","sessionId":"s"}`+"\n", i, i, pad, i)
		n += int64(k)
		k, _ = fmt.Fprintf(w, `{"parentUuid":"a%d","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"%s","is_error":false}]},"uuid":"u%d","timestamp":"2026-11-25T04:25:43.919Z","toolUseResult":{"stdout":"x"},"cwd":"/w","sessionId":"s"}`+"\n", i, i, pad, i+1)
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkList lists a project of 1,000 sessions of about 300 KB each (List reads 128 KB of each).
func BenchmarkList(b *testing.B) {
	dir := sessions.Dir(b.TempDir())
	const cwd = "/bench/project"
	first := filepath.Join(b.TempDir(), "t.jsonl")
	writeBenchTranscript(b, first, 300<<10)
	data, err := os.ReadFile(first)
	if err != nil {
		b.Fatal(err)
	}
	pd := dir.ProjectDir(cwd)
	if err := os.MkdirAll(pd, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		p := filepath.Join(pd, fmt.Sprintf("%08x-0000-4000-8000-000000000000.jsonl", i))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		mt := time.Unix(int64(1_700_000_000+i), 0)
		if err := os.Chtimes(p, mt, mt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		l, err := dir.List(context.Background(), cwd)
		if err != nil || len(l) != 1000 {
			b.Fatalf("List: %d sessions, %v", len(l), err)
		}
	}
}

// BenchmarkMessages reads transcripts of 10 MB and 100 MB. peak-live-MB, the most live heap that
// a garbage collection found during a read, stays flat as the transcript grows tenfold: reading
// streams.
func BenchmarkMessages(b *testing.B) {
	for _, size := range []int64{10 << 20, 100 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			dir := sessions.Dir(b.TempDir())
			const cwd = "/bench/project"
			const id = "aaaaaaaa-0000-4000-8000-000000000001"
			p, _ := dir.TranscriptPath(cwd, id)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			writeBenchTranscript(b, p, size)
			b.SetBytes(size)
			b.ReportAllocs()
			sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			var peak uint64
			runtime.GC()
			b.ResetTimer()
			for b.Loop() {
				n := 0
				for _, err := range dir.Messages(cwd, id) {
					if err != nil {
						b.Fatal(err)
					}
					if n++; n%512 == 0 {
						metrics.Read(sample)
						peak = max(peak, sample[0].Value.Uint64())
					}
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-live-MB")
		})
	}
}
