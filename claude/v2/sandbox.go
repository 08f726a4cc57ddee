package v2

import (
	"errors"

	"github.com/go-json-experiment/json"
)

// Sandbox runs the Bash tool's commands inside the CLI's OS sandbox (bubblewrap on Linux, which
// needs the bwrap and socat commands; Seatbelt on macOS): a command may write only in the
// project directory (and Filesystem.AllowWrite), and reach the network only through the CLI's
// proxy, for Network.AllowedDomains. It is the official SDKs' sandbox option (SandboxSettings),
// passed as the "sandbox" key of the CLI's --settings, with enabled set. It confines Bash only:
// the Read, Write and Edit tools follow the permission rules instead.
//
// Its zero value is the fail-closed choice, which differs from the CLI's defaults in two fields:
// a CLI that cannot sandbox exits at startup, so CreateSession fails (AllowUnavailable), and the
// model cannot ask to run a command outside the sandbox (AllowUnsandboxedCommands).
type Sandbox struct {
	// AllowUnavailable lets the session start when the CLI cannot sandbox (bwrap missing, an
	// unsupported platform): it then warns and runs commands unsandboxed, the CLI's default.
	// Default: false, the CLI exits at startup (failIfUnavailable) and CreateSession fails.
	AllowUnavailable bool `json:"-"`
	// AutoAllowBash approves a Bash command that will run sandboxed without a permission
	// prompt, unless a deny rule, an ask rule or a safety check stops it
	// (autoAllowBashIfSandboxed). Hooks still decide. Default: false, sandboxed commands need a
	// permission like any other (WithAllowedTools, WithCanUseTool, a hook).
	AutoAllowBash bool `json:"-"`
	// AllowUnsandboxedCommands lets the model run a command outside the sandbox through the
	// Bash tool's dangerouslyDisableSandbox parameter; such a command goes through the
	// permission flow. Default: false (the CLI's is true), the parameter is ignored.
	AllowUnsandboxedCommands bool `json:"-"`
	// ExcludedCommands are Bash permission-rule patterns of commands run outside the sandbox
	// (a convenience, not a boundary: they still need a permission). Default: none.
	ExcludedCommands []string `json:"excludedCommands,omitempty"`
	// Network limits what sandboxed commands can reach.
	Network SandboxNetwork `json:"network,omitzero"`
	// Filesystem changes what sandboxed commands can read and write.
	Filesystem SandboxFilesystem `json:"filesystem,omitzero"`
	// Credentials keeps secrets from sandboxed commands.
	Credentials SandboxCredentials `json:"credentials,omitzero"`
	// IgnoreViolations maps a command pattern ("*" for every command) to paths whose sandbox
	// violations are not reported. Default: none.
	IgnoreViolations map[string][]string `json:"ignoreViolations,omitempty"`
	// EnableWeakerNestedSandbox runs without a fresh /proc mount (Linux only), for hosts such
	// as unprivileged containers that cannot create one; it leaves the host's /proc readable to
	// sandboxed commands. Default: false.
	EnableWeakerNestedSandbox bool `json:"enableWeakerNestedSandbox,omitzero"`
}

// SandboxNetwork is the network part of Sandbox. Its zero value: sandboxed commands reach no host
// without a permission prompt (which the SDK denies unless WithCanUseTool or a hook allows it).
type SandboxNetwork struct {
	// AllowedDomains may be reached without a prompt; wildcards such as *.example.com work.
	// Default: none.
	AllowedDomains []string `json:"allowedDomains,omitempty"`
	// DeniedDomains are always blocked, even when AllowedDomains matches. Default: none.
	DeniedDomains []string `json:"deniedDomains,omitempty"`
	// StrictAllowlist denies a host outside AllowedDomains outright instead of asking.
	// Default: false.
	StrictAllowlist bool `json:"strictAllowlist,omitzero"`
	// AllowUnixSockets are Unix socket paths sandboxed commands may use (macOS only).
	// Default: none.
	AllowUnixSockets []string `json:"allowUnixSockets,omitempty"`
	// AllowAllUnixSockets lets sandboxed commands use every Unix socket. Default: false.
	AllowAllUnixSockets bool `json:"allowAllUnixSockets,omitzero"`
	// AllowLocalBinding lets sandboxed commands listen on localhost ports (macOS only).
	// Default: false.
	AllowLocalBinding bool `json:"allowLocalBinding,omitzero"`
	// HTTPProxyPort and SOCKSProxyPort are local ports of the user's own proxies, used instead
	// of the CLI's. Default (0): the CLI's proxies.
	HTTPProxyPort  int `json:"httpProxyPort,omitzero"`
	SOCKSProxyPort int `json:"socksProxyPort,omitzero"`
}

