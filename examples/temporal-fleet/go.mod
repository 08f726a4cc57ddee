module github.com/hookwire/agent-sdk-go/examples/temporal-fleet

go 1.26.10

replace (
	github.com/hookwire/agent-sdk-go => ../..
	github.com/hookwire/agent-sdk-go/contrib/temporal => ../../contrib/temporal
)
