package shared

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Matcher is a compiled hook matcher. The zero value matches everything. A Matcher is immutable and
// safe for concurrent use.
//
// Syntax, decided by the characters the pattern holds:
//   - "" or "*": everything.
//   - only letters, digits, '_', '-', ' ', '|' and ',': a list of exact names split on '|' or ',',
//     each trimmed, case-sensitive ("Write|Edit" matches Write and Edit, not WriteFile). This is
//     also how the CLI reads such a pattern.
//   - those characters plus '*' or '?': a list of globs, split and trimmed as above ("mcp__*"
//     matches every name that starts with "mcp__"; "Read, mcp__*" matches Read too; '?' matches
//     one character).
//   - anything else: a Go regular expression anchored to the whole name ("Edit.*" matches EditX,
//     not NotebookEdit). The CLI tests such patterns unanchored; the SDK filters again locally, so
//     its own semantics are what a handler sees.
type Matcher struct {
	pattern string
	kind    matcherKind
	names   []string
	re      *regexp.Regexp
}

type matcherKind uint8

const (
	matchAll matcherKind = iota
	matchNames
	matchRegexp // globs compile to anchored regexps too
)

// CompileMatcher compiles pattern once. An invalid regular expression is an error.
func CompileMatcher(pattern string) (*Matcher, error) {
	m := &Matcher{pattern: pattern}
	p := strings.TrimSpace(pattern)
	if p == "" || p == "*" {
		return m, nil
	}
	switch classify(p) {
	case classNames:
		m.kind = matchNames
		m.names = splitNames(p)
	case classGlob:
		// Alternatives are split like a list (on '|' or ','), so "Read, mcp__*" is Read or any
		// mcp__ tool. A glob class always holds a '*' or '?', so there is at least one.
		alts := splitNames(p)
		for i, a := range alts {
			alts[i] = globToRegexp(a)
		}
		m.kind = matchRegexp
		m.re = regexp.MustCompile("^(?:" + strings.Join(alts, "|") + ")$")
	default:
		re, err := regexp.Compile("^(?:" + p + ")$")
		if err != nil {
			return nil, fmt.Errorf("invalid matcher %q: %w", pattern, err)
		}
		m.kind = matchRegexp
		m.re = re
	}
	return m, nil
}

// Match reports whether s matches.
func (m *Matcher) Match(s string) bool {
	if m == nil {
		return true
	}
	switch m.kind {
	case matchNames:
		for _, n := range m.names {
			if n == s {
				return true
			}
		}
		return false
	case matchRegexp:
		return m.re.MatchString(s)
	}
	return true
}

// MatchesAll reports whether the matcher matches every value.
func (m *Matcher) MatchesAll() bool { return m == nil || m.kind == matchAll }

// String returns the pattern as given.
func (m *Matcher) String() string {
	if m == nil {
		return ""
	}
	return m.pattern
}

// Names returns the exact names of a list matcher, and false for any other kind.
func (m *Matcher) Names() ([]string, bool) {
	if m == nil || m.kind != matchNames {
		return nil, false
	}
	return append([]string(nil), m.names...), true
}

type patternClass uint8

const (
	classNames patternClass = iota
	classGlob
	classRegexp
)

func classify(p string) patternClass {
	class := classNames
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '_', c == '-', c == ' ', c == '|', c == ',':
		case c == '*' || c == '?':
			class = classGlob
		default:
			return classRegexp
		}
	}
	return class
}

func splitNames(p string) []string {
	var names []string
	for _, f := range strings.FieldsFunc(p, func(r rune) bool { return r == '|' || r == ',' }) {
		if f = strings.TrimSpace(f); f != "" {
			names = append(names, f)
		}
	}
	return names
}

func globToRegexp(g string) string {
	var b strings.Builder
	for _, r := range g {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}

var matcherCache sync.Map // pattern -> *Matcher or error

func cachedMatcher(p string) (*Matcher, error) {
	if v, ok := matcherCache.Load(p); ok {
		if m, ok := v.(*Matcher); ok {
			return m, nil
		}
		return nil, v.(error)
	}
	m, err := CompileMatcher(p)
	if err != nil {
		matcherCache.Store(p, err)
		return nil, err
	}
	matcherCache.Store(p, m)
	return m, nil
}
