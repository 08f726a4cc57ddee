package v2_test

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// ServerInfo's models and account say what the CLI does: each model's Value, given to SetModel,
// makes the next request ask for its ResolvedModel; the account is the API key of the
// environment (claudetest's), first party; every effort level a model reports is one of
// WithEffort's.
func TestRealCLI_ServerInfoContent(t *testing.T) {
	t.Parallel()
	env := newRealEnvHandler(t, func(_ string, r claudetest.Request) claudetest.Reply { return claudetest.TextReply("ok") })
	s := env.session(t)
	si, err := s.ServerInfo()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("account %+v; models %+v", si.Account, si.Models)
	if si.Account.APIKeySource != "ANTHROPIC_API_KEY" || si.Account.APIProvider != "firstParty" {
		t.Errorf("account %+v, want the API key of the environment, first party", si.Account)
	}
	if len(si.Models) == 0 {
		t.Fatal("no models")
	}
	tried := 0
	for _, m := range si.Models {
		if m.Value == "" || m.DisplayName == "" {
			t.Errorf("model %+v: no value or display name", m)
		}
		for _, l := range m.SupportedEffortLevels {
			switch l {
			case v2.EffortLow, v2.EffortMedium, v2.EffortHigh, v2.EffortXHigh, v2.EffortMax:
			default:
				t.Errorf("model %q: effort level %q has no Effort constant", m.Value, l)
			}
		}
		if m.ResolvedModel == "" {
			continue
		}
		if err := s.SetModel(testCtx(t), m.Value); err != nil {
			t.Errorf("SetModel(%q): %v", m.Value, err)
			continue
		}
		before := len(env.api.Requests())
		run(t, s, "which model")
		reqs := env.api.Requests()
		if len(reqs) <= before || reqs[before].Model != m.ResolvedModel {
			got := ""
			if len(reqs) > before {
				got = reqs[before].Model
			}
			t.Errorf("SetModel(%q): the request asked for %q, ServerInfo said %q", m.Value, got, m.ResolvedModel)
		}
		tried++
	}
	if tried == 0 {
		t.Error("no model has a resolvedModel")
	}
}

// WithTools("default") offers the CLI's default set: the same tools as no WithTools, more than a
// named set.
func TestRealCLI_ToolsDefault(t *testing.T) {
	t.Parallel()
	tools := func(opts ...v2.Option) []string {
		env := textEnv(t, "ok")
		run(t, env.session(t, opts...), "hi")
		return firstRequest(t, env).Tools
	}
	def, none, read := tools(v2.WithTools("default")), tools(), tools(v2.WithTools("Read"))
	if len(def) < 5 || !containsString(def, "Bash") || !containsString(def, "Write") {
		t.Errorf("WithTools(\"default\"): tools %q, want the default set", def)
	}
	if len(def) != len(none) {
		t.Errorf("WithTools(\"default\") offers %q, no WithTools %q", def, none)
	}
	for _, n := range none {
		if !containsString(def, n) {
			t.Errorf("WithTools(\"default\") lacks %q", n)
		}
	}
	if containsString(read, "Bash") {
		t.Errorf("WithTools(\"Read\") offers %q", read)
	}
}
