package v2

import (
	"context"
	"errors"
	goflag "flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"

	"github.com/hookwire/agent-sdk-go/claude/policy"
	"github.com/hookwire/agent-sdk-go/claude/sessions"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	"github.com/hookwire/agent-sdk-go/claude/subprocess"
)

var update = goflag.Bool("update", false, "rewrite docs/OPTIONS.md's generated option table")

// optionCase is how a row of optionTable is checked: with base and opts applied (base alone
// being the baseline), the row's destination must change and hold want.
type optionCase struct {
	base []Option
	opts []Option
	want string
}

type nopStore struct{}

func (nopStore) Append(context.Context, sessions.Key, []jsontext.Value) error { return nil }

// optionCases has one case per row of optionTable, by the row's options and key.
var optionCases = map[string]optionCase{
	// flags
	"WithModel|--model": {opts: []Option{WithModel("m1")}, want: "--model=m1"},
	"WithSystemPrompt, WithClaudeCodeSystemPrompt|--system-prompt": {opts: []Option{WithSystemPrompt("be brief")}, want: "--system-prompt=be brief"},
	"WithAppendSystemPrompt|--append-system-prompt":                {opts: []Option{WithAppendSystemPrompt("more")}, want: "--append-system-prompt=more"},
	"WithResume, WithContinue|--system-prompt-snapshot=off (with a system prompt)": {
		base: []Option{WithSystemPrompt("p")}, opts: []Option{WithContinue()}, want: "--system-prompt-snapshot=off"},
	"WithAllowedTools, WithSkills, WithAllSkills|--allowedTools": {opts: []Option{WithAllowedTools("Read"), WithSkills("deploy")}, want: "--allowedTools=Read,Skill(deploy)"},
	"WithDisallowedTools|--disallowedTools":                      {opts: []Option{WithDisallowedTools("Bash")}, want: "--disallowedTools=Bash"},
	"WithPermissionMode|--permission-mode":                       {opts: []Option{WithPermissionMode(PermissionModePlan)}, want: "--permission-mode=plan"},
	"WithMaxTurns|--max-turns":                                   {opts: []Option{WithMaxTurns(3)}, want: "--max-turns=3"},
	"WithAdditionalDirs|--add-dir (once each)":                   {opts: []Option{WithAdditionalDirs("/a", "/b")}, want: "--add-dir=/a\n--add-dir=/b"},
	"WithResume|--resume":                                        {opts: []Option{WithResume(testUUID)}, want: "--resume=" + testUUID},
	"WithContinue|--continue":                                    {opts: []Option{WithContinue()}, want: "--continue"},
	"WithForkSession|--fork-session":                             {base: []Option{WithContinue()}, opts: []Option{WithForkSession()}, want: "--fork-session"},
	"WithResumeAt|--resume-session-at":                           {base: []Option{WithResume(testUUID)}, opts: []Option{WithResumeAt(testUUID2)}, want: "--resume-session-at=" + testUUID2},
	"WithSessionStore|--session-mirror":                          {opts: []Option{WithSessionStore(nopStore{})}, want: "--session-mirror"},
	"WithSessionID|--session-id":                                 {opts: []Option{WithSessionID(testUUID)}, want: "--session-id=" + testUUID},
	"WithSettings, WithCommandHooks, WithPromptHooks, WithSandbox|--settings (the merged settings' temporary file)": {
		opts: []Option{WithSettings("/tmp/merged.json")}, want: "--settings=/tmp/merged.json"},
	"WithIncludePartialMessages|--include-partial-messages": {opts: []Option{WithIncludePartialMessages()}, want: "--include-partial-messages"},
	"WithHookEvents|--include-hook-events":                  {opts: []Option{WithHookEvents()}, want: "--include-hook-events"},
	"WithCanUseTool|--permission-prompt-tool=stdio":         {opts: []Option{WithCanUseTool(allowAll)}, want: "--permission-prompt-tool=stdio"},
	"WithMCPStdioServer, WithMCPSSEServer, WithMCPHTTPServer|--await-initialize": {
		opts: []Option{WithMCPHTTPServer("remote", MCPHTTPServer{URL: "https://x.example/mcp"})}, want: "--await-initialize"},
	"WithoutStrictMCPConfig|--strict-mcp-config (unless WithoutStrictMCPConfig)": {opts: []Option{WithoutStrictMCPConfig()}, want: "--setting-sources=user"},
	"WithJSONSchema, WithOutputSchemaFor|--json-schema":                          {opts: []Option{WithJSONSchema(jsontext.Value(`{"type":"object"}`))}, want: `--json-schema={"type":"object"}`},
	"WithMaxBudgetUSD|--max-budget-usd":                                          {opts: []Option{WithMaxBudgetUSD(0.25)}, want: "--max-budget-usd=0.25"},
	"WithFallbackModels|--fallback-model":                                        {opts: []Option{WithFallbackModels("a", "b")}, want: "--fallback-model=a,b"},
	"WithEffort|--effort":                                                        {opts: []Option{WithEffort(EffortHigh)}, want: "--effort=high"},
	"WithThinking|--thinking":                                                    {opts: []Option{WithThinking(ThinkingDisabled)}, want: "--thinking=disabled"},
	"WithMaxThinkingTokens|--max-thinking-tokens":                                {opts: []Option{WithMaxThinkingTokens(2048)}, want: "--max-thinking-tokens=2048"},
	"WithBetas|--betas":                                                          {opts: []Option{WithBetas("x-1", "y-2")}, want: "--betas=x-1,y-2"},
	"WithTaskBudget|--task-budget":                                               {opts: []Option{WithTaskBudget(9000)}, want: "--task-budget=9000"},
	"WithTools|--tools":                                                          {opts: []Option{WithTools()}, want: "--tools="},
	"WithMainAgent|--agent":                                                      {opts: []Option{WithMainAgent("reviewer")}, want: "--agent=reviewer"},
	"WithPluginDirs|--plugin-dir (once each)":                                    {opts: []Option{WithPluginDirs("/p1", "/p2")}, want: "--plugin-dir=/p1\n--plugin-dir=/p2"},
	"WithPermissionPromptTool|--permission-prompt-tool":                          {opts: []Option{WithPermissionPromptTool("mcp__a__b")}, want: "--permission-prompt-tool=mcp__a__b"},
	"WithSettingSources, WithTrustedProject|--setting-sources (user unless the project is loaded)":                           {opts: []Option{WithTrustedProject()}, want: "--setting-sources=user,project,local"},
	"WithTrustedProjectMemory|the memory files' text, appended to --append-system-prompt before the CLI starts (project.go)": {opts: []Option{WithTrustedProjectMemory()}, want: "projectMemory:true"},
	"WithoutSessionPersistence|--no-session-persistence":                                                                     {opts: []Option{WithoutSessionPersistence()}, want: "--no-session-persistence"},
	"WithResumeDropsTurn|--resume-drops-turn":                                                                                {base: []Option{WithResume(testUUID), WithResumeAt(testUUID2)}, opts: []Option{WithResumeDropsTurn(testUUID3)}, want: "--resume-drops-turn=" + testUUID3},
	"WithProjectConfigRoot|--project-config-root":                                                                            {opts: []Option{WithProjectConfigRoot("/trusted")}, want: "--project-config-root=/trusted"},
	"WithManagedSettings|--managed-settings":                                                                                 {opts: []Option{WithManagedSettings(`{"permissions":{"deny":["Bash"]}}`)}, want: `--managed-settings={"permissions":{"deny":["Bash"]}}`},
	"WithoutPermissionPrompts|--permission-prompts=none":                                                                     {opts: []Option{WithoutPermissionPrompts()}, want: "--permission-prompts=none"},
	"WithAllowBypassPermissions|--allow-dangerously-skip-permissions":                                                        {opts: []Option{WithAllowBypassPermissions()}, want: "--allow-dangerously-skip-permissions"},
	"WithDebugFile|--debug-file":                                                                                             {opts: []Option{WithDebugFile("/tmp/d.log")}, want: "--debug-file=/tmp/d.log"},
	"WithSystemPromptFile|--system-prompt-file":                                                                              {opts: []Option{WithSystemPromptFile("/tmp/p.md")}, want: "--system-prompt-file=/tmp/p.md"},
	"WithThinkingDisplay|--thinking-display":                                                                                 {opts: []Option{WithThinkingDisplay(ThinkingDisplaySummarized)}, want: "--thinking-display=summarized"},
	"WithExtraArgs|the raw arguments (as given, last)":                                                                       {opts: []Option{WithExtraArgs("--foo", "bar")}, want: "--foo\nbar"},

	// environment
	"WithFileCheckpointing|" + FileCheckpointingEnv + "=true":       {opts: []Option{WithFileCheckpointing()}, want: FileCheckpointingEnv + "=true"},
	"WithQuestionPreviewFormat|CLAUDE_CODE_QUESTION_PREVIEW_FORMAT": {opts: []Option{WithQuestionPreviewFormat(QuestionPreviewHTML)}, want: "CLAUDE_CODE_QUESTION_PREVIEW_FORMAT=html"},
	"WithTraceContext|TRACEPARENT, TRACESTATE (of CreateSession's ctx)": {opts: []Option{WithTraceContext(func(context.Context) map[string]string {
		return map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
	})}, want: "TRACEPARENT=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\nTRACESTATE="},
	"WithEnv|KEY=VALUE (over the base)": {opts: []Option{WithEnv("A=1", "B=2")}, want: "A=1\nB=2"},

	// initialize
	"WithAgents|agents":                                 {opts: []Option{WithAgents(map[string]AgentDefinition{"rev": {Description: "d", Prompt: "p"}})}, want: `"agents":{"rev":{"description":"d","prompt":"p"}}`},
	"WithSkills|skills":                                 {opts: []Option{WithSkills("deploy")}, want: `"skills":["deploy"]`},
	"WithPlanModeInstructions|planModeInstructions":     {opts: []Option{WithPlanModeInstructions("plan it")}, want: `"planModeInstructions":"plan it"`},
	"WithToolAliases|toolAliases":                       {opts: []Option{WithToolAliases(map[string]string{"Shell": "Bash"})}, want: `"toolAliases":{"Shell":"Bash"}`},
	"WithTitle|title":                                   {opts: []Option{WithTitle("nightly")}, want: `"title":"nightly"`},
	"WithSubagentText|forwardSubagentText":              {opts: []Option{WithSubagentText()}, want: `"forwardSubagentText":true`},
	"WithExcludeDynamicSections|excludeDynamicSections": {base: []Option{WithClaudeCodeSystemPrompt()}, opts: []Option{WithExcludeDynamicSections()}, want: `"excludeDynamicSections":true`},
	"WithUserDialog|supportedDialogKinds": {opts: []Option{WithUserDialog(func(context.Context, *UserDialogRequest) (UserDialogResult, error) {
		return UserDialogResult{}, nil
	}, DialogRefusalFallback)}, want: `"supportedDialogKinds":["refusal_fallback_prompt"]`},
	"WithPerTaskStopAffordance|perTaskStopAffordance":   {opts: []Option{WithPerTaskStopAffordance()}, want: `"perTaskStopAffordance":true`},
	"WithAgentProgressSummaries|agentProgressSummaries": {opts: []Option{WithAgentProgressSummaries()}, want: `"agentProgressSummaries":true`},
	"WithPromptSuggestions|promptSuggestions":           {opts: []Option{WithPromptSuggestions()}, want: `"promptSuggestions":true`},
	"WithMCPServerSettings|sdkMcpServerConfigs (in-process servers; external ones: their mcpServers entry)": {
		base: []Option{WithMCPServer("db", stubMCPServer{})},
		opts: []Option{WithMCPServerSettings("db", MCPServerSettings{Timeout: 5 * time.Second})}, want: `"sdkMcpServerConfigs":{"db":{"timeout":5000}}`},
	"WithMCPServer|sdkMcpServers (the first initialize)": {opts: []Option{WithMCPServer("db", stubMCPServer{})}, want: `"sdkMcpServers":["db"]`},
	"WithMCPStdioServer, WithMCPSSEServer, WithMCPHTTPServer|mcpServers (the first initialize)": {
		opts: []Option{WithMCPStdioServer("local", MCPStdioServer{Command: "srv", Env: map[string]string{"TOKEN": "t"}})}, want: `"mcpServers":{"local":{"type":"stdio","command":"srv","env":{"TOKEN":"t"}}}`},

	// settings
	"WithSettings|its keys (the base)":                                         {opts: []Option{WithSettings(`{"model":"x"}`)}, want: `"model":"x"`},
	"WithCommandHooks|hooks (appended)":                                        {opts: []Option{WithCommandHooks(map[shared.HookEvent][]SettingsCommandHook{shared.HookEventPreToolUse: {{Command: "echo hi"}}})}, want: `"PreToolUse":[{"hooks":[{"type":"command","command":"echo hi"}]}]`},
	"WithPromptHooks|hooks (appended)":                                         {opts: []Option{WithPromptHooks(map[shared.HookEvent][]SettingsPromptHook{shared.HookEventStop: {{Prompt: "done?"}}})}, want: `"Stop":[{"hooks":[{"type":"prompt","prompt":"done?"}]}]`},
	"WithCommandHooks, WithPromptHooks|disableAllHooks: false (with any hook)": {opts: []Option{WithPromptHooks(map[shared.HookEvent][]SettingsPromptHook{shared.HookEventStop: {{Prompt: "done?"}}})}, want: `"disableAllHooks":false`},
	"WithSandbox|sandbox":                                                      {opts: []Option{WithSandbox(Sandbox{})}, want: `"sandbox":{"enabled":true,"failIfUnavailable":true,`},

	// transport
	"WithCLIPath|CLIPath (looked up on PATH unless WithWrapper)": {opts: []Option{WithCLIPath("/opt/claude")}, want: "CLIPath:/opt/claude "},
	"WithWrapper|Wrapper": {opts: []Option{WithWrapper("ssh", "box")}, want: "Wrapper:[ssh box]"},
	"WithSpawner|Spawner": {opts: []Option{WithSpawner(subprocess.SpawnFunc(func(context.Context, subprocess.SpawnCommand) (subprocess.Process, error) {
		return nil, nil
	}))}, want: "Spawner:0x"},
	"WithCwd|Dir":                             {opts: []Option{WithCwd("/work/p")}, want: "Dir:/work/p "},
	"WithBaseEnv|BaseEnv":                     {opts: []Option{WithBaseEnv("HOME=/h")}, want: "BaseEnv:[HOME=/h]"},
	"WithCanUseTool|CanUseTool":               {opts: []Option{WithCanUseTool(allowAll)}, want: "CanUseTool:0x"},
	"WithPermissionTimeout|PermissionTimeout": {opts: []Option{WithPermissionTimeout(3 * time.Second)}, want: "PermissionTimeout:3s"},
	"WithStderr|OnStderr":                     {opts: []Option{WithStderr(func(string) {})}, want: "OnStderr:0x"},
	"WithMaxLineSize|MaxLineSize":             {opts: []Option{WithMaxLineSize(4096)}, want: "MaxLineSize:4096"},
	"WithCloseGrace|CloseGrace":               {opts: []Option{WithCloseGrace(time.Second)}, want: "CloseGrace:1s"},
	"WithRequestTimeout|RequestTimeout":       {opts: []Option{WithRequestTimeout(2 * time.Second)}, want: "RequestTimeout:2s"},
	"WithRoundTripTrace|OnRoundTrip":          {opts: []Option{WithRoundTripTrace(func(shared.RoundTrip) {})}, want: "OnRoundTrip:0x"},
	"WithHookEvents|HookEvents":               {opts: []Option{WithHookEvents()}, want: "HookEvents:true"},
	"WithLogger|Logger (and the session's)":   {opts: []Option{WithLogger(slog.New(slog.DiscardHandler))}, want: "Logger:0x"},

	// the SDK's side: the setting reaches config (its effect is proven by the option's own tests)
	"WithOptions|the options given, applied in order":                                                                              {opts: []Option{WithOptions(WithModel("m"), nil)}},
	"WithDefaults|the options given, applied in order; later options may replace them":                                             {opts: []Option{WithDefaults(WithModel("d")), WithModel("m")}},
	"WithHooks, WithHook, WithPolicy|the hook executor; initialize hooks (one callback per event)":                                 {opts: []Option{WithHook(shared.HookEventStop, "", shared.HookHandlerFunc(okHook)), WithPolicy(policy.Confined(os.TempDir()))}},
	"WithHookTimeout|the hook executor's timeout of one handler run":                                                               {opts: []Option{WithHookTimeout(time.Second)}},
	"WithStrictHooks|CreateSession's checks of the hook registration":                                                              {opts: []Option{WithStrictHooks()}},
	"WithAllowUnenforcedHooks|CreateSession's checks of the hook registration":                                                     {opts: []Option{WithAllowUnenforcedHooks()}},
	"WithPolicy, WithoutOSConfinement|the CLI's kernel confinement: a Landlock ruleset, TMPDIR and CLAUDE_CONFIG_DIR (confine.go)": {opts: []Option{WithoutOSConfinement()}},
	"WithoutLifecycleHooks|the SDK's SessionStart and SessionEnd":                                                                  {opts: []Option{WithoutLifecycleHooks()}},
	"WithElicitation|the answer to the CLI's elicitation requests (declined without it)": {opts: []Option{WithElicitation(func(context.Context, *ElicitationRequest) (ElicitationResult, error) {
		return ElicitationResult{}, nil
	})}},
	"WithUserInputTimeout|the bound of WithElicitation's and WithUserDialog's callbacks": {opts: []Option{WithUserInputTimeout(time.Second)}},
	"WithSubagentHooks|the hook executor (SubagentStart, SubagentStop)":                  {opts: []Option{WithSubagentHooks(func(*shared.SubagentStartHookInput) shared.Hooks { return nil })}},
	"WithObserver|the observer goroutine":                                                {opts: []Option{WithObserver(ObserverFunc(func(Observation) {}))}},
	"WithSessionStore|the transcript mirror (store.go)":                                  {opts: []Option{WithSessionStore(nopStore{})}},
	"WithVerbatimPrompts|client_composed on every user message":                          {opts: []Option{WithVerbatimPrompts()}},
}

