// Command tools-inprocess gives the agent Go functions as tools: an in-process MCP server built
// with the official MCP Go SDK (mcp.NewServer, mcp.AddTool with typed input and output), passed to
// the session with v2.WithMCPServer. The model sees its tools as mcp__orders__find and
// mcp__orders__refund; a PreToolUse hook guards refund (no refund above a limit), the same way
// hooks guard the CLI's own tools.
//
//	go run -C examples ./tools-inprocess            # offline: the real CLI, a scripted fake model
//	go run -C examples ./tools-inprocess -real-api  # the real model (needs ANTHROPIC_API_KEY)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/hookwire/agent-sdk-go/claude/mcptools"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookwire/agent-sdk-go/claude/claudetest"
	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
	"github.com/hookwire/agent-sdk-go/examples/internal/demo"
)

func main() { os.Exit(run()) }

// FindInput is the input of the find tool; its JSON schema is inferred from the struct.
type FindInput struct {
	Customer string `json:"customer" jsonschema:"the customer's name"`
}

// FindOutput is find's structured result.
type FindOutput struct {
	Orders []Order `json:"orders"`
}

// Order is one order of the store.
type Order struct {
	ID    string  `json:"id"`
	Total float64 `json:"total"`
}

// RefundInput is the input of the refund tool.
type RefundInput struct {
	OrderID string  `json:"order_id" jsonschema:"the order to refund"`
	Amount  float64 `json:"amount" jsonschema:"the amount to refund, in euros"`
}

// RefundOutput is refund's structured result.
type RefundOutput struct {
	Refunded float64 `json:"refunded"`
}

// store is the service's own state, which the tools reach as ordinary Go code.
type store struct {
	mu       sync.Mutex
	orders   map[string][]Order
	refunded map[string]float64
}

// newServer builds the MCP server with the store's tools.
func newServer(st *store) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "orders", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "find",
		Description: "List a customer's orders",
		// Read-only tools may run in parallel when the model calls several at once.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in FindInput) (*mcp.CallToolResult, FindOutput, error) {
		st.mu.Lock()
		defer st.mu.Unlock()
		orders, ok := st.orders[in.Customer]
		if !ok {
			// An error is a tool result with is_error: the model reads it and can try again.
			return nil, FindOutput{}, fmt.Errorf("no customer named %q", in.Customer)
		}
		fmt.Printf("tool: find %s -> %d orders\n", in.Customer, len(orders))
		return nil, FindOutput{Orders: orders}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "refund", Description: "Refund (part of) an order"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in RefundInput) (*mcp.CallToolResult, RefundOutput, error) {
			st.mu.Lock()
			defer st.mu.Unlock()
			if in.Amount <= 0 {
				return nil, RefundOutput{}, errors.New("the amount must be positive")
			}
			st.refunded[in.OrderID] += in.Amount
			fmt.Printf("tool: refund %s %.2f EUR\n", in.OrderID, in.Amount)
			return nil, RefundOutput{Refunded: in.Amount}, nil
		})
	return srv
}

// refundGuard is the PreToolUse hook on mcp__orders__refund: refunds above limit need a person.
func refundGuard(limit float64) func(context.Context, *shared.PreToolUseHookInput) (shared.HookOutput, error) {
	return func(ctx context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		amount, ok := in.ToolInput["amount"].(float64)
		if !ok {
			fmt.Printf("hook: PreToolUse %s -> deny: no amount\n", in.ToolName)
			return shared.Deny("a refund needs a numeric amount"), nil
		}
		if amount > limit {
			fmt.Printf("hook: PreToolUse %s %.2f EUR -> deny: above %.2f EUR\n", in.ToolName, amount, limit)
			return shared.Deny(fmt.Sprintf("refunds above %.2f EUR need a person's approval", limit)), nil
		}
		fmt.Printf("hook: PreToolUse %s %.2f EUR -> allow\n", in.ToolName, amount)
		return nil, nil
	}
}

func run() int {
	fs := flag.NewFlagSet("tools-inprocess", flag.ContinueOnError)
	f := demo.NewFlags(fs, "Ada says her last order arrived broken: find her orders and refund it.")
	limit := fs.Float64("limit", 100, "largest refund the hook lets the agent make (EUR)")
	script := func(string) []claudetest.Reply {
		return []claudetest.Reply{
			claudetest.ToolReply("toolu_01", "mcp__orders__find", map[string]any{"customer": "Ada"}),
			claudetest.ToolReply("toolu_02", "mcp__orders__refund", map[string]any{"order_id": "A-2", "amount": 250}),
			claudetest.ToolReply("toolu_03", "mcp__orders__refund", map[string]any{"order_id": "A-2", "amount": 60}),
			claudetest.TextReply("I refunded 60 EUR of order A-2; the full amount needs a person's approval."),
		}
	}
	return demo.Main(fs, os.Args[1:], f, script, func(ctx context.Context, env *demo.Env) error {
		st := &store{
			orders:   map[string][]Order{"Ada": {{ID: "A-1", Total: 35}, {ID: "A-2", Total: 250}}},
			refunded: map[string]float64{},
		}
		s, err := v2.CreateSession(ctx, env.Options(
			v2.WithMCPServer("orders", mcptools.Server(newServer(st))),
			// MCP tools are not allowed by default: allow them, and let the hook guard refunds.
			v2.WithAllowedTools("mcp__orders__find", "mcp__orders__refund"),
			v2.WithHook(shared.HookEventPreToolUse, "mcp__orders__refund", shared.OnPreToolUse(refundGuard(*limit))),
		)...)
		if err != nil {
			return err
		}
		defer s.Close()
		if _, err := demo.RunPrompt(ctx, s, f.Prompt, os.Stdout); err != nil {
			return err
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		fmt.Printf("refunded for A-2: %.2f EUR\n", st.refunded["A-2"])
		if env.RealAPI {
			return nil // a real model may ask for other refunds
		}
		want := 0.0 // the scripted refunds the hook lets through
		for _, amount := range []float64{250, 60} {
			if amount <= *limit {
				want += amount
			}
		}
		c := demo.Checks{W: os.Stdout}
		c.Check(fmt.Sprintf("refunded for A-2 is %.2f EUR, the refunds up to -limit", want), st.refunded["A-2"] == want)
		return c.Err()
	})
}
