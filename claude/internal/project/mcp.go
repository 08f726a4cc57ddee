package project

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// CheckMCPConfig refuses a .mcp.json (path) that names any server: the CLI would start a stdio
// server on the host, or connect to a URL the repository chose, without asking. A missing file,
// or one with no server, is no refusal.
func CheckMCPConfig(path string) error {
	data, err := readRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	const fix = "give the servers the session needs with v2.WithMCPStdioServer (and its kin), and drop v2.WithoutStrictMCPConfig"
	var top struct {
		Servers map[string]jsontext.Value `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return &Error{File: path, Reason: fmt.Sprintf("the SDK cannot read it (%v), so it cannot check which servers the CLI would start", err), Fix: fix}
	}
	var errs []error
	for _, name := range sortedKeys(top.Servers) {
		errs = append(errs, &Error{File: path, Key: "mcpServers." + name, Reason: "an MCP server of the repository: the CLI would start it on the host (or connect to its URL) without asking", Fix: fix})
	}
	return errors.Join(errs...)
}
