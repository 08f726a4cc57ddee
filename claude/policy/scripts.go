package policy

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// This file holds the shell scripts the analysis reads: source and . of a file, and a script run
// as a program (./build.sh, bash build.sh). A script it can read is analysed as the shell would
// run it; one it cannot (a program, another language, a file too large) is what only the kernel
// bounds.

// systemDirs are the directories whose programs are the system's, not the project's.
var systemDirs = setOf("/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin")

// isScriptPath reports whether name, a program named with a slash, is a file of the project (or
// any file but the system's programs): ./build.sh, bin/tool.
func isScriptPath(name string) bool {
	return strings.Contains(name, "/") && !systemDirs[filepath.Dir(name)]
}

// readScript returns the text of the shell script x names, or why it cannot: it must be a regular
// file of at most maxCommandBytes, not a program, and (when shebang is set) start with a #! line of
// a POSIX shell or none.
func (a *analyzer) readScript(x arg, cwd string, shebang bool) (string, string) {
	if !x.known || cwd == "" && !isAbsLike(x.val) {
		return "", "its name is known only when the command runs"
	}
	real, err := a.resolve(cwd, x.val)
	if err != nil {
		return "", err.Error()
	}
	if d := a.p.checkRead(real, x.val); !d.Allow {
		return "", d.Reason
	}
	f, err := os.Open(real)
	if err != nil {
		return "", err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return "", "it is not a regular file"
	}
	b, err := io.ReadAll(io.LimitReader(f, maxCommandBytes+1))
	switch {
	case err != nil:
		return "", err.Error()
	case len(b) > maxCommandBytes:
		return "", "it is larger than the policy reads"
	case bytes.IndexByte(b, 0) >= 0:
		return "", "it is a program, not a script"
	}
	if shebang && bytes.HasPrefix(b, []byte("#!")) {
		line, _, _ := strings.Cut(string(b[2:]), "\n")
		fields := strings.Fields(line)
		interp := ""
		if len(fields) > 0 {
			interp = filepath.Base(fields[0])
		}
		if interp == "env" && len(fields) > 1 {
			interp = fields[1]
		}
		if interp != "sh" && interp != "bash" && interp != "dash" {
			return "", "it is a " + interp + " script, whose language the policy does not read"
		}
	}
	return string(b), ""
}

// scriptFile analyses the script x run as a program, or by shell (bash script.sh), in a new
// shell; its arguments are unknown to it ($1 is known only when it runs).
func (a *analyzer) scriptFile(c invocation, x arg, shell string) state {
	code, why := a.readScript(x, c.cwd, shell == "")
	if why != "" {
		return a.unknownProgram(c, "the script "+x.val+" cannot be analysed: "+why)
	}
	a.nested(func() state { return a.script(code, c.st.clone(), false) }, c.st)
	return c.st
}

// source analyses the file source (or .) reads, in the current shell. What it cannot read (a
// process substitution, stdin, a file known only at run time, a file too large) is denied.
func (a *analyzer) source(c invocation) state {
	if len(c.args) == 0 {
		a.deny(deny(RuleUnparsable, "%s without a file", c.base))
		return c.st
	}
	code, why := a.readScript(c.args[0], c.cwd, false)
	if why != "" {
		a.deny(deny(RuleUnresolvable, "%s %s runs code the policy cannot read (%s); run the commands directly", c.base, c.args[0].val, why))
		return c.st
	}
	return a.nested(func() state { return a.script(code, c.st, false) }, c.st)
}
