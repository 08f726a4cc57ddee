package v2_test

import (
	"bytes"
	"os"
	"testing"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// TestRealCLI_ControlCallArguments: the control calls' arguments reach CLI 2.1.332 and change its
// answer: ReadFile with Base64 returns a binary file's bytes (the text read replaces them),
// ResetMaxThinkingTokens brings back the start's budget after SetMaxThinkingTokens,
// SetMCPPermissionModeOverride for a server
// the CLI does not know gets its warning, and ContextUsage's summary and ReloadPlugins's options
// are accepted, as is Usage with Behaviors (its section stayed null on this API-key account).
func TestRealCLI_ControlCallArguments(t *testing.T) {
	t.Parallel()
	env := textEnv(t, "one", "two", "three")
	bin := make([]byte, 256)
	for i := range bin {
		bin[i] = byte(i)
	}
	if err := os.WriteFile(env.path("blob.bin"), bin, 0o600); err != nil {
		t.Fatal(err)
	}
	s := env.session(t, v2.WithModel("claude-sonnet-4-5"), v2.WithMaxThinkingTokens(3000))
	ctx := testCtx(t)

	f, err := s.ReadFile(ctx, "blob.bin", v2.ReadFileOptions{Base64: true})
	if err != nil || f.Encoding != "base64" {
		t.Fatalf("ReadFile(Base64) = %+v, %v", f, err)
	}
	if got, err := f.Bytes(); err != nil || !bytes.Equal(got, bin) {
		t.Errorf("ReadFile(Base64).Bytes() = %v, %v; want the file's 256 bytes", got, err)
	}
	if f, err := s.ReadFile(ctx, "blob.bin", v2.ReadFileOptions{}); err != nil || f.Encoding == "base64" || f.Contents == string(bin) {
		t.Errorf("ReadFile as text = %+v, %v; want the lossy text", f, err)
	}

	budget := func() any {
		t.Helper()
		last, _ := env.api.LastRequest()
		th, _ := bodyField(t, last, "thinking").(map[string]any)
		return th["budget_tokens"]
	}
	run(t, s, "hi")
	if b := budget(); b != float64(3000) {
		t.Fatalf("the start's budget = %v, want 3000", b)
	}
	if err := s.SetMaxThinkingTokens(ctx, 8000, ""); err != nil {
		t.Fatal(err)
	}
	run(t, s, "again")
	if b := budget(); b != float64(8000) {
		t.Errorf("budget after SetMaxThinkingTokens(8000) = %v", b)
	}
	if err := s.ResetMaxThinkingTokens(ctx); err != nil {
		t.Fatalf("ResetMaxThinkingTokens: %v", err)
	}
	run(t, s, "once more")
	if b := budget(); b != float64(3000) {
		t.Errorf("budget after ResetMaxThinkingTokens = %v, want the start's 3000", b)
	}

	// Behaviors: the CLI takes the request either way; on this API-key account (no subscription)
	// CLI 2.1.332 answered behaviors null even when asked, so only the refusal-free answer is
	// checked here.
	for _, behaviors := range []bool{false, true} {
		u, err := s.Usage(ctx, v2.UsageOptions{Behaviors: behaviors})
		if err != nil || u.Session.TotalDurationMS <= 0 {
			t.Fatalf("Usage(Behaviors %v) = %+v, %v", behaviors, u, err)
		}
		t.Logf("Usage(Behaviors %v): behaviors %s", behaviors, u.Behaviors)
	}

	if w, err := s.SetMCPPermissionModeOverride(ctx, "no-such-server", v2.MCPPermissionDefault); err != nil || w == "" {
		t.Errorf("SetMCPPermissionModeOverride(unknown server) = %q, %v; want the CLI's warning", w, err)
	}
	if _, err := s.SetMCPPermissionModeOverride(ctx, "no-such-server", ""); err != nil {
		t.Errorf("SetMCPPermissionModeOverride(clear) = %v", err)
	}
	if _, err := s.SetMCPPermissionModeOverride(ctx, "x", "sometimes"); err == nil {
		t.Error("SetMCPPermissionModeOverride(unknown mode): no error")
	}

	if u, err := s.ContextUsage(ctx, v2.ContextUsageOptions{Summary: true}); err != nil || u.TotalTokens <= 0 {
		t.Errorf("ContextUsage(Summary) = %+v, %v", u, err)
	}
	if r, err := s.ReloadPlugins(ctx, v2.ReloadPluginsOptions{HoldOnCacheImpact: true, RefuseIfBusy: true}); err != nil || r.Held {
		t.Errorf("ReloadPlugins(hold, refuse if busy) while idle = %+v, %v", r, err)
	}
}
