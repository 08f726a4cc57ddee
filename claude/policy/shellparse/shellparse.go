// Package shellparse is a thin layer over mvdan.cc/sh/v3/syntax, a real shell parser:
// it parses a Bash command line and reads its words and redirections the way the checks in
// claude/policy need them. It is public so that a program writing its own Bash guard (as
// examples/hooks-permission and examples/hooks-validation do) reads commands the same way.
package shellparse

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses line as Bash. A line Bash could not run either (an unterminated quote, a
// redirection without a word) is an error: callers must not allow it.
func Parse(line string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
}

// Static returns w's value after quote removal, and whether w has one before the shell runs: no
// parameter, command, arithmetic or process substitution, no $'...' or $"..." string. Globs and a
// leading ~ are left as written (see Glob and Tilde).
func Static(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch v := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(v.Value, false))
		case *syntax.SglQuoted:
			if v.Dollar {
				return "", false
			}
			b.WriteString(v.Value)
		case *syntax.DblQuoted:
			if v.Dollar {
				return "", false
			}
			for _, q := range v.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(l.Value, true))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Flat returns w's value with quotes removed and every expansion kept as written ($HOME,
// ${HOME}, $(cmd)): a static reading for deny rules, which must see `"$HOME/"` as $HOME/.
func Flat(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	flatParts(&b, w.Parts, false)
	return b.String()
}

func flatParts(b *strings.Builder, parts []syntax.WordPart, quoted bool) {
	for _, p := range parts {
		switch v := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(v.Value, quoted))
		case *syntax.SglQuoted:
			b.WriteString(v.Value)
		case *syntax.DblQuoted:
			flatParts(b, v.Parts, true)
		default:
			_ = syntax.NewPrinter().Print(b, p)
		}
	}
}

// unescape removes the backslashes of a literal: every one outside quotes, and inside double
// quotes the ones before $ ` " \ and a newline.
func unescape(s string, dquoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!dquoted || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Glob reports whether w has an unquoted glob character (* ? [).
func Glob(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(strings.ReplaceAll(l.Value, `\`, ""), "*?[") {
			return true
		}
		if _, ok := p.(*syntax.ExtGlob); ok {
			return true
		}
	}
	return false
}

// Tilde reports whether w starts with an unquoted ~ (the shell expands it to a home directory).
func Tilde(w *syntax.Word) bool {
	if w == nil || len(w.Parts) == 0 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && strings.HasPrefix(l.Value, "~")
}

// Writes reports whether r writes to the file its word names: > >> >| &> &>> <>, and >&word
// when word is not a file descriptor or - (Bash then reads it as &>word).
func Writes(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
		return true
	case syntax.DplOut:
		v, ok := Static(r.Word)
		return !ok || strings.Trim(v, "0123456789") != "" && v != "-"
	}
	return false
}

// Calls returns every simple command of n, nested ones included (in command and process
// substitutions, functions, loops, here-documents), in source order.
func Calls(n syntax.Node) []*syntax.CallExpr {
	var out []*syntax.CallExpr
	syntax.Walk(n, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			out = append(out, c)
		}
		return true
	})
	return out
}

// Redirects returns every redirection of n, nested ones included, in source order.
func Redirects(n syntax.Node) []*syntax.Redirect {
	var out []*syntax.Redirect
	syntax.Walk(n, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.Redirect); ok {
			out = append(out, r)
		}
		return true
	})
	return out
}
