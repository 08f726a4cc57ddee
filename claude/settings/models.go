package settings

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// DeniedModelsMatch is what MatchDeniedModels answers.
type DeniedModelsMatch struct {
	// Denied says, for each model asked about, in order, whether an entry blocks it.
	Denied []bool
	// Warnings are notes on the entries: why one was ignored, or what one blocks where that may
	// surprise.
	Warnings []string
}

// MatchDeniedModels says which of models a managed deniedModels list blocks, as CLI 2.1.332
// reads the list (the TypeScript SDK's matchDeniedModels): a family name ("opus") blocks every
// model of the family; a model ID blocks it in every spelling and snapshot
// ("claude-opus-4-1" blocks "claude-opus-4-1-20250805" and a Bedrock or Vertex name of it;
// "claude-opus-4" every Opus 4.x); an alias that changes with releases ("sonnet[1m]",
// "opusplan", "default") blocks nothing; anything else blocks only that exact name.
//
// It grants nothing: true means the CLI refuses the model too; false promises nothing, since the
// CLI also judges what an alias or a custom name stands for. Pass the Effective["deniedModels"]
// of Resolve.
func MatchDeniedModels(models, deniedModels []string) DeniedModelsMatch {
	entries := make([]deniedEntry, len(deniedModels))
	var warnings []string
	for i, e := range deniedModels {
		entries[i] = parseDenied(e)
		if w := entries[i].warning; w != "" && !slices.Contains(warnings, w) {
			warnings = append(warnings, w)
		}
	}
	out := DeniedModelsMatch{Denied: make([]bool, len(models)), Warnings: warnings}
	for i, m := range models {
		name := strings.ToLower(stripContextTags(strings.TrimSpace(m)))
		id := parseModelID(name)
		out.Denied[i] = slices.ContainsFunc(entries, func(e deniedEntry) bool { return e.blocks(name, id) })
	}
	return out
}

// modelFamilies are the family names an entry may give alone; modelAliases the names that mean
// another model with each release.
var (
	modelFamilies = []string{"sonnet", "opus", "haiku", "fable"}
	modelAliases  = []string{"sonnet", "opus", "haiku", "fable", "best", "sonnet[1m]", "opus[1m]", "fable[1m]", "opusplan"}
	cloudRegions  = []string{"us", "eu", "apac", "jp", "au", "us-gov", "global"}
)

// modelID is a parsed Claude model ID: family, version, and what follows the version that is not
// a date, speed or revision suffix.
type modelID struct {
	family     string
	major      int
	minor      int
	hasMinor   bool
	base       string
	trailer    string
	hasTrailer bool
}

var (
	contextTag     = regexp.MustCompile(`(?i)\[(1|2)m\]`)
	providerPrefix = regexp.MustCompile(`^(?:([a-z-]+)\.)?anthropic\.(claude-.*)$`)
	familyFirst    = regexp.MustCompile(`^claude-([a-z]+)-(\d{1,2})`)
	versionFirst   = regexp.MustCompile(`^claude-(\d{1,2})`)
	plainSuffix    = regexp.MustCompile(`^(?:-fast|-latest)?(?:-v\d{1,3}@\d{8}|[-@]\d{8})?(?:-v\d{1,3}(?::\d{1,3})?)?$`)
	minorPart      = regexp.MustCompile(`^-(\d{1,2})`)
	familyPart     = regexp.MustCompile(`^-([a-z]+)`)
	letters        = regexp.MustCompile(`^[a-z]+$`)
	familyVersion  = regexp.MustCompile(`^(sonnet|opus|haiku|fable)\s+(\d+)(?:\.(\d+))?$`)
	dottedVersion  = regexp.MustCompile(`(\d)\.(\d)`)
)

func stripContextTags(s string) string { return contextTag.ReplaceAllString(s, "") }

// digitAt reports whether s has a digit at i.
func digitAt(s string, i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }

