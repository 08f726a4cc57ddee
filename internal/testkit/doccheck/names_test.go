package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// otherLibraries are the package names of other libraries (the standard library, the MCP SDK,
// OpenTelemetry, Prometheus, JSON v2) that the docs name: their names are not checked here.
var otherLibraries = []string{
	"atomic", "bufio", "cmp", "context", "errors", "exec", "filepath", "fmt", "fs", "http", "io", "iter",
	"json", "jsontext", "jsonrpc", "log", "mcp", "metric", "os", "otel", "otlptracehttp",
	"prometheus", "promhttp", "regexp", "runtime", "sdkmetric", "sdktrace", "slog", "strings", "sync",
	"testing", "time", "trace",
	"worker", "workflow", // go.temporal.io/sdk
}

// docVariables are the variable names the docs use in prose and snippets, with the type whose
// member a reference through them must be ("" when the docs use the name for several things).
var docVariables = map[string]string{
	"env":      "claudetest.Env",
	"rec":      "claudetest.Recorder",
	"s":        "v2.Session",
	"s2":       "v2.Session",
	"p":        "policy.Policy",
	"acts":     "temporalagent.Activities",
	"ap":       "temporalagent.Approvals",
	"st":       "", // a workflow's own state struct
	"res":      "",
	"in":       "",
	"t":        "", // *testing.T or a tool name
	"r":        "",
	"m":        "",
	"err":      "",
	"dir":      "",
	"tr":       "",
	"tp":       "",
	"mp":       "",
	"model":    "",
	"store":    "",
	"req":      "",
	"db":       "",
	"auditLog": "",
}

// otherTypes are Type.Member references to other libraries' types.
var otherTypes = []string{
	"Server.Connect",      // mcp.Server, in docs/TOOLS.md
	"ServerSession.Close", // mcp.ServerSession, in docs/RELIABILITY.md
}

// refRE finds the start of a selector chain: an optional *, a qualifier (package, variable or
// type), and one or two exported names after it. The character before must not continue a chain.
var refRE = regexp.MustCompile(`(?:^|[^\w.])\*?([A-Za-z_]\w*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)

// spans returns the Go text of a Markdown file: inline code spans and ```go blocks.
func spans(md string) []string {
	var out []string
	var block []string
	inBlock, goBlock := false, false
	for line := range strings.Lines(md) {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if inBlock {
				if goBlock {
					out = append(out, strings.Join(block, ""))
				}
				inBlock, block = false, nil
			} else {
				inBlock, goBlock = true, strings.TrimPrefix(trimmed, "```") == "go"
			}
			continue
		}
		if inBlock {
			block = append(block, line)
			continue
		}
		parts := strings.Split(line, "`")
		for i := 1; i < len(parts)-1; i += 2 {
			out = append(out, parts[i])
		}
	}
	return out
}

// check returns what is wrong with one reference, or "".
func (ix *index) check(qual, name, member string) string {
	if qual[0] >= 'A' && qual[0] <= 'Z' { // Type.Member
		if slices.Contains(otherTypes, qual+"."+name) {
			return ""
		}
		ps := ix.typesNamed(qual)
		if len(ps) == 0 {
			return fmt.Sprintf("no type %s in the repository (another library's? add it to otherTypes)", qual)
		}
		for _, p := range ps {
			if ix.hasMember(p, qual, name, 0) {
				return ""
			}
		}
		return fmt.Sprintf("type %s has no method or field %s", qual, name)
	}
	if ps := ix.byName[qual]; len(ps) > 0 { // package.Name
		for _, p := range ps {
			if !p.names[name] {
				continue
			}
			if member == "" || p.types[name] == nil || ix.hasMember(p, name, member, 0) {
				return ""
			}
			return fmt.Sprintf("type %s.%s has no method or field %s", qual, name, member)
		}
		return fmt.Sprintf("package %s has no exported %s", qual, name)
	}
	if slices.Contains(otherLibraries, qual) {
		return ""
	}
	if typeName, ok := docVariables[qual]; ok {
		if typeName == "" {
			return ""
		}
		pkgName, tname, _ := strings.Cut(typeName, ".")
		for _, p := range ix.byName[pkgName] {
			if ix.hasMember(p, tname, name, 0) {
				return ""
			}
		}
		return fmt.Sprintf("%s (a %s in the docs) has no method or field %s", qual, typeName, name)
	}
	return fmt.Sprintf("%s is no package of the repository, no other library's package in otherLibraries and no variable in docVariables (a renamed package?)", qual)
}

// TestDocNamesExist: every Go name in README.md and docs/*.md, in code spans and ```go blocks,
// qualified by a package (v2.WithCwd, shared.Deny, *shared.ResultMessage), a type
// (Session.Close, shared.PreToolUseHookInput.ToolName: promoted fields count) or a variable the
// docs use for a known type (env.Run), is declared in the repository's code.
func TestDocNamesExist(t *testing.T) {
	root := repoRoot(t)
	ix := loadIndex(t, root)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{filepath.Join(root, "README.md")}, docs...)
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		for _, text := range spans(string(data)) {
			for _, m := range refRE.FindAllStringSubmatch(text, -1) {
				checked++
				if problem := ix.check(m[1], m[2], m[3]); problem != "" {
					t.Errorf("%s: `%s`: %s", rel, strings.TrimSpace(strings.TrimLeft(m[0], " (")), problem)
				}
			}
		}
	}
	if checked < 300 {
		t.Errorf("checked %d references, want the docs' hundreds: is the Markdown parsing broken?", checked)
	}
	t.Logf("%d references checked in %d files", checked, len(docs))
}
