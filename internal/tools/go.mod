module github.com/hookwire/agent-sdk-go/internal/tools

go 1.26.0

require (
	github.com/fzipp/gocyclo v0.6.0
	golang.org/x/mod v0.42.0
)