// parseModelID parses a model name the way the CLI does, or returns nil.
func parseModelID(s string) *modelID {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" || strings.IndexFunc(t, unicode.IsSpace) >= 0 {
		return nil
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "[1m]"), "[2m]")
	if i := strings.LastIndex(t, "/"); i >= 0 {
		t = t[i+1:]
	}
	if m := providerPrefix.FindStringSubmatch(t); m != nil {
		if m[1] != "" && !slices.Contains(cloudRegions, m[1]) {
			return nil
		}
		t = m[2]
	}
	id := versionOf(t)
	if id == nil {
		return nil
	}
	rest := t[len(id.base):]
	if rest != "" && rest[0] != '-' && rest[0] != '@' {
		return nil
	}
	if !plainSuffix.MatchString(rest) {
		id.trailer, id.hasTrailer = rest, true
	}
	return id
}

// versionOf reads claude-FAMILY-MAJOR[-MINOR] or claude-MAJOR[-MINOR]-FAMILY at the start of t.
func versionOf(t string) *modelID {
	if m := familyFirst.FindStringSubmatchIndex(t); m != nil && !digitAt(t, m[1]) {
		id := &modelID{family: t[m[2]:m[3]], base: t[:m[1]]}
		id.major, _ = strconv.Atoi(t[m[4]:m[5]])
		if mm := minorPart.FindStringSubmatchIndex(t[m[1]:]); mm != nil && !digitAt(t, m[1]+mm[1]) {
			id.minor, _ = strconv.Atoi(t[m[1]+mm[2] : m[1]+mm[3]])
			id.hasMinor, id.base = true, t[:m[1]+mm[1]]
		}
		return id
	}
	m := versionFirst.FindStringSubmatchIndex(t)
	if m == nil || digitAt(t, m[1]) {
		return nil
	}
	id := &modelID{}
	id.major, _ = strconv.Atoi(t[m[2]:m[3]])
	end := m[1]
	if mm := minorPart.FindStringSubmatchIndex(t[end:]); mm != nil && !digitAt(t, end+mm[1]) {
		if f := familyPart.FindStringSubmatchIndex(t[end+mm[1]:]); f != nil {
			id.minor, _ = strconv.Atoi(t[end+mm[2] : end+mm[3]])
			id.hasMinor = true
			end += mm[1]
		}
	}
	f := familyPart.FindStringSubmatchIndex(t[end:])
	if f == nil {
		return nil
	}
	id.family, id.base = t[end+f[2]:end+f[3]], t[:end+f[1]]
	return id
}

// deniedEntry is one parsed deniedModels entry: a family, a model ID, an exact name, or nothing.
type deniedEntry struct {
	family  string
	id      *modelID
	literal string
	warning string
}

// blocks reports whether e blocks the model name (lower case, without context tags), parsed as id.
func (e deniedEntry) blocks(name string, id *modelID) bool {
	switch {
	case e.family != "":
		return id != nil && id.family == e.family || containsWord(name, e.family)
	case e.id != nil:
		return id != nil && sameModel(*e.id, *id)
	case e.literal != "":
		return name == e.literal
	}
	return false
}

// sameModel reports whether the entry's id covers the model's.
func sameModel(e, m modelID) bool {
	if e.family != m.family || e.major != m.major {
		return false
	}
	if e.hasMinor && m.minor != e.minor {
		return false
	}
	if !e.hasTrailer {
		return true
	}
	return m.trailer == e.trailer || strings.HasPrefix(m.trailer, e.trailer+"-")
}

