package claudetest

// Test-only access to what the package keeps unexported.

// SaveScript writes a script file, as Recorder.Save does.
var SaveScript = saveScript

// Paths returns "METHOD /path?query" for every HTTP request the Model received, in order.
func (s *Model) Paths() []string { return s.requestPaths() }