// SandboxFilesystem is the filesystem part of Sandbox. Its zero value: sandboxed commands write
// only in the project directory (and the CLI's own temporary directory) and read everywhere.
type SandboxFilesystem struct {
	// AllowWrite are more paths sandboxed commands may write. Default: none.
	AllowWrite []string `json:"allowWrite,omitempty"`
	// DenyWrite are paths they may not write, inside the writable ones. Default: none.
	DenyWrite []string `json:"denyWrite,omitempty"`
	// DenyRead are paths they may not read. Default: none.
	DenyRead []string `json:"denyRead,omitempty"`
	// AllowRead re-allows reading inside DenyRead. Default: none.
	AllowRead []string `json:"allowRead,omitempty"`
	// Disabled turns filesystem isolation off, keeping the network's. Default: false.
	Disabled bool `json:"disabled,omitzero"`
}

// SandboxCredentials keeps secrets from sandboxed commands (the CLI's sandbox.credentials). Deny
// mode hides a secret; mask mode (MaskEnv) gives the command a sentinel in its place, which the
// CLI's proxy swaps back for the secret only in requests to the entry's InjectHosts. The mask
// mode's extract, JWT-claim, AWS and SigV4 forms are not typed (WithSettings without WithSandbox).
// Its zero value keeps nothing back.
type SandboxCredentials struct {
	// DenyEnv are environment variables unset for sandboxed commands. Default: none.
	DenyEnv []string
	// DenyFiles are files or directories sandboxed commands may not read. Default: none.
	DenyFiles []string
	// MaskEnv are environment variables sandboxed commands see as a sentinel. Default: none.
	MaskEnv []SandboxMaskedEnv
	// MaskFiles are files sandboxed commands read with a sentinel in place of the secret (the
	// whole file). Default: none.
	MaskFiles []SandboxMaskedFile
}

// SandboxMaskedFile is one masked file of SandboxCredentials.MaskFiles.
type SandboxMaskedFile struct {
	// Path is the file's path.
	Path string `json:"path"`
	// InjectHosts are as SandboxMaskedEnv's. Default: none.
	InjectHosts []string `json:"injectHosts,omitempty"`
}

// SandboxMaskedEnv is one masked environment variable of SandboxCredentials.MaskEnv.
type SandboxMaskedEnv struct {
	// Name is the variable's name.
	Name string `json:"name"`
	// InjectHosts are the hosts whose requests through the CLI's proxy get the real value back
	// in place of the sentinel (HTTPS needs Network's TLS termination). Default: none, the
	// secret never leaves the CLI.
	InjectHosts []string `json:"injectHosts,omitempty"`
}

// IsZero reports whether c keeps nothing back (it is then left out of the settings).
func (c SandboxCredentials) IsZero() bool {
	return len(c.DenyEnv) == 0 && len(c.DenyFiles) == 0 && len(c.MaskEnv) == 0 && len(c.MaskFiles) == 0
}

// MarshalJSON encodes c as the CLI's settings read it: entries of mode "deny" or "mask".
func (c SandboxCredentials) MarshalJSON() ([]byte, error) {
	type envEntry struct {
		Name        string   `json:"name"`
		Mode        string   `json:"mode"`
		InjectHosts []string `json:"injectHosts,omitempty"`
	}
	type fileEntry struct {
		Path        string   `json:"path"`
		Mode        string   `json:"mode"`
		InjectHosts []string `json:"injectHosts,omitempty"`
	}
	var v struct {
		EnvVars []envEntry  `json:"envVars,omitempty"`
		Files   []fileEntry `json:"files,omitempty"`
	}
	for _, n := range c.DenyEnv {
		v.EnvVars = append(v.EnvVars, envEntry{Name: n, Mode: "deny"})
	}
	for _, m := range c.MaskEnv {
		v.EnvVars = append(v.EnvVars, envEntry{Name: m.Name, Mode: "mask", InjectHosts: m.InjectHosts})
	}
	for _, p := range c.DenyFiles {
		v.Files = append(v.Files, fileEntry{Path: p, Mode: "deny"})
	}
	for _, m := range c.MaskFiles {
		v.Files = append(v.Files, fileEntry{Path: m.Path, Mode: "mask", InjectHosts: m.InjectHosts})
	}
	return json.Marshal(v)
}

// WithSandbox runs the Bash tool's commands in the CLI's OS sandbox, configured by sb (see
// Sandbox: its zero value fails closed). The settings are merged into the CLI's --settings (with
// WithSettings's and the settings hooks, through a temporary file); a "sandbox" key in
// WithSettings is then an error. Default: no sandbox, commands run as the CLI's user (the CLI's
// sandbox settings of the setting sources still apply).
func WithSandbox(sb Sandbox) Option {
	return optionFunc(func(o *config) { o.sandbox = &sb })
}

// sandboxSettings is Sandbox as the CLI's settings read it.
type sandboxSettings struct {
	Enabled                  bool `json:"enabled"`
	FailIfUnavailable        bool `json:"failIfUnavailable"`
	AutoAllowBashIfSandboxed bool `json:"autoAllowBashIfSandboxed"`
	AllowUnsandboxedCommands bool `json:"allowUnsandboxedCommands"`
	Sandbox
}

var errSandboxSettings = errors.New("v2: WithSandbox and a \"sandbox\" key in WithSettings exclude each other")
