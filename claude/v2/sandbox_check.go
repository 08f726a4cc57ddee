package v2

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// checkSandboxForms checks the parts of WithSandbox that take a constrained value: the mask
// forms, the AWS pairs, SigV4, TLS termination and the ripgrep the CLI runs on the host.
func (o *config) checkSandboxForms() error {
	sb := o.sandbox
	if sb == nil {
		return nil
	}
	if err := checkCredentialForms(sb.Credentials); err != nil {
		return err
	}
	if t := sb.Network.TLSTerminate; t != nil && (t.CACertPath == "") != (t.CAKeyPath == "") {
		return sandboxErr("Network.TLSTerminate: give both CACertPath and CAKeyPath, or neither (an ephemeral CA)")
	}
	if sb.Ripgrep != nil {
		if err := o.checkHostProgram(sb.Ripgrep.Command); err != nil {
			return sandboxErr("Ripgrep.Command: %v", err)
		}
	}
	return nil
}

func sandboxErr(format string, args ...any) error {
	return &OptionError{Option: "WithSandbox", Problem: fmt.Sprintf(format, args...)}
}

// checkCredentialForms checks the mask entries' forms, the AWS pairs and SigV4.
func checkCredentialForms(c SandboxCredentials) error {
	fail := sandboxErr
	for _, m := range c.MaskEnv {
		if strings.TrimSpace(m.Name) == "" {
			return fail("Credentials.MaskEnv: an entry without Name")
		}
		if m.Extract != "" && m.Decode != "" {
			return fail("Credentials.MaskEnv %s: Extract and Decode exclude each other (the CLI takes the decode path and never applies Extract)", m.Name)
		}
		if err := checkMaskOptions("Credentials.MaskEnv "+m.Name, m.SandboxMaskOptions); err != nil {
			return fail("%v", err)
		}
	}
	for _, m := range c.MaskFiles {
		if strings.TrimSpace(m.Path) == "" {
			return fail("Credentials.MaskFiles: an entry without Path")
		}
		if err := checkMaskOptions("Credentials.MaskFiles "+m.Path, m.SandboxMaskOptions); err != nil {
			return fail("%v", err)
		}
	}
	return checkAWSForms(c)
}

// checkAWSForms checks the AWS pairs (each a whole-value MaskEnv entry) and SigV4's policies.
func checkAWSForms(c SandboxCredentials) error {
	fail := sandboxErr
	wholeMasked := func(name string) bool {
		return slices.ContainsFunc(c.MaskEnv, func(m SandboxMaskedEnv) bool {
			return m.Name == name && m.Extract == "" && m.Decode == ""
		})
	}
	for _, p := range c.AWSPairs {
		if p.AccessKeyIDVar == "" || p.SecretAccessKeyVar == "" {
			return fail("Credentials.AWSPairs: AccessKeyIDVar and SecretAccessKeyVar are required")
		}
		for _, v := range []string{p.AccessKeyIDVar, p.SecretAccessKeyVar, p.SessionTokenVar} {
			if v != "" && !wholeMasked(v) {
				return fail("Credentials.AWSPairs: %s is not a whole-value MaskEnv entry, so the CLI cannot re-sign with it: mask it (without Extract or Decode)", v)
			}
		}
	}
	if s := c.SigV4; s != nil {
		for name, v := range map[string]string{"Streaming": s.Streaming, "Presigned": s.Presigned, "SigV4a": s.SigV4a} {
			if v != "" && v != "deny" && v != "passthrough" {
				return fail("Credentials.SigV4.%s: %q is neither \"deny\" nor \"passthrough\"", name, v)
			}
		}
	}
	return nil
}

// checkMaskOptions checks the values of one mask entry's structured form.
func checkMaskOptions(entry string, m SandboxMaskOptions) error {
	switch m.OnExtractNoMatch {
	case "", "warn", "deny", "error":
	default:
		return fmt.Errorf("%s: OnExtractNoMatch %q is not \"warn\", \"deny\" or \"error\"", entry, m.OnExtractNoMatch)
	}
	if m.Decode != "" && m.Decode != "jwt" {
		return fmt.Errorf("%s: Decode %q is not \"jwt\"", entry, m.Decode)
	}
	if len(m.MaskClaims) > 0 && m.Decode == "" {
		return fmt.Errorf("%s: MaskClaims needs Decode \"jwt\"", entry)
	}
	if m.OnExtractNoMatch != "" && m.Extract == "" && m.Decode == "" {
		return fmt.Errorf("%s: OnExtractNoMatch without Extract or Decode does nothing", entry)
	}
	return nil
}

// errHostProgram is the cause of a refused program the CLI would run on the host.
var errHostProgram = errors.New("v2: a program the CLI runs on the host, outside the sandbox, must be one the repository cannot have put or changed")

// checkHostProgram checks a program the CLI runs on the host, unsandboxed: an absolute path to an
// executable regular file, outside the working directory and the additional directories (which
// the repository and the agent may write), and neither it nor its directory writable by group or
// others. Links are followed before the checks.
func (o *config) checkHostProgram(p string) error {
	if !filepath.IsAbs(p) {
		return fmt.Errorf("%q is not an absolute path (a name would be looked up on PATH, which the agent's environment may change): %w", p, errHostProgram)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Errorf("%w: %w", errHostProgram, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("%w: %w", errHostProgram, err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file: %w", real, errHostProgram)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by group or others (mode %v): %w", real, fi.Mode().Perm(), errHostProgram)
	}
	if di, err := os.Stat(filepath.Dir(real)); err == nil && di.Mode().Perm()&0o022 != 0 && di.Mode()&os.ModeSticky == 0 {
		return fmt.Errorf("its directory %s is writable by group or others: %w", filepath.Dir(real), errHostProgram)
	}
	cwd := o.cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	for _, d := range append([]string{cwd}, o.additionalDirs...) {
		if d == "" {
			continue
		}
		if rd, err := filepath.EvalSymlinks(d); err == nil {
			d = rd
		}
		if rel, err := filepath.Rel(d, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("%s is inside %s, which the session's agent and the repository may write: %w", real, d, errHostProgram)
		}
	}
	return nil
}