const (
	testUUID  = "11111111-2222-4333-8444-555555555555"
	testUUID2 = "21111111-2222-4333-8444-555555555555"
	testUUID3 = "31111111-2222-4333-8444-555555555555"
)

func allowAll(context.Context, *shared.CanUseTool) (*shared.PermissionResult, error) {
	return nil, nil
}

func okHook(context.Context, shared.HookInput) (shared.HookOutput, error) { return nil, nil }

// landing renders what o puts in destination to: the arguments, the environment, the first
// initialize request, the merged settings, the transport's configuration, or (the SDK's side)
// the config itself.
func landing(t *testing.T, o *config, to destination) string {
	t.Helper()
	switch to {
	case toArgv:
		return strings.Join(o.args(), "\n")
	case toEnv:
		return strings.Join(o.envVars(), "\n")
	case toInitialize:
		b, err := json.Marshal(o.initRequest(nil, true), json.Deterministic(true))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	case toSettings:
		b, err := o.mergedSettings()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	case toTransport:
		tc := o.transportConfig()
		tc.Args, tc.Env = nil, nil
		return fmt.Sprintf("%+v", tc)
	case toSDK:
		return fmt.Sprintf("%#v", *o)
	}
	t.Fatalf("unknown destination %q", to)
	return ""
}

