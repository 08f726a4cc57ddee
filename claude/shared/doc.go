// Package shared holds the types every layer of agent-sdk-go agrees on: hook event names, the typed
// hook inputs the CLI sends, the hook outputs a handler returns, handler and matcher types, and the
// session message types.
//
// The package is types and pure functions only: no goroutines and no I/O. Decoding from the wire lives
// in package parser, and running handlers lives in package subprocess.
package shared
