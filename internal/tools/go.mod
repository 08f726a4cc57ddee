module github.com/hookwire/agent-sdk-go/internal/tools

go 1.26.0

require golang.org/x/mod v0.42.0
