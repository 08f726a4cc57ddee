module github.com/hookwire/agent-sdk-go/examples

go 1.26.0

replace (
	github.com/hookwire/agent-sdk-go => ../
	github.com/hookwire/agent-sdk-go/contrib/otel => ../contrib/otel
)

require (
	github.com/google/go-cmp v0.7.0
	github.com/hookwire/agent-sdk-go v0.0.0-00010101000000-000000000000
)

require (
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
	mvdan.cc/sh/v3 v3.14.1
)
