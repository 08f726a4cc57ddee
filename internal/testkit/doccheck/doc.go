// Package doccheck holds a test, and nothing else: every Go name that README.md and docs/*.md
// mention (v2.WithCwd, *shared.ResultMessage, Session.Close, claudetest.NewEnv, ...) exists in
// the repository's code, so that a rename breaks the build rather than the reader.
package doccheck
