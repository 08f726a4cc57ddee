package demo

import (
	"fmt"
	"io"
	"strings"
)

// Checks prints an example's checks, one line each ("check: what: true"), and remembers the ones
// that failed, so that the example exits non-zero when its point was not made (Err).
type Checks struct {
	W      io.Writer
	failed []string
}

// Check prints one check and records it if !ok.
func (c *Checks) Check(what string, ok bool) {
	fmt.Fprintf(c.W, "check: %s: %v\n", what, ok)
	if !ok {
		c.failed = append(c.failed, what)
	}
}

// Err returns an error naming the failed checks, or nil when all passed.
func (c *Checks) Err() error {
	if len(c.failed) == 0 {
		return nil
	}
	return fmt.Errorf("check failed: %s", strings.Join(c.failed, "; "))
}
