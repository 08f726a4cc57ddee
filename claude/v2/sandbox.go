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
	// AllowNestedUserNamespaces lets sandboxed commands create user namespaces of their own
	// (Linux), for tools that sandbox themselves that way (Chromium, a nested bubblewrap,
	// unshare). It removes code-execution isolation: in a folder it may write, a hostile command
	// can then get past DenyWrite, DenyRead, the credential entries and the paths the CLI always
	// protects. Default: false, the sandbox refuses them.
	AllowNestedUserNamespaces bool `json:"allowNestedUserNamespaces,omitzero"`
	// EnableWeakerNetworkIsolation (macOS only) lets sandboxed commands reach
	// com.apple.trustd.agent, which Go programs need to verify TLS through HTTPProxyPort's proxy.
	// Default: false.
	EnableWeakerNetworkIsolation bool `json:"enableWeakerNetworkIsolation,omitzero"`
	// AllowAppleEvents (macOS only) lets sandboxed commands send Apple Events (open, osascript),
	// which launches other applications unsandboxed. Default: false.
	AllowAppleEvents bool `json:"allowAppleEvents,omitzero"`
	// Ripgrep is the ripgrep the CLI runs, on the host and outside the sandbox, to find the files
	// the sandbox must protect. Because it runs unconfined, CreateSession accepts only an
	// absolute path to an executable regular file that the repository cannot have put or changed
	// there: not below the working directory or an additional directory (after following
	// links), not writable by group or others, nor its directory. Default: nil, the CLI's own.
	Ripgrep *SandboxRipgrep `json:"ripgrep,omitzero"`
}

// SandboxRipgrep is Sandbox.Ripgrep.
type SandboxRipgrep struct {
	// Command is the ripgrep executable: an absolute path (see Sandbox.Ripgrep).
	Command string `json:"command"`
	// Args are put before the CLI's own arguments. Default: none.
	Args []string `json:"args,omitempty"`
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
	// AllowMachLookup are XPC/Mach service names sandboxed commands may look up (macOS only;
	// a trailing * matches a prefix). Each lets them reach a service outside the sandbox.
	// Default: none.
	AllowMachLookup []string `json:"allowMachLookup,omitempty"`
	// TLSTerminate has the CLI's proxy terminate TLS (experimental in CLI 2.1.332), so that it
	// sees HTTPS requests and can put a masked credential back in them (SandboxMaskedEnv's
	// InjectHosts). Default: nil, HTTPS passes through the proxy unread.
	TLSTerminate *SandboxTLSTerminate `json:"tlsTerminate,omitzero"`
}

