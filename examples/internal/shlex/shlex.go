// Package shlex is a small, conservative lexer for the POSIX shell command lines that an agent
// passes to the Bash tool. It is what the example policies (pathguard, bashpolicy) use to find the
// commands of a line and their output redirections.
//
// It is not a shell. It never expands anything: a word whose value depends on the shell at run
// time (a parameter, a command substitution, a leading ~, a glob) is marked Dynamic so that
// callers can refuse to guess. Command substitutions ($(...), `...`, <(...), >(...)) and
// subshells are split into commands of their own, so that a policy sees every command of the line
// (only when they are not inside double quotes: there they just make the word Dynamic).
// Here-document bodies are lexed as commands too, which can only make a policy stricter.
package shlex

import (
	"errors"
	"strings"
)

// Kind says what a Token is.
type Kind int

// The token kinds.
const (
	// Word is a word, with its quotes removed.
	Word Kind = iota
	// Control separates commands: ; & && || | |& a newline ( ) and the openers of command
	// substitutions $( ` <( >(.
	Control
	// Redirect is a redirection operator such as > >> >| &> 2> < << <<< <> >& <&, with its
	// file-descriptor prefix if any ("2>").
	Redirect
)

// Token is one word or operator of a command line.
type Token struct {
	Kind Kind
	// Text is a word's value with quotes and escapes removed (parameters and substitutions are kept
	// as written), or an operator as written.
	Text string
	// Dynamic reports that the shell would change the word before use: it holds an unquoted or
	// double-quoted $ or `, an unquoted leading ~, or an unquoted * ? [.
	Dynamic bool
}

// ErrUnterminated is returned for a line with an unterminated quote.
var ErrUnterminated = errors.New("shlex: unterminated quote")

// Operators are tried in this order: substitutions, redirections, control; each list longest first.
var (
	substOps   = []string{"$(", "<(", ">("}
	controlOps = []string{"&&", "||", "|&", ";;", ";", "&", "|", "(", ")", "\n"}
)
var redirectOps = []string{"&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<<", "<>", "<&", ">", "<"}

// Split lexes a command line into tokens.
func Split(line string) ([]Token, error) {
	var toks []Token
	var cur strings.Builder
	inWord, dynamic, backticks := false, false, false
	flush := func() {
		if inWord {
			toks = append(toks, Token{Kind: Word, Text: cur.String(), Dynamic: dynamic})
		}
		cur.Reset()
		inWord, dynamic = false, false
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && line[i+1] == '\n': // line continuation
			i += 2
		case c == '\\':
			if i+1 < len(line) {
				cur.WriteByte(line[i+1])
			}
			inWord = true
			i += 2
		case c == ' ' || c == '\t' || c == '\r':
			flush()
			i++
		case c == '#' && !inWord: // a comment runs to the end of the line
			for i < len(line) && line[i] != '\n' {
				i++
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, ErrUnterminated
			}
			cur.WriteString(line[i+1 : i+1+end])
			inWord = true
			i += end + 2
		case c == '"':
			n, dyn, err := doubleQuoted(line[i+1:], &cur)
			if err != nil {
				return nil, err
			}
			inWord, dynamic = true, dynamic || dyn
			i += n + 2
		case c == '$' && i+1 < len(line) && line[i+1] == '{':
			end := strings.IndexByte(line[i:], '}')
			if end < 0 {
				return nil, ErrUnterminated
			}
			cur.WriteString(line[i : i+end+1])
			inWord, dynamic = true, true
			i += end + 1
		case c == '$' && !strings.HasPrefix(line[i:], "$("):
			cur.WriteByte(c)
			inWord, dynamic = true, true
			i++
		default:
			if op := prefixOp(line[i:], substOps); op != "" || c == '`' {
				if op == "" {
					op = "`"
					backticks = !backticks
				}
				closing := op == "`" && !backticks
				// A word glued to a substitution ("a$(b)") is only partly known.
				dynamic = dynamic || (inWord && !closing)
				flush()
				toks = append(toks, Token{Kind: Control, Text: op})
				i += len(op)
				dynamic = closing && gluedWord(line, i) // "`a`b"
				continue
			}
			if op := prefixOp(line[i:], redirectOps); op != "" {
				fd := ""
				if inWord && !dynamic && isDigits(cur.String()) && !strings.HasPrefix(op, "&") {
					fd = cur.String() // "2>": the word so far was a file descriptor
					cur.Reset()
					inWord = false
				}
				flush()
				toks = append(toks, Token{Kind: Redirect, Text: fd + op})
				i += len(op)
				continue
			}
			if op := prefixOp(line[i:], controlOps); op != "" {
				flush()
				toks = append(toks, Token{Kind: Control, Text: op})
				i += len(op)
				// A word glued to the end of a substitution ("$(a)b") is only partly known.
				dynamic = op == ")" && gluedWord(line, i) // "$(a)b"
				continue
			}
			if (c == '~' && !inWord) || c == '*' || c == '?' || c == '[' {
				dynamic = true
			}
			cur.WriteByte(c)
			inWord = true
			i++
		}
	}
	flush()
	return toks, nil
}

