package v2

import "testing"

// A scope id registered again without PermissionRequest hooks drops the hooks its earlier scope
// had: they must not keep refusing mode switches for a hook that is gone.
func TestLiveGuardsReusedScopeID(t *testing.T) {
	l := &liveGuards{scopes: func() []string { return []string{"s"} }}
	l.add("s", []promptGuard{{name: "a PermissionRequest hook", options: "RegisterScoped"}})
	if n := len(l.guards()); n != 1 {
		t.Fatalf("guards after the first registration = %d, want 1", n)
	}
	l.add("s", nil)
	if g := l.guards(); len(g) != 0 {
		t.Errorf("guards after the id was registered again without any = %+v, want none", g)
	}
}
