package main

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/semver"
)

// consumerFiles is a user's module outside the repository: a program and its test that import
// the core (v2, shared), contrib/otel and claudetest.
//
//go:embed testdata/consumer
var consumerFiles embed.FS

// goEnv is the environment of a go command that fetches this repository's modules from the local
// proxy as a user's go command fetches them from the module mirror: GOWORK=off (no go.work),
// GOPROXY the local proxy, then the module cache's downloads (offline when cached), then the
// GOPROXY in force; GONOSUMDB for this repository's modules only (the checksum database has never
// seen them); GOPRIVATE and GONOPROXY cleared so that nothing bypasses the proxy.
func goEnv(p *localProxy, corePath string, extra map[string]string) ([]string, error) {
	out, err := exec.Command("go", "env", "GOPROXY", "GOMODCACHE", "GOFLAGS").Output()
	if err != nil {
		return nil, fmt.Errorf("modpin: go env: %w", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return nil, fmt.Errorf("modpin: go env printed %q", out)
	}
	set := map[string]string{
		"GOWORK":    "off",
		"GOPROXY":   fileURL(p.dir) + "," + fileURL(filepath.Join(lines[1], "cache", "download")) + "," + lines[0],
		"GONOSUMDB": corePath,
		"GOPRIVATE": "",
		"GONOPROXY": "",
		"GOFLAGS":   lines[2],
	}
	for k, v := range extra {
		if k == "GOFLAGS" {
			v = strings.TrimSpace(set[k] + " " + v)
		}
		set[k] = v
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		_, ok := set[k]
		return ok
	})
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env, nil
}

// fileURL is a GOPROXY entry for a directory.
func fileURL(dir string) string {
	s := filepath.ToSlash(dir)
	if !strings.HasPrefix(s, "/") {
		s = "/" + s // C:/x -> /C:/x
	}
	return "file://" + s
}

// checkConsumer builds the consumer module in a fresh directory outside the repository, twice:
// first as a user who runs `go get .../contrib/otel .../contrib/pgstore` (the core comes at the
// version they require, which proves that pin is enough for them), then after `go get` of the
// core at its latest. Each time `go build ./...` and `go vet ./...` (which type-checks the test
// against claudetest).
func (r *repo) checkConsumer(p *localProxy) error {
	var published []*gomod // the modules a user fetches besides the core
	pinned, pinnedBy := "", ""
	for _, name := range []string{"contrib/otel", "contrib/pgstore"} {
		m, ok := r.byPath[r.core().path+"/"+name]
		if !ok {
			return fmt.Errorf("modpin: no module %s/%s in the repository", r.core().path, name)
		}
		v := ""
		for _, req := range m.file.Require {
			if req.Mod.Path == r.core().path {
				v = req.Mod.Version
			}
		}
		if v == "" {
			return fmt.Errorf("modpin: %s does not require %s", m.goModPath(), r.core().path)
		}
		if semver.Compare(v, pinned) > 0 {
			pinned, pinnedBy = v, m.goModPath()
		}
		published = append(published, m)
	}

	dir, err := os.MkdirTemp("", "modpin-consumer-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := writeConsumer(dir, r.goSumLines()); err != nil {
		return err
	}
	// A module cache of its own: the work tree's version may change between runs under one name.
	// -trimpath: a package's build is cached under its contents, not its directory in that
	// module cache, so the next check compiles only what changed (without it, every dependency
	// is compiled again on every run: minutes on a loaded machine).
	env, err := goEnv(p, r.core().path, map[string]string{
		"GOMODCACHE": filepath.Join(dir, "modcache"),
		"GOFLAGS":    "-mod=mod -modcacherw -trimpath",
	})
	if err != nil {
		return err
	}
	src := filepath.Join(dir, "agent")
	run := func(args ...string) (string, error) { return runGo(src, env, args...) }
	coreVersion := func() (string, error) {
		v, err := run("list", "-m", "-f", "{{.Version}}", r.core().path)
		return strings.TrimSpace(v), err
	}

	get := []string{"get"}
	for _, m := range published {
		get = append(get, m.path)
	}
	fmt.Printf("-- consumer %s: go %s (the core at the version they require)\n", src, strings.Join(get, " "))
	if _, err := run(get...); err != nil {
		return err
	}
	if _, err := run("mod", "tidy"); err != nil {
		return err
	}
	got, err := coreVersion()
	if err != nil {
		return err
	}
	if got != pinned {
		return fmt.Errorf("modpin: consumer: the core resolved to %s, want %s as %s requires", got, pinned, pinnedBy)
	}
	if err := buildAndVet(run); err != nil {
		return fmt.Errorf("modpin: consumer with %s and %s@%s (what %s requires): %w; if a module needs a newer core, commit the core's change and run `"+invocation+" pin`",
			strings.Join(get[1:], ", "), r.core().path, pinned, pinnedBy, err)
	}

	fmt.Printf("-- consumer: go get %s@latest\n", r.core().path)
	if _, err := run("get", r.core().path+"@latest"); err != nil {
		return err
	}
	if got, err = coreVersion(); err != nil {
		return err
	}
	if got != p.current[r.core().path] {
		return fmt.Errorf("modpin: consumer: the core resolved to %s, want the latest %s", got, p.current[r.core().path])
	}
	if err := buildAndVet(run); err != nil {
		return fmt.Errorf("modpin: consumer with the latest core %s: %w", got, err)
	}
	return nil
}

func buildAndVet(run func(args ...string) (string, error)) error {
	if _, err := run("build", "./..."); err != nil {
		return err
	}
	_, err := run("vet", "./...")
	return err
}

// writeConsumer writes the consumer module into dir/agent: its sources, a go.mod with no
// requirement yet, and a go.sum seeded with the hashes of other modules that the repository's
// go.sum files hold (already checked against the checksum database), so that the check runs
// offline once the module cache has them.
func writeConsumer(dir string, goSum []string) error {
	src := filepath.Join(dir, "agent")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	files, err := fs.Sub(consumerFiles, "testdata/consumer")
	if err != nil {
		return err
	}
	if err := os.CopyFS(src, files); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module example.com/agent\n\ngo 1.26.0\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(src, "go.sum"), []byte(strings.Join(goSum, "\n")+"\n"), 0o644)
}

// goSumLines are the lines of the repository's go.sum files, less those of its own modules.
func (r *repo) goSumLines() []string {
	var lines []string
	for _, m := range r.modules {
		data, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(m.dir), "go.sum"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			mod, _, _ := strings.Cut(sc.Text(), " ")
			if mod != "" && !r.inRepo(mod) {
				lines = append(lines, sc.Text())
			}
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// runGo runs a go command in dir and returns its standard output; its error carries the command
// and its standard error.
func runGo(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("`go %s` in %s: %w\n%s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}
