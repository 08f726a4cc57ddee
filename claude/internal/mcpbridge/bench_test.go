package mcpbridge

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's share of an in-process tool call: an mcp_message's JSON-RPC tools/call handed to the
// bridge, the typed handler run (schema validation included), the reply encoded. The CLI's share
// and the stdin/stdout framing are not in it (see the transport's OnRoundTrip for those).

func benchBridge(b *testing.B) *Bridge {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
		return nil, echoOut{Echo: in.Text}, nil
	})
	br, err := New(map[string]*mcp.Server{"calc": srv}, func(context.Context, string, jsontext.Value) error { return nil }, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { br.Close() })
	ctx := context.Background()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	} {
		if _, err := br.HandleMCP(ctx, "calc", jsontext.Value(m)); err != nil {
			b.Fatal(err)
		}
	}
	return br
}

// BenchmarkToolCall: sequential calls (the N=100 sequential workload, per call).
func BenchmarkToolCall(b *testing.B) {
	br := benchBridge(b)
	ctx := context.Background()
	id := 0
	for b.Loop() {
		id++
		if _, err := br.HandleMCP(ctx, "calc", jsontext.Value(toolCall(id, "echo", "hi"))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolCallParallel: calls in flight at once (the 10-parallel workload).
func BenchmarkToolCallParallel(b *testing.B) {
	br := benchBridge(b)
	ctx := context.Background()
	var id atomic.Int64
	b.SetParallelism(5) // 2 CPUs x 5 = 10 callers
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := br.HandleMCP(ctx, "calc", jsontext.Value(toolCall(int(id.Add(1)), "echo", "hi"))); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkDecode: reading the CLI's tools/call message, the bridge's way (decode) and the MCP
// SDK's (jsonrpc.DecodeMessage, which HandleMCP used before: two decodes, each with a 32 KiB
// buffer of its own).
func BenchmarkDecode(b *testing.B) {
	msg := jsontext.Value(toolCall(12, "echo", "hello there"))
	for _, bc := range []struct {
		name   string
		decode func([]byte) (jsonrpc.Message, error)
	}{
		{"bridge", func(m []byte) (jsonrpc.Message, error) { return decode(m) }},
		{"jsonrpc", jsonrpc.DecodeMessage},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bc.decode(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
