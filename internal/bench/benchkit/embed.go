package benchkit

import _ "embed"

// tsDriver is the TypeScript SDK driver, written next to each run and run with node.
//
//go:embed tsdriver.mjs
var tsDriver []byte
