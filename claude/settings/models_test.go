package settings

import (
	"os"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestMatchDeniedModelsAsTheTypeScriptSDK: MatchDeniedModels answers as the TypeScript SDK's
// matchDeniedModels (0.3.332, which runs CLI 2.1.332's matcher) for every case of
// testdata/denied_models.json, recorded from that SDK with node (the models and lists there:
// families, model IDs with and without minor, snapshot, Bedrock and Vertex names, aliases, context
// tags, exact names, typos).
func TestMatchDeniedModelsAsTheTypeScriptSDK(t *testing.T) {
	b, err := os.ReadFile("testdata/denied_models.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Models []string `json:"models"`
		Cases  []struct {
			Entries  []string `json:"entries"`
			Denied   []bool   `json:"denied"`
			Warnings []string `json:"warnings"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &rec, json.RejectUnknownMembers(false)); err != nil {
		t.Fatal(err)
	}
	if len(rec.Cases) < 30 || len(rec.Models) < 30 {
		t.Fatalf("testdata holds %d cases of %d models", len(rec.Cases), len(rec.Models))
	}
	for _, c := range rec.Cases {
		got := MatchDeniedModels(rec.Models, c.Entries)
		want := DeniedModelsMatch{Denied: c.Denied, Warnings: c.Warnings}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("entries %q (-TypeScript SDK +Go):\n%s", c.Entries, diff)
		}
	}
}
