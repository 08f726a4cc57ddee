package v2

import (
	"testing"

	"github.com/go-json-experiment/json"
)

// TestControlCallArgumentsWire: the control calls' arguments as the CLI's request schema spells
// them (TS 0.3.332 sdk.d.ts; set_mcp_permission_mode_override from CLI 2.1.332's own schema),
// including the nulls that mean "back to the default".
func TestControlCallArgumentsWire(t *testing.T) {
	def := MCPPermissionDefault
	for _, tc := range []struct {
		req  any
		want string
	}{
		{readFileRequest{Path: "a", Encoding: "base64"}, `{"path":"a","encoding":"base64"}`},
		{getContextUsageRequest{Detail: "summary"}, `{"detail":"summary"}`},
		{getContextUsageRequest{}, `{}`},
		{getUsageRequest{SkipBehaviors: false}, `{"skip_behaviors":false}`},
		{resetMaxThinkingTokensRequest{}, `{"max_thinking_tokens":null}`},
		{reloadPluginsRequest{HoldOnCacheImpact: true, RefuseIfBusy: true}, `{"hold_on_cache_impact":true,"refuse_if_busy":true}`},
		{reloadPluginsRequest{}, `{}`},
		{setMCPPermissionModeOverrideRequest{ServerName: "s", Mode: &def}, `{"serverName":"s","mode":"default"}`},
		{setMCPPermissionModeOverrideRequest{ServerName: "s"}, `{"serverName":"s","mode":null}`},
	} {
		b, err := json.Marshal(tc.req)
		if err != nil || string(b) != tc.want {
			t.Errorf("%T: %s, %v; want %s", tc.req, b, err, tc.want)
		}
	}
}
