package policy

import (
	"path/filepath"
	"slices"
	"strings"
)

// Sandbox returns the policy as sandbox settings for the CLI (see SandboxSpec).
func (p *Policy) Sandbox() SandboxSpec {
	spec := SandboxSpec{AllowWrite: slices.Clone(p.realWrite), AllowedDomains: slices.Clone(p.domains)}
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	for _, pat := range p.protected {
		if strings.HasPrefix(pat, "~") || filepath.IsAbs(pat) {
			add(&spec.DenyWrite, filepath.Clean(p.expandHome(pat)))
			continue
		}
		for _, root := range p.realWrite {
			full := filepath.Join(root, pat)
			if !strings.ContainsAny(pat, "*?[") {
				add(&spec.DenyWrite, full)
				continue
			}
			matches, _ := filepath.Glob(full)
			for _, m := range matches {
				add(&spec.DenyWrite, m)
			}
			// The plain name of a pattern such as .env* or settings*.json: .env, settings.json.
			add(&spec.DenyWrite, strings.NewReplacer("*", "", "?", "", "[", "", "]", "").Replace(full))
		}
	}
	for _, pat := range p.denyRead {
		add(&spec.DenyRead, filepath.Clean(p.expandHome(pat)))
	}
	return spec
}
