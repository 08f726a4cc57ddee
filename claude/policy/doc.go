// Package policy turns a declared policy (where an agent may write and read, which paths are
// never written, which commands are dangerous) into PreToolUse hooks that guard every file tool
// of the CLI and the Bash tool, and into the CLI's OS sandbox settings that enforce the same
// write roots for what a hook cannot see.
//
// Adopt it in one line (v2.WithPolicy registers the hooks first in the PreToolUse chain):
//
//	s, err := v2.CreateSession(ctx, v2.WithCwd(dir), v2.WithPolicy(policy.Confined(dir)))
//
// Bash commands are parsed with mvdan.cc/sh/v3/syntax and decided by allowlist: each program the
// policy runs has a model of its options (which take paths, which write them, which run code);
// redirections, cd through && and ;, nested shells (sh -c, eval, $(...), scripts it can read) are
// followed; an unknown program or option, and what the analysis cannot see through, is denied with
// a reason naming the rule. Programs that run the project's code (go test, make, a script) run
// only under kernel confinement (WithKernelConfinement). docs/POLICY.md has the guarantees.
package policy
