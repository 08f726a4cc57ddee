package v2

import (
	"github.com/hookwire/agent-sdk-go/claude/hooks"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/hookwire/agent-sdk-go/claude/shared"
)

// ArgsFor returns the CLI arguments that CreateSession passes for opts (after validation). The
// session id CreateSession picks for a new session is not included: pass WithSessionID.
func ArgsFor(opts ...Option) ([]string, error) {
	o := defaultConfig()
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	return o.args(), nil
}

// HookRegistrationFor returns, as JSON, the hooks of the initialize request for hooks.
func HookRegistrationFor(hs shared.Hooks, hookTimeout ...Option) (string, error) {
	o := defaultConfig()
	for _, opt := range hookTimeout {
		opt.apply(&o)
	}
	x, err := hooks.New(hs, hooks.Options{DefaultTimeout: o.hookTimeout})
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(x.Registration(false), json.Deterministic(true)) // sorted keys, as the transport writes them
	return string(b), err
}

// WithStoreTimeout bounds each Append of WithSessionStore's store by d instead of the request
// timeout, so that a test can time out a store without bounding initialize too.
func WithStoreTimeout(d time.Duration) Option {
	return setOption("WithStoreTimeout", func(o *config) { o.storeTimeout = d })
}
