// Package policy turns a declared policy (where an agent may write and read, which paths are
// never written, which commands are dangerous) into PreToolUse hooks that guard every file tool
// of the CLI and the Bash tool, and into the CLI's OS sandbox settings that enforce the same
// write roots for what a hook cannot see.
//
// Adopt it in one line (v2.WithPolicy registers the hooks first in the PreToolUse chain):
//
//	s, err := v2.CreateSession(ctx, v2.WithCwd(dir), v2.WithPolicy(policy.Confined(dir)))
//
// Bash commands are parsed with mvdan.cc/sh/v3/syntax: redirections, commands that write or
// delete (rm, mv, cp, tee, sed -i, dd of=, find -delete, ...), cd through && and ;, nested shells
// (sh -c, eval, $(...)) are read; what the analysis cannot see through is denied with a reason
// naming the rule. A program (go test, make, a script) can still write anywhere: pair the policy
// with the OS sandbox (v2.WithSandbox(v2.PolicySandbox(p))). docs/POLICY.md has the guarantees.
package policy
