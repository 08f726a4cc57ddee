package settings

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

func writeJSON(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func decode(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestResolveAsTheTypeScriptSDK: Resolve merges as the TypeScript SDK's resolveSettings (0.3.332)
// did for the same files (recorded with node): objects key by key, arrays joined without a
// repeated string but with a repeated object, scalars from the highest tier, provenance the
// highest tier that set a top-level key; FilterEscalatingDefaultMode then drops the local tier's
// bypassPermissions.
func TestResolveAsTheTypeScriptSDK(t *testing.T) {
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home", ".claude"), filepath.Join(dir, "proj")
	writeJSON(t, filepath.Join(home, "settings.json"), `{"permissions":{"allow":["Read","Bash(ls)"],"defaultMode":"acceptEdits"},"model":"u","env":{"A":"1","B":"1"},"n":[1,{"a":1}]}`)
	writeJSON(t, filepath.Join(proj, ".claude", "settings.json"), `{"permissions":{"allow":["Bash(ls)","Edit"],"defaultMode":"plan"},"env":{"B":"2"},"n":[{"a":1},2]}`)
	writeJSON(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions":{"defaultMode":"bypassPermissions"}}`)
	r, err := Resolve(Options{Cwd: proj, ConfigDir: home, Managed: []byte(`{"permissions":{"deny":["X"]}}`), ManagedDir: filepath.Join(dir, "none")})
	if err != nil {
		t.Fatal(err)
	}
	want := decode(t, `{"env":{"A":"1","B":"2"},"permissions":{"allow":["Read","Bash(ls)","Edit"],"defaultMode":"bypassPermissions","deny":["X"]},"model":"u","n":[1,{"a":1},{"a":1},2]}`)
	if diff := cmp.Diff(want, r.Effective); diff != "" {
		t.Errorf("effective (-TypeScript SDK +Go):\n%s", diff)
	}
	prov := map[string]Source{}
	for k, p := range r.Provenance {
		prov[k] = p.Source
	}
	if diff := cmp.Diff(map[string]Source{"env": Project, "permissions": Managed, "model": User, "n": Project}, prov); diff != "" {
		t.Errorf("provenance (-TypeScript SDK +Go):\n%s", diff)
	}
	var tiers []Source
	for _, s := range r.Sources {
		tiers = append(tiers, s.Source)
	}
	if diff := cmp.Diff([]Source{User, Project, Local, Managed}, tiers); diff != "" {
		t.Errorf("tiers:\n%s", diff)
	}
	filtered := decode(t, `{"env":{"A":"1","B":"2"},"permissions":{"allow":["Read","Bash(ls)","Edit"],"deny":["X"]},"model":"u","n":[1,{"a":1},{"a":1},2]}`)
	if diff := cmp.Diff(filtered, FilterEscalatingDefaultMode(r)); diff != "" {
		t.Errorf("FilterEscalatingDefaultMode (-TypeScript SDK +Go):\n%s", diff)
	}
}

// TestFilterEscalatingDefaultMode: the cases of the TypeScript SDK's filterEscalatingDefaultMode
// (answers recorded from 0.3.332): a mode is dropped by the tier that set it last, not by the
// tier that set permissions last.
func TestFilterEscalatingDefaultMode(t *testing.T) {
	tier := func(s Source, mode string) SourceSettings {
		return SourceSettings{Source: s, Settings: map[string]any{"permissions": map[string]any{"defaultMode": mode}}}
	}
	for name, c := range map[string]struct {
		sources []SourceSettings
		kept    bool
	}{
		"bypass from the user":         {[]SourceSettings{tier(User, "bypassPermissions")}, true},
		"bypass from the project":      {[]SourceSettings{tier(Project, "bypassPermissions")}, false},
		"auto from local":              {[]SourceSettings{tier(Local, "auto")}, false},
		"auto from user and project":   {[]SourceSettings{tier(User, "auto"), tier(Project, "auto")}, false},
		"acceptEdits from the project": {[]SourceSettings{tier(Project, "acceptEdits")}, false},
		"acceptEdits from local":       {[]SourceSettings{tier(Local, "acceptEdits")}, true},
		"plan from the project":        {[]SourceSettings{tier(Project, "plan")}, true},
		"bypass from the flag":         {[]SourceSettings{tier(Project, "auto"), tier(Flag, "bypassPermissions")}, true},
		"bypass from managed":          {[]SourceSettings{tier(Managed, "bypassPermissions")}, true},
	} {
		t.Run(name, func(t *testing.T) {
			r := &Resolved{Effective: map[string]any{}, Provenance: map[string]Provenance{}}
			for _, s := range c.sources {
				r.add(s)
			}
			_, kept := permissionsOf(FilterEscalatingDefaultMode(r))["defaultMode"]
			if kept != c.kept {
				t.Errorf("defaultMode kept = %v, want %v", kept, c.kept)
			}
		})
	}
}

// TestResolveSkipsBadFiles: a file that is not a JSON object is listed in Skipped and its tier
// left out; a bad Flag value is an error.
func TestResolveSkipsBadFiles(t *testing.T) {
	dir := t.TempDir()
	writeJSON(t, filepath.Join(dir, ".claude", "settings.json"), `[1,2]`)
	r, err := Resolve(Options{Cwd: dir, Sources: []Source{Project}, ManagedDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Skipped) != 1 || len(r.Sources) != 0 {
		t.Errorf("Skipped %v, Sources %v", r.Skipped, r.Sources)
	}
	if _, err := Resolve(Options{Cwd: dir, Sources: []Source{}, Flag: []byte(`nope`), ManagedDir: dir}); err == nil {
		t.Error("a bad Flag value: no error")
	}
}

// TestResolveManagedFile: this machine's managed-settings.json and its drop-ins, merged in name
// order, are the managed tier, and then the --managed-settings value is not.
func TestResolveManagedFile(t *testing.T) {
	dir := t.TempDir()
	writeJSON(t, filepath.Join(dir, "managed-settings.json"), `{"model":"a","permissions":{"deny":["A"]}}`)
	writeJSON(t, filepath.Join(dir, "managed-settings.d", "20-b.json"), `{"model":"c"}`)
	writeJSON(t, filepath.Join(dir, "managed-settings.d", "10-a.json"), `{"model":"b","permissions":{"deny":["B"]}}`)
	r, err := Resolve(Options{Sources: []Source{}, ManagedDir: dir, Managed: []byte(`{"permissions":{"deny":["flag"]}}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := decode(t, `{"model":"c","permissions":{"deny":["A","B"]}}`)
	if diff := cmp.Diff(want, r.Effective); diff != "" {
		t.Errorf("effective (-want +got):\n%s", diff)
	}
}
