// Package settings tells what the Claude Code CLI would apply from its settings files, without
// starting it: Resolve merges the tiers (user, project, local, the --settings flag, managed) the
// way CLI 2.1.332 does and says which tier set each key; FilterEscalatingDefaultMode drops a
// permission mode that the CLI would not take from a repository's files; MatchDeniedModels says
// which models a managed deniedModels list blocks. They are the TypeScript Agent SDK's
// resolveSettings, filterEscalatingDefaultMode and matchDeniedModels. claude/v2's ResolveSettings
// resolves for a session's options; Session.Settings asks a running CLI.
//
// The results are a report, not a security decision: the SDK's own checks of a repository's
// settings (claude/v2's CreateSession) and the CLI's enforcement decide. The package reads
// files and has no goroutines.
//
//	r, err := settings.Resolve(settings.Options{Cwd: dir})
//	if err != nil { ... }
//	fmt.Println(r.Effective["model"], r.Provenance["model"].Source)
package settings
