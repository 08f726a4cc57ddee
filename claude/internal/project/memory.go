package project

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MemoryFileLimit and MemoryTotalLimit bound ReadMemory: one file, and all of them together.
const (
	MemoryFileLimit  = 64 << 10
	MemoryTotalLimit = 256 << 10
)

// MemoryFile is one memory file ReadMemory read.
type MemoryFile struct {
	// Path is relative to the project directory, with forward slashes.
	Path string
	Text string
}

// ReadMemory reads the project's memory files as the SDK passes them to the model
// (v2.WithTrustedProjectMemory): CLAUDE.md, .claude/CLAUDE.md and the markdown files under
// .claude/rules, in that order, each a regular file inside dir (no link, read through an os.Root
// so that nothing outside dir is reached), at most MemoryFileLimit bytes each and
// MemoryTotalLimit together. Imports (@path) are not followed: their text stays as written.
// Missing files are skipped; a link, a file over the limits or an unreadable one is an *Error.
func ReadMemory(dir string) ([]MemoryFile, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, &Error{File: dir, Reason: fmt.Sprintf("the project directory cannot be opened (%v)", err), Fix: fixMemory}
	}
	defer root.Close()
	names := []string{"CLAUDE.md", ".claude/CLAUDE.md"}
	rules, err := ruleFiles(root)
	if err != nil {
		return nil, err
	}
	var out []MemoryFile
	total := 0
	for _, name := range append(names, rules...) {
		text, err := readInRoot(root, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if total += len(text); total > MemoryTotalLimit {
			return nil, &Error{File: filepath.Join(dir, name), Reason: fmt.Sprintf("the memory files together exceed %d KiB", MemoryTotalLimit>>10), Fix: fixMemory}
		}
		out = append(out, MemoryFile{Path: name, Text: text})
	}
	return out, nil
}

const fixMemory = "shorten or replace the file, or drop v2.WithTrustedProjectMemory"

// ruleFiles lists the markdown files under .claude/rules, sorted; a link there is an *Error.
func ruleFiles(root *os.Root) ([]string, error) {
	var out []string
	err := fs.WalkDir(root.FS(), ".claude/rules", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return &Error{File: filepath.Join(root.Name(), path), Reason: "a symbolic link: WithTrustedProjectMemory reads regular files inside the project only", Fix: fixMemory}
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".md") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		var pe *Error
		if errors.As(err, &pe) {
			return nil, pe
		}
		return nil, &Error{File: filepath.Join(root.Name(), ".claude/rules"), Reason: fmt.Sprintf("unreadable (%v)", err), Fix: fixMemory}
	}
	slices.Sort(out)
	return out, nil
}

// readInRoot reads name, a regular file that is no link and no larger than MemoryFileLimit.
func readInRoot(root *os.Root, name string) (string, error) {
	full := filepath.Join(root.Name(), name)
	// No directory on the way may be a link either (os.Root would follow one inside the root).
	for p := filepath.Dir(name); p != "."; p = filepath.Dir(p) {
		if fi, err := root.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return "", &Error{File: full, Reason: "reached through a symbolic link (" + p + "): WithTrustedProjectMemory reads regular files inside the project only", Fix: fixMemory}
		}
	}
	fi, err := root.Lstat(name)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", &Error{File: full, Reason: "not a regular file (a link, a directory or a device): WithTrustedProjectMemory reads regular files inside the project only", Fix: fixMemory}
	}
	if fi.Size() > MemoryFileLimit {
		return "", &Error{File: full, Reason: fmt.Sprintf("%d bytes, over the limit of %d KiB", fi.Size(), MemoryFileLimit>>10), Fix: fixMemory}
	}
	f, err := root.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MemoryFileLimit+1))
	if err != nil {
		return "", &Error{File: full, Reason: fmt.Sprintf("unreadable (%v)", err), Fix: fixMemory}
	}
	if len(b) > MemoryFileLimit {
		return "", &Error{File: full, Reason: fmt.Sprintf("over the limit of %d KiB", MemoryFileLimit>>10), Fix: fixMemory}
	}
	return string(b), nil
}
