//go:build !linux

package confine

import (
	"fmt"
	"os"
	"runtime"
)

// Check returns an error wrapping ErrUnavailable: only Linux's Landlock is supported (macOS's
// Seatbelt is not, yet).
func Check() error {
	return fmt.Errorf("%w: no kernel confinement for %s (Linux's Landlock only)", ErrUnavailable, runtime.GOOS)
}

type ruleset struct{}

func newRuleset(Spec, []string) (ruleset, error) { return ruleset{}, Check() }

func (*ruleset) close() {}

// Apply returns Check's error.
func (*Plan) Apply() error { return Check() }

// The private directories' locks: Prepare fails on Check before it needs them.

func lockPrivate(string) (*os.File, error) { return nil, Check() }

func unlockPrivate(string, *os.File) {}

func sweepStale(string) {}