// TestOptionTable checks every row of optionTable with its case: the option, given, changes
// the row's destination and lands there as want says.
func TestOptionTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range optionTable {
		id := r.options + "|" + r.key
		if seen[id] {
			t.Errorf("row %q twice", id)
		}
		seen[id] = true
		t.Run(id, func(t *testing.T) {
			c, ok := optionCases[id]
			if !ok {
				t.Fatalf("no case in optionCases for the row %q", id)
			}
			before, after := newConfig(c.base), newConfig(append(slices.Clone(c.base), c.opts...))
			if err := after.validate(); err != nil {
				t.Fatalf("the case does not validate: %v", err)
			}
			l0, l1 := landing(t, &before, r.to), landing(t, &after, r.to)
			if l0 == l1 {
				t.Fatalf("the option does not change its destination %s:\n%s", r.to, l1)
			}
			if !strings.Contains(l1, c.want) {
				t.Errorf("%s does not hold %q:\n%s", r.to, c.want, l1)
			}
		})
	}
	for id := range optionCases {
		if !seen[id] {
			t.Errorf("optionCases has %q, which is no row of optionTable", id)
		}
	}
}

// withOptions returns the exported With* functions of the package (its non-test files) and the
// "Default: ..." sentence of each one's doc comment ("" when it has none).
func withOptions(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "With") || !ast.IsExported(fd.Name.Name) {
				continue
			}
			out[fd.Name.Name] = defaultOf(fd.Doc.Text())
		}
	}
	return out
}

