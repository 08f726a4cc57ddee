package shared

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
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
//
// Like the CLI's, a matcher knows the CLI's legacy tool names: a value matches if it, or another
// name of the same tool, does. "Task" (the legacy name of the Agent tool) matches "Agent", which
// is what CLI 2.1.330 sends for it, and "Agent" matches "Task"; "^Ta.*$" matches "Agent" too.
type Matcher struct {
	pattern string
	kind    matcherKind
	names   []string // matchNames: the list; matchRegexp: the finite set of names, if it is one
	finite  bool     // matchRegexp: names is the set of every name re matches
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
		// p must parse on its own: "Bash)|(.*" would otherwise slip out of the anchoring group.
		_, err := syntax.Parse(p, syntax.Perl)
		if err == nil {
			m.re, err = regexp.Compile("^(?:" + p + ")$")
		}
		if err != nil {
			return nil, fmt.Errorf("shared: invalid matcher %q: %w", pattern, err)
		}
		m.kind = matchRegexp
		m.names, m.finite = finiteNames(p)
	}
	return m, nil
}

// Match reports whether s, or another name of the same CLI tool (see Matcher), matches.
func (m *Matcher) Match(s string) bool {
	if m == nil || m.kind == matchAll {
		return true
	}
	if g, ok := toolNameGroups[s]; ok {
		return slices.ContainsFunc(g, m.match)
	}
	return m.match(s)
}

// match reports whether s itself matches.
func (m *Matcher) match(s string) bool {
	if m.kind == matchNames {
		return slices.Contains(m.names, s)
	}
	return m.re.MatchString(s)
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

// Names returns the names the matcher matches (before the CLI's tool aliases, see Match) when
// they are finitely many: a list's names as written, or every name of a regular expression such as
// "^(Bash|Read)$" or "(Web)?Fetch" (the set, at most maxFiniteNames names). It returns false for a
// matcher of every name, a glob, or any other regular expression.
func (m *Matcher) Names() ([]string, bool) {
	if m == nil || m.kind == matchAll || (m.kind == matchRegexp && !m.finite) {
		return nil, false
	}
	return slices.Clone(m.names), true
}

// maxFiniteNames bounds the set of names a regular expression's Names may return: a larger set
// (such as "[A-Z][a-z][a-z]") counts as infinite.
const maxFiniteNames = 64

// finiteNames returns the set of strings the regular expression p (anchored to the whole name,
// as the Matcher reads it) matches, if it is finite and at most maxFiniteNames strings, each once
// in the order the expression gives them. Case-insensitive parts, "." and repetitions without a
// bound are infinite. Anchors and word boundaries inside are taken as matching the empty string,
// which can only make the set larger (a superset is what the CLI's pre-filter needs).
func finiteNames(p string) ([]string, bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, false
	}
	return literalSet(re.Simplify())
}

// literalSet returns the strings re matches, when they are finitely many (at most
// maxFiniteNames); false otherwise.
func literalSet(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpNoMatch:
		return nil, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpLiteral:
		return literalOf(re)
	case syntax.OpCharClass:
		return charClassSet(re)
	case syntax.OpCapture:
		return literalSet(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := literalSet(re.Sub[0])
		return union([]string{""}, sub), ok
	case syntax.OpAlternate:
		return alternateSet(re)
	case syntax.OpConcat:
		return concatSet(re)
	}
	// OpAnyChar, OpAnyCharNotNL, OpStar, OpPlus, and OpRepeat (which Simplify leaves only unbounded).
	return nil, false
}

// literalOf is literalSet of a literal: one string, unless case folding makes it several.
func literalOf(re *syntax.Regexp) ([]string, bool) {
	if re.Flags&syntax.FoldCase != 0 {
		for _, r := range re.Rune {
			if unicode.SimpleFold(r) != r {
				return nil, false
			}
		}
	}
	return []string{string(re.Rune)}, true
}

// charClassSet is literalSet of a character class: each of its characters.
func charClassSet(re *syntax.Regexp) ([]string, bool) {
	var set []string
	for i := 0; i+1 < len(re.Rune); i += 2 {
		lo, hi := re.Rune[i], re.Rune[i+1]
		if int(hi-lo) >= maxFiniteNames-len(set) {
			return nil, false
		}
		for r := lo; r <= hi; r++ {
			set = append(set, string(r))
		}
	}
	return set, true
}

// alternateSet is literalSet of an alternation: the union of its branches'.
func alternateSet(re *syntax.Regexp) ([]string, bool) {
	var set []string
	for _, s := range re.Sub {
		sub, ok := literalSet(s)
		if set = union(set, sub); !ok || len(set) > maxFiniteNames {
			return nil, false
		}
	}
	return set, true
}

// concatSet is literalSet of a concatenation: every string of one part followed by every string
// of the next.
func concatSet(re *syntax.Regexp) ([]string, bool) {
	set := []string{""}
	for _, s := range re.Sub {
		sub, ok := literalSet(s)
		if !ok || len(set)*len(sub) > maxFiniteNames {
			return nil, false
		}
		var next []string
		for _, a := range set {
			for _, b := range sub {
				next = union(next, []string{a + b})
			}
		}
		set = next
	}
	return set, true
}

// union appends to a the strings of b it does not hold yet.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
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
