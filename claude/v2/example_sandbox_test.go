package v2_test

import (
	"context"
	"fmt"
	"log"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// A session for untrusted input: Bash runs in the OS sandbox (the session does not start if the
// machine cannot sandbox), writes only in the project and reaches only one domain; prompts are
// taken verbatim (no @file or /command expansion); a reviewer subagent works read-only at low
// effort with its own MCP server. (It needs the claude CLI and bubblewrap, so it is compiled but
// not run by go test.)
func ExampleWithSandbox() {
	ctx := context.Background()
	s, err := v2.CreateSession(ctx,
		v2.WithSandbox(v2.Sandbox{
			AutoAllowBash: true,
			Network:       v2.SandboxNetwork{AllowedDomains: []string{"proxy.golang.org"}},
			Filesystem:    v2.SandboxFilesystem{DenyWrite: []string{"/work/repo/.git"}},
		}),
		v2.WithVerbatimPrompts(),
		v2.WithManagedSettings(`{"permissions":{"deny":["WebFetch"]}}`),
		v2.WithAgents(map[string]v2.AgentDefinition{"reviewer": {
			Description:    "Reviews a change",
			Prompt:         "You review Go code for bugs.",
			Tools:          []string{"Read", "Grep", "mcp__lint__run"},
			Effort:         v2.EffortLow,
			PermissionMode: v2.PermissionModeDefault,
			MCPServers:     []v2.AgentMCPServer{{Name: "lint", Config: &v2.MCPStdioServer{Command: "golangci-lint-mcp"}}},
		}}),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	res, err := s.Run(ctx, "build ./... and ask the reviewer about the result")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Result)
}
