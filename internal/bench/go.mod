module github.com/hookwire/agent-sdk-go/internal/bench

go 1.26.0

require (
	github.com/hookwire/agent-sdk-go v0.0.0-20261126222631-d48207d14738
	github.com/hookwire/agent-sdk-go/contrib/otel v0.0.0-20261126222631-d48207d14738
)