// defaultOf returns the sentence of doc that starts with "Default", without that word.
func defaultOf(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	i := strings.Index(doc, "Default")
	if i < 0 {
		return ""
	}
	s := doc[i+len("Default"):]
	if j := strings.Index(s, ". "); j >= 0 {
		s = s[:j+1]
	}
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), ":"))
	return strings.TrimSuffix(s, ".")
}

// TestOptionTableHasEveryOption checks that every With* of the package is in optionTable and
// states its default, and that the table names no option that does not exist.
func TestOptionTableHasEveryOption(t *testing.T) {
	opts := withOptions(t)
	inTable := map[string]bool{}
	for _, r := range optionTable {
		for _, n := range strings.Split(r.options, ", ") {
			inTable[n] = true
			if _, ok := opts[n]; !ok {
				t.Errorf("optionTable names %s, which is no With* of the package", n)
			}
		}
	}
	for n, def := range opts {
		if !inTable[n] {
			t.Errorf("%s is in no row of optionTable: add one (see the comment at the table)", n)
		}
		if def == "" {
			t.Errorf("%s's doc comment states no default (\"Default: ...\")", n)
		}
	}
}

const (
	docPath     = "../../docs/OPTIONS.md"
	docBegin    = "<!-- generated: options table (from claude/v2/optiontable.go; `go generate ./claude/v2` rewrites it) -->"
	docEnd      = "<!-- end: options table -->"
	docTableTop = "| Go option | Goes to | Default |\n|---|---|---|\n"
)

