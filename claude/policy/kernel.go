package policy

// WithKernelConfinement returns a copy of p for a session whose CLI, and everything it starts,
// runs under kernel confinement that lets it write only p's write roots (v2 calls it when it
// starts the CLI so; a program should not call it for a session without that confinement).
//
// It changes one rule. Without it, Confined and Audit deny what the analysis does not model
// (RuleUnknownProgram, RuleUnknownOption): programs that run the project's own code (make, go
// test, npm test, cargo, pytest, an interpreter or a script it cannot read), any program it has no
// model of, and any option or subcommand a model does not list; what they write cannot be known
// from the command line. With it, those run: the paths their command line names are still checked
// (each operand and option value that looks like a path must be writable), and the kernel bounds
// what they write beyond that. Everything else stays as it is: inline code (python -c), options
// that run programs (tar --to-command, git -c core.fsmonitor), shell evaluation of data (PS4,
// BASH_ENV, a[$(...)]), variables given to programs, protected paths and the rules are denied
// alike. Strict's list is unchanged.
func (p *Policy) WithKernelConfinement() *Policy {
	c := *p
	c.kernel = true
	return &c
}

// KernelConfined reports whether p was made with WithKernelConfinement.
func (p *Policy) KernelConfined() bool { return p.kernel }