// SandboxTLSTerminate is SandboxNetwork.TLSTerminate. Its zero value has the CLI make an
// ephemeral CA for the session.
type SandboxTLSTerminate struct {
	// CACertPath and CAKeyPath are a CA certificate and its key, both or neither. Default: an
	// ephemeral CA.
	CACertPath string `json:"caCertPath,omitempty"`
	CAKeyPath  string `json:"caKeyPath,omitempty"`
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
// mode's structured forms are SandboxMaskOptions (extract, JWT, claims); AWSPairs and SigV4 serve
// AWS credentials. Its zero value keeps nothing back.
type SandboxCredentials struct {
	// DenyEnv are environment variables unset for sandboxed commands. Default: none.
	DenyEnv []string
	// DenyFiles are files or directories sandboxed commands may not read. Default: none.
	DenyFiles []string
	// MaskEnv are environment variables sandboxed commands see as a sentinel. Default: none.
	MaskEnv []SandboxMaskedEnv
	// MaskFiles are files sandboxed commands read with a sentinel in place of the secret (the
	// whole file, or Extract's captures). Default: none.
	MaskFiles []SandboxMaskedFile
	// AllowPlaintextInject lets the proxy put a masked secret back into plain-HTTP requests,
	// where the host is not verified and the secret travels in clear text; for test fixtures.
	// Default: false.
	AllowPlaintextInject bool
	// AWSPairs group masked variables of other names than AWS_ACCESS_KEY_ID,
	// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (paired by the CLI itself) into AWS
	// credentials, which the proxy re-signs requests with (SigV4). Default: none.
	AWSPairs []SandboxAWSPair
	// SigV4 says what the proxy does with the AWS request shapes it cannot re-sign. Default (nil):
	// it denies them.
	SigV4 *SandboxSigV4
}

// SandboxMaskOptions are the structured forms of a mask entry, for a secret inside a larger
// value or file. The zero value masks the whole value.
type SandboxMaskOptions struct {
	// Extract is a regular expression whose capture group 1, at each match, is the secret: only
	// those spans are masked, so a connection string or a .netrc still parses. Default: "", the
	// whole value.
	Extract string `json:"extract,omitempty"`
	// OnExtractNoMatch is what happens when Extract (or Decode) finds nothing: "warn" (the CLI's
	// default: the value passes unmasked), "deny" (hidden instead) or "error" (the sandbox does
	// not start). Default: "".
	OnExtractNoMatch string `json:"onExtractNoMatch,omitempty"`
	// Decode "jwt" masks a JWT with a structurally valid fake one. Default: "".
	Decode string `json:"decode,omitempty"`
	// MaskClaims are the payload claims to mask inside the decoded token instead of the whole
	// token (needs Decode). Default: none.
	MaskClaims []string `json:"maskClaims,omitempty"`
}

// SandboxAWSPair is one of SandboxCredentials.AWSPairs: the names of masked variables.
type SandboxAWSPair struct {
	AccessKeyIDVar     string `json:"accessKeyIdVar"`
	SecretAccessKeyVar string `json:"secretAccessKeyVar"`
	// SessionTokenVar is optional.
	SessionTokenVar string `json:"sessionTokenVar,omitempty"`
}

// SandboxSigV4 is SandboxCredentials.SigV4: for each request shape, "deny" (the CLI's default)
// or "passthrough" (forwarded unsigned, which the upstream rejects).
type SandboxSigV4 struct {
	Streaming string `json:"streaming,omitempty"`
	Presigned string `json:"presigned,omitempty"`
	SigV4a    string `json:"sigv4a,omitempty"`
}

// SandboxMaskedFile is one masked file of SandboxCredentials.MaskFiles.
type SandboxMaskedFile struct {
	// Path is the file's path.
	Path string `json:"path"`
	// InjectHosts are as SandboxMaskedEnv's. Default: none.
	InjectHosts        []string `json:"injectHosts,omitempty"`
	SandboxMaskOptions `json:",inline"`
	// MaskDuplicates masks each captured secret also where it occurs outside Extract's matches.
	// Default: false.
	MaskDuplicates bool `json:"maskDuplicates,omitzero"`
}

// SandboxMaskedEnv is one masked environment variable of SandboxCredentials.MaskEnv.
type SandboxMaskedEnv struct {
	// Name is the variable's name.
	Name string `json:"name"`
	// InjectHosts are the hosts whose requests through the CLI's proxy get the real value back
	// in place of the sentinel (HTTPS needs Network's TLS termination). Default: none, the
	// secret never leaves the CLI.
	InjectHosts        []string `json:"injectHosts,omitempty"`
	SandboxMaskOptions `json:",inline"`
}

// IsZero reports whether c keeps nothing back (it is then left out of the settings).
func (c SandboxCredentials) IsZero() bool {
	return len(c.DenyEnv) == 0 && len(c.DenyFiles) == 0 && len(c.MaskEnv) == 0 && len(c.MaskFiles) == 0 &&
		!c.AllowPlaintextInject && len(c.AWSPairs) == 0 && c.SigV4 == nil
}

// MarshalJSON encodes c as the CLI's settings read it: entries of mode "deny" or "mask".
func (c SandboxCredentials) MarshalJSON() ([]byte, error) {
	type envEntry struct {
		Name        string   `json:"name"`
		Mode        string   `json:"mode"`
		InjectHosts []string `json:"injectHosts,omitempty"`
		SandboxMaskOptions
	}
	type fileEntry struct {
		Path        string   `json:"path"`
		Mode        string   `json:"mode"`
		InjectHosts []string `json:"injectHosts,omitempty"`
		SandboxMaskOptions
		MaskDuplicates bool `json:"maskDuplicates,omitzero"`
	}
	v := struct {
		EnvVars              []envEntry       `json:"envVars,omitempty"`
		Files                []fileEntry      `json:"files,omitempty"`
		AllowPlaintextInject bool             `json:"allowPlaintextInject,omitzero"`
		AWSPairs             []SandboxAWSPair `json:"awsPairs,omitempty"`
		SigV4                *SandboxSigV4    `json:"sigv4,omitzero"`
	}{AllowPlaintextInject: c.AllowPlaintextInject, AWSPairs: c.AWSPairs, SigV4: c.SigV4}
	for _, n := range c.DenyEnv {
		v.EnvVars = append(v.EnvVars, envEntry{Name: n, Mode: "deny"})
	}
	for _, m := range c.MaskEnv {
		v.EnvVars = append(v.EnvVars, envEntry{Name: m.Name, Mode: "mask", InjectHosts: m.InjectHosts, SandboxMaskOptions: m.SandboxMaskOptions})
	}
	for _, p := range c.DenyFiles {
		v.Files = append(v.Files, fileEntry{Path: p, Mode: "deny"})
	}
	for _, m := range c.MaskFiles {
		v.Files = append(v.Files, fileEntry{Path: m.Path, Mode: "mask", InjectHosts: m.InjectHosts, SandboxMaskOptions: m.SandboxMaskOptions, MaskDuplicates: m.MaskDuplicates})
	}
	return json.Marshal(v)
}

// WithSandbox runs the Bash tool's commands in the CLI's OS sandbox, configured by sb (see
// Sandbox: its zero value fails closed). The settings are merged into the CLI's --settings (with
// WithSettings's and the settings hooks, through a temporary file); a "sandbox" key in
// WithSettings is then an error. Default: no sandbox, commands run as the CLI's user (the CLI's
// sandbox settings of the setting sources still apply).
func WithSandbox(sb Sandbox) Option {
	return setOption("WithSandbox", func(o *config) { o.sandbox = &sb })
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
