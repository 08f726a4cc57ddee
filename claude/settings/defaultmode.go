package settings

// FilterEscalatingDefaultMode returns r.Effective without permissions.defaultMode when the CLI
// would not take that mode from where it was set: bypassPermissions and auto from the project or
// local tier, acceptEdits from the project tier (files a repository can commit or leave behind).
// Otherwise it returns r.Effective as it is. Resolve reports the mode as set; pass its result
// through this before acting on it. (The TypeScript SDK's filterEscalatingDefaultMode.)
func FilterEscalatingDefaultMode(r *Resolved) map[string]any {
	mode, _ := permissionsOf(r.Effective)["defaultMode"].(string)
	var from map[Source]bool
	switch mode {
	case "bypassPermissions", "auto":
		from = map[Source]bool{Project: true, Local: true}
	case "acceptEdits":
		from = map[Source]bool{Project: true}
	default:
		return r.Effective
	}
	for i := len(r.Sources) - 1; i >= 0; i-- {
		s := r.Sources[i]
		if _, ok := permissionsOf(s.Settings)["defaultMode"]; !ok {
			continue
		}
		if !from[s.Source] {
			return r.Effective
		}
		out := cloneMap(r.Effective)
		perms := cloneMap(permissionsOf(r.Effective))
		delete(perms, "defaultMode")
		out["permissions"] = perms
		return out
	}
	return r.Effective
}

func permissionsOf(m map[string]any) map[string]any {
	p, _ := m["permissions"].(map[string]any)
	return p
}
