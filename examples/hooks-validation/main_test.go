package main

import (
	"testing"

	"github.com/hookwire/agent-sdk-go/examples/internal/demo/demotest"
)

func TestMain(m *testing.M) { demotest.Main(m, "hooks-validation", run) }

func TestScript(t *testing.T) { demotest.Run(t, "../testdata/hooks-validation.txtar") }
