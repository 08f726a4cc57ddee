package temporalagent_test

import (
	"context"
	"errors"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	temporalagent "github.com/hookwire/agent-sdk-go/contrib/temporal"
)

type refund struct {
	Order  string `json:"order"`
	Amount int    `json:"amount"`
}

// sendRefund stands for a payment API that applies a request once per idempotency key.
func sendRefund(context.Context, refund, string) (string, error) { return "refunded", nil }

// An in-process tool with a side effect takes its call's idempotency key, so that the call in
// flight when a worker dies is applied once, although the resumed model asks for it again.
func ExampleActivities_IdempotencyKey() {
	var acts *temporalagent.Activities // set below; a turn runs the tool only once it is
	srv := mcp.NewServer(&mcp.Implementation{Name: "payments", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "refund"}, func(ctx context.Context, req *mcp.CallToolRequest, in refund) (*mcp.CallToolResult, any, error) {
		key, ok := acts.IdempotencyKey(mcptools.ToolUseID(req))
		if !ok {
			return nil, nil, errors.New("refund: no idempotency key: run the tool in a turn with a ledger")
		}
		status, err := sendRefund(ctx, in, key)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: status}}}, nil, nil
	})
	acts, err := temporalagent.NewActivities(
		temporalagent.WithLedger(temporalagent.FileLedger{Dir: "/var/lib/agent/ledger"}),
		temporalagent.WithSessionOptions(v2.WithMCPServer("payments", mcptools.Server(srv))),
	)
	if err != nil {
		log.Fatal(err)
	}
	_ = acts // acts.Register(worker)
}