// doubleQuoted reads the inside of a "..." string from s (after the opening quote) into cur. It
// returns the length of the inside, and whether it holds an expansion.
func doubleQuoted(s string, cur *strings.Builder) (n int, dynamic bool, err error) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i, dynamic, nil
		case '\\':
			if i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
				if s[i+1] != '\n' {
					cur.WriteByte(s[i+1])
				}
				i++
				continue
			}
			cur.WriteByte(c)
		case '$', '`':
			dynamic = true
			cur.WriteByte(c)
		default:
			cur.WriteByte(c)
		}
	}
	return 0, false, ErrUnterminated
}

// gluedWord reports whether a word starts right at line[i], glued to what came before.
func gluedWord(line string, i int) bool {
	return i < len(line) && !strings.ContainsRune(" \t\r\n;&|()<>`", rune(line[i]))
}

func prefixOp(s string, ops []string) string {
	for _, op := range ops {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Redirection is one redirection of a command.
type Redirection struct {
	// Op is the operator, e.g. ">", ">>", "2>", "<".
	Op string
	// Target is the word after the operator. HasTarget is false when an operator or the end of
	// the line follows instead (e.g. "> $(cmd)").
	Target    Token
	HasTarget bool
}

// Writes reports whether the redirection writes to a file: > >> >| <> &> &>> with any fd prefix,
// but not a descriptor duplication such as 2>&1 or >&2.
func (r Redirection) Writes() bool {
	op := strings.TrimLeft(r.Op, "0123456789")
	switch op {
	case ">", ">>", ">|", "<>", "&>", "&>>":
		return true
	case ">&": // ">&file" writes to a file; ">&2" or ">&-" duplicates or closes a descriptor
		return r.HasTarget && !isDigits(r.Target.Text) && r.Target.Text != "-"
	}
	return false
}

// Command is one simple command of a line: its words and its redirections.
type Command struct {
	Args      []Token
	Redirects []Redirection
	// Sep is the control operator that ended the command ("" at the end of the line).
	Sep string
}

// Words returns the text of the command's words.
func (c Command) Words() []string {
	w := make([]string, len(c.Args))
	for i, t := range c.Args {
		w[i] = t.Text
	}
	return w
}

// Commands groups tokens into simple commands, split at every Control token. Commands without
// words or redirections are dropped.
func Commands(toks []Token) []Command {
	var out []Command
	var cur Command
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.Kind {
		case Control:
			cur.Sep = t.Text
			if len(cur.Args) > 0 || len(cur.Redirects) > 0 {
				out = append(out, cur)
			}
			cur = Command{}
		case Redirect:
			r := Redirection{Op: t.Text}
			if i+1 < len(toks) && toks[i+1].Kind == Word {
				r.Target, r.HasTarget = toks[i+1], true
				i++
			}
			cur.Redirects = append(cur.Redirects, r)
		default:
			cur.Args = append(cur.Args, t)
		}
	}
	if len(cur.Args) > 0 || len(cur.Redirects) > 0 {
		out = append(out, cur)
	}
	return out
}

// Parse is Split followed by Commands.
func Parse(line string) ([]Command, error) {
	toks, err := Split(line)
	if err != nil {
		return nil, err
	}
	return Commands(toks), nil
}
