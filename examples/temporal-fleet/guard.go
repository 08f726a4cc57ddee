package main

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/hookwire/agent-sdk-go/claude/shared"
	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// ProjectGuard keeps every write of a session inside its working directory: a PreToolUse hook on
// the worker, which no workflow input can switch off. A write whose target cannot be told is
// refused.
func ProjectGuard() v2.Option {
	return v2.WithHook(shared.HookEventPreToolUse, "", shared.OnPreToolUse(func(_ context.Context, in *shared.PreToolUseHookInput) (shared.HookOutput, error) {
		paths, err := shared.WrittenPaths(in.ToolName, in.ToolInput)
		if err != nil {
			return shared.Deny("cannot tell where this writes: " + err.Error()), nil
		}
		for _, p := range paths {
			if !inside(in.Cwd, p) {
				return shared.Deny("writes stay in the checkout: " + p + " is outside"), nil
			}
		}
		return nil, nil
	}))
}

// inside reports whether p (relative to cwd) lies inside cwd, symlinks of its existing prefix
// resolved.
func inside(cwd, p string) bool {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	root, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, resolve(filepath.Clean(p)))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolve resolves the symlinks of p's longest existing prefix.
func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(resolve(parent), filepath.Base(p))
}