// containsWord reports whether w occurs in s between non-alphanumeric characters (or the ends).
func containsWord(s, w string) bool {
	alnum := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' }
	for i := strings.Index(s, w); i >= 0; {
		end := i + len(w)
		if (i == 0 || !alnum(s[i-1])) && (end == len(s) || !alnum(s[end])) {
			return true
		}
		j := strings.Index(s[i+1:], w)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// parseDenied parses one entry, with the CLI's note on it.
func parseDenied(raw string) deniedEntry {
	t := strings.ToLower(strings.TrimSpace(raw))
	n := strings.TrimSpace(stripContextTags(t))
	tagNote := ""
	if n != t {
		tagNote = " Context-size tags such as [1m] are ignored: the entry blocks the model at every context size."
	}
	q := quoteEntry(raw)
	switch {
	case n == "":
		return deniedEntry{warning: "An empty deniedModels entry was ignored."}
	case slices.Contains(modelFamilies, n):
		e := deniedEntry{family: n}
		if tagNote != "" {
			e.warning = fmt.Sprintf("\"%s\" blocks every %s model.%s", q, title(n), tagNote)
		}
		return e
	case slices.Contains(modelAliases, n) || n == "default":
		return deniedEntry{warning: fmt.Sprintf("\"%s\" was ignored: it names a different model depending on the release and settings. Name the model instead, for example \"claude-opus-5-5\".", q)}
	}
	id := parseModelID(n)
	s := n
	if id == nil && !strings.HasPrefix(n, "claude-") {
		s = "claude-" + n
		id = parseModelID(s)
	}
	if id == nil {
		return deniedEntry{literal: n, warning: literalWarning(q, n)}
	}
	e := deniedEntry{id: id}
	left := ""
	if i := strings.LastIndex(s, id.base); i >= 0 {
		left = s[i+len(id.base):]
	}
	ignored := ""
	if !id.hasTrailer && left != "" {
		ignored = fmt.Sprintf(" \"%s\" is ignored.", quoteEntry(left))
	}
	if tagNote != "" || ignored != "" {
		e.warning = fmt.Sprintf("\"%s\" blocks %s.%s%s", q, describeID(*id), ignored, tagNote)
	}
	return e
}

func describeID(id modelID) string {
	if !id.hasMinor {
		return fmt.Sprintf("every %s %d.x model", title(id.family), id.major)
	}
	return fmt.Sprintf("%s %d.%d in every spelling and snapshot", title(id.family), id.major, id.minor)
}

// literalWarning is the CLI's note on an entry that blocks only its exact name.
func literalWarning(q, n string) string {
	w := fmt.Sprintf("\"%s\" blocks only the exact model name \"%s\"; other spellings of the same model are not blocked.", q, quoteEntry(n))
	if hyph := dottedVersion.ReplaceAllString(n, "$1-$2"); hyph != n {
		if !strings.HasPrefix(hyph, "claude-") {
			hyph = "claude-" + hyph
		}
		if parseModelID(hyph) != nil {
			return fmt.Sprintf("%s To block a version, write it with a hyphen: \"%s\".", w, quoteEntry(hyph))
		}
	}
	if m := familyVersion.FindStringSubmatch(n); m != nil {
		if m[3] != "" {
			return fmt.Sprintf("%s To block a version, write its model ID, for example \"claude-%s-%s-%s\".", w, m[1], m[2], m[3])
		}
		return fmt.Sprintf("%s To block only version %s, write \"claude-%s-%s-0\"; \"claude-%s-%s\" blocks every %s %s.x model.", w, m[2], m[1], m[2], m[1], m[2], title(m[1]), m[2])
	}
	if letters.MatchString(n) {
		for _, f := range modelFamilies {
			if withinOneEdit(n, f) {
				return fmt.Sprintf("%s If you meant the %s family, write \"%s\".", w, title(f), f)
			}
		}
		return w + " To block a model family other than sonnet, opus, haiku or fable, list its versioned IDs."
	}
	return w
}

// withinOneEdit reports whether a becomes b by one insertion, deletion, substitution or swap of
// neighbours (a and b differ).
func withinOneEdit(a, b string) bool {
	if a == b {
		return false
	}
	switch len(a) - len(b) {
	case 0:
		var diff []int
		for i := range len(a) {
			if a[i] != b[i] {
				diff = append(diff, i)
			}
		}
		return len(diff) == 1 || len(diff) == 2 && diff[1] == diff[0]+1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
	case 1:
		return deletesToOne(a, b)
	case -1:
		return deletesToOne(b, a)
	}
	return false
}

// deletesToOne reports whether deleting one byte of long gives short.
func deletesToOne(long, short string) bool {
	for i := range len(long) {
		if long[:i]+long[i+1:] == short {
			return true
		}
	}
	return false
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// quoteEntry replaces control characters with ? and cuts a long entry, as the CLI's notes do.
func quoteEntry(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			return '?'
		}
		return r
	}, s)
	if r := []rune(s); len(r) > 128 {
		return string(r[:128]) + "…"
	}
	return s
}
