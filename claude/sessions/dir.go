package sessions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
)

// ErrInvalidID says a session or agent id has a form the CLI never gives one (a session id is a
// UUID; an agent id is letters, digits, '-' and '_'). It keeps ids from naming other files.
var ErrInvalidID = errors.New("sessions: invalid id")

// ErrNotFound says there is no stored session (or subagent transcript) with that id. It wraps
// fs.ErrNotExist.
var ErrNotFound = fmt.Errorf("sessions: not found: %w", os.ErrNotExist)

// Dir is a CLI config directory: the one the CLI uses is $CLAUDE_CONFIG_DIR if set, else
// $HOME/.claude (DefaultDir). Its methods are safe for concurrent use.
type Dir string

// DefaultDir returns the config directory the CLI would use with the SDK process's environment:
// $CLAUDE_CONFIG_DIR if set, else .claude in the user's home directory. A session started with
// another environment (v2.WithEnv("CLAUDE_CONFIG_DIR=..."), a different HOME) is stored elsewhere:
// name that directory as a Dir.
func DefaultDir() (Dir, error) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return Dir(d), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("sessions: locating the config directory: %w", err)
	}
	return Dir(filepath.Join(home, ".claude")), nil
}

// maxKeyLen is the length past which the CLI shortens a project key and adds a hash.
const maxKeyLen = 200

// ProjectKey returns the name of the directory, under projects/, that holds the sessions run in
// the working directory cwd: cwd with each UTF-16 code unit other than an ASCII letter or digit
// replaced by '-' (so "/home/me/my.app" is "-home-me-my-app"). A key longer than 200 is cut to 200
// and followed by '-' and a hash of cwd in base 36, as the CLI does. cwd is used as given: the CLI
// uses its process's working directory, in which symbolic links are resolved (ProjectDir resolves
// them too).
func ProjectKey(cwd string) string {
	units := utf16.Encode([]rune(cwd))
	var b strings.Builder
	for _, u := range units {
		if u < 128 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			b.WriteByte(byte(u))
		} else {
			b.WriteByte('-')
		}
	}
	key := b.String()
	if len(key) <= maxKeyLen {
		return key
	}
	// JavaScript's (h<<5)-h+c|0 over UTF-16 code units, then Math.abs and toString(36).
	var h int32
	for _, u := range units {
		h = h*31 + int32(u)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return key[:maxKeyLen] + "-" + strconv.FormatInt(abs, 36)
}

// ProjectDir returns the directory holding the sessions run in cwd: d/projects/ProjectKey(cwd),
// with cwd made absolute and its symbolic links resolved when it exists.
func (d Dir) ProjectDir(cwd string) string {
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	return filepath.Join(string(d), "projects", ProjectKey(cwd))
}

// TranscriptPath returns the path of session id's transcript for cwd, whether or not it exists.
// It fails with ErrInvalidID if id is not a UUID.
func (d Dir) TranscriptPath(cwd, id string) (string, error) {
	if !isUUID(id) {
		return "", fmt.Errorf("%w: session %q", ErrInvalidID, id)
	}
	return filepath.Join(d.ProjectDir(cwd), id+".jsonl"), nil
}

// subagentPath returns the path of agent agentID's transcript in session id.
func (d Dir) subagentPath(cwd, id, agentID string) (string, error) {
	if !isUUID(id) {
		return "", fmt.Errorf("%w: session %q", ErrInvalidID, id)
	}
	if !isAgentID(agentID) {
		return "", fmt.Errorf("%w: agent %q", ErrInvalidID, agentID)
	}
	return filepath.Join(d.ProjectDir(cwd), id, "subagents", "agent-"+agentID+".jsonl"), nil
}

// isUUID reports whether s is 8-4-4-4-12 hexadecimal digits, the form of the CLI's session ids.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// isAgentID reports whether s is a non-empty run of letters, digits, '-' and '_'.
func isAgentID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// notFound turns a missing file into ErrNotFound.
func notFound(err error, what string) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNotFound, what)
	}
	return err
}