// optionsDocTable renders optionTable as docs/OPTIONS.md's generated table.
func optionsDocTable(t *testing.T) string {
	defs := withOptions(t)
	var b strings.Builder
	b.WriteString(docTableTop)
	for _, r := range optionTable {
		names := strings.Split(r.options, ", ")
		for i, n := range names {
			names[i] = "`" + n + "`"
		}
		to := string(r.to)
		switch r.to {
		case toArgv, toSettings, toInitialize, toEnv:
			to += " `" + r.key + "`"
			if k, rest, ok := strings.Cut(r.key, " ("); ok {
				to = string(r.to) + " `" + k + "` (" + rest
			}
		case toTransport:
			to = "transport: `subprocess.Config." + r.key + "`"
			if k, rest, ok := strings.Cut(r.key, " ("); ok {
				to = "transport: `subprocess.Config." + k + "` (" + rest
			}
		case toSDK:
			to = "SDK: " + r.key
		}
		def := strings.ReplaceAll(defs[strings.Split(r.options, ", ")[0]], "|", `\|`)
		fmt.Fprintf(&b, "| %s | %s | %s |\n", strings.Join(names, ", "), strings.ReplaceAll(to, "|", `\|`), def)
	}
	return b.String()
}

// TestOptionsDocTable checks that docs/OPTIONS.md's generated table is optionsDocTable's; with
// -update (go generate) it rewrites it.
func TestOptionsDocTable(t *testing.T) {
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, docBegin), strings.Index(doc, docEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", docPath, docBegin, docEnd)
	}
	have := doc[i+len(docBegin)+1 : j]
	want := optionsDocTable(t)
	if have == want {
		return
	}
	if *update {
		if err := os.WriteFile(docPath, []byte(doc[:i+len(docBegin)+1]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's option table is stale (go generate ./claude/v2); diff (-have +want):\n%s", docPath, cmp.Diff(have, want))
}

// stubMCPServer stands for an in-process server where only its name matters (claude/mcptools
// imports this package: its tests cannot use it).
type stubMCPServer struct{}

func (stubMCPServer) NewMCPBridge(*slog.Logger) MCPBridge { return nil }

// TestOwnedFlagsFromTable checks the flags WithExtraArgs may not pass, derived from optionTable:
// every owned row's flag and alias is refused naming the row's option, the protocol's flags are
// refused, and a flag the table does not own passes (the real-CLI tests pass --resume and
// --managed-settings raw).
func TestOwnedFlagsFromTable(t *testing.T) {
	refused := func(arg string) string {
		t.Helper()
		o := newConfig([]Option{WithExtraArgs(arg + "=x")})
		err := o.validate()
		var oe *OptionError
		if err == nil || !errors.As(err, &oe) || oe.Option != "WithExtraArgs" {
			return ""
		}
		return oe.Problem
	}
	for _, r := range optionTable {
		name := r.flagName()
		if r.to == toArgv && r.argv != nil && name != "" {
			for _, a := range r.argv(ptr(newConfig(optionCases[r.options+"|"+r.key].opts))) {
				if a != name && !strings.HasPrefix(a, name+"=") {
					t.Errorf("row %q: argument %q is not its flag %s", r.options, a, name)
				}
			}
		}
		if !r.owned {
			continue
		}
		for _, f := range append([]string{name}, r.aliases...) {
			first, _, _ := strings.Cut(r.options, ", ")
			if p := refused(f); !strings.Contains(p, first) {
				t.Errorf("WithExtraArgs(%q): %q, want a refusal naming %s", f, p, first)
			}
		}
	}
	for _, a := range protocolArgs {
		name, _, _ := strings.Cut(a, "=")
		if refused(name) == "" {
			t.Errorf("WithExtraArgs(%q) is not refused", name)
		}
	}
	for _, f := range []string{"--resume", "--managed-settings", "--mcp-config", "--debug-to-stderr"} {
		if p := refused(f); p != "" {
			t.Errorf("WithExtraArgs(%q) refused: %s", f, p)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestPackageDocListsEveryOption checks that the package doc's "Options by topic" (doc.go), which
// `go doc` shows first, lists every With* of the package once and names none that does not exist.
func TestPackageDocListsEveryOption(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	i := strings.Index(doc, "# Options by topic")
	if i < 0 {
		t.Fatal(`doc.go's package doc has no "# Options by topic" section`)
	}
	listed := map[string]int{}
	for _, m := range regexp.MustCompile(`\[(With\w+)\]`).FindAllStringSubmatch(doc[i:], -1) {
		listed[m[1]]++
	}
	for n := range withOptions(t) {
		if listed[n] == 0 {
			t.Errorf("%s is not in the package doc's options by topic (doc.go): add it to its topic", n)
		}
	}
	opts := withOptions(t)
	for n, c := range listed {
		if _, ok := opts[n]; !ok {
			t.Errorf("the package doc lists %s, which is no With* of the package", n)
		}
		if c > 1 {
			t.Errorf("the package doc lists %s %d times", n, c)
		}
	}
}

// TestExtraArgsCannotLoosen: a flag that would undo what the SDK checks or defaults to (the
// untrusted project's setting sources, bypass, who answers prompts, the settings hooks) is refused
// in WithExtraArgs, naming the option that does it with the SDK's checks.
func TestExtraArgsCannotLoosen(t *testing.T) {
	hook := WithCommandHooks(map[shared.HookEvent][]SettingsCommandHook{shared.HookEventPreToolUse: {{Matcher: "Bash", Command: "exit 2"}}})
	tests := []struct {
		opts []Option
		want string // in the refusal
	}{
		{[]Option{WithExtraArgs("--setting-sources=user,project,local")}, "WithSettingSources"},
		{[]Option{WithExtraArgs("--setting-sources", "project")}, "WithSettingSources"},
		{[]Option{WithExtraArgs("--project-config-root=/tmp")}, "WithProjectConfigRoot"},
		{[]Option{WithExtraArgs("--allow-dangerously-skip-permissions")}, "WithAllowBypassPermissions"},
		{[]Option{WithExtraArgs("--permission-prompts=host")}, "WithoutPermissionPrompts"},
		{[]Option{hook, WithExtraArgs("--bare")}, "--bare"},
	}
	for _, tt := range tests {
		o := newConfig(tt.opts)
		err := o.validate()
		var oe *OptionError
		if !errors.As(err, &oe) || !strings.Contains(oe.Problem, tt.want) {
			t.Errorf("%v: validate = %v, want an *OptionError naming %s", tt.opts, err, tt.want)
		}
	}
	if o := newConfig([]Option{hook, WithExtraArgs("--bare"), WithAllowUnenforcedHooks()}); o.validate() != nil {
		t.Errorf("--bare with WithAllowUnenforcedHooks: %v", o.validate())
	}
	if o := newConfig([]Option{WithExtraArgs("--bare")}); o.validate() != nil {
		t.Errorf("--bare without settings hooks: %v", o.validate())
	}
}
