package v2_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"

	v2 "github.com/hookwire/agent-sdk-go/claude/v2"
)

// The sandbox settings of issue 38 item 4 as the CLI's schema (CLI 2.1.332, TS SDK 0.3.332's
// SandboxSettings) names them.
func TestSandboxFormsSettings(t *testing.T) {
	rg := filepath.Join(t.TempDir(), "rg")
	if err := os.WriteFile(rg, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := v2.MergedSettingsFor(v2.WithCwd(t.TempDir()), v2.WithSandbox(v2.Sandbox{
		AllowNestedUserNamespaces: true, EnableWeakerNetworkIsolation: true, AllowAppleEvents: true,
		Ripgrep: &v2.SandboxRipgrep{Command: rg, Args: []string{"--no-config"}},
		Network: v2.SandboxNetwork{AllowMachLookup: []string{"com.apple.x.*"}, TLSTerminate: &v2.SandboxTLSTerminate{}},
		Credentials: v2.SandboxCredentials{
			MaskEnv: []v2.SandboxMaskedEnv{
				{Name: "DB", SandboxMaskOptions: v2.SandboxMaskOptions{Extract: "pw=(\\w+)", OnExtractNoMatch: "deny"}},
				{Name: "JWT", SandboxMaskOptions: v2.SandboxMaskOptions{Decode: "jwt", MaskClaims: []string{"sub"}}},
				{Name: "KEY_ID"}, {Name: "KEY_SECRET"},
			},
			MaskFiles:            []v2.SandboxMaskedFile{{Path: "/n", SandboxMaskOptions: v2.SandboxMaskOptions{Extract: "password (\\S+)"}, MaskDuplicates: true}},
			AllowPlaintextInject: true,
			AWSPairs:             []v2.SandboxAWSPair{{AccessKeyIDVar: "KEY_ID", SecretAccessKeyVar: "KEY_SECRET"}},
			SigV4:                &v2.SandboxSigV4{Presigned: "passthrough"},
		},
	}))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Sandbox map[string]any `json:"sandbox"`
	}
	if err := json.Unmarshal(b, &got, json.RejectUnknownMembers(false)); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(`{"enabled":true,"failIfUnavailable":true,"autoAllowBashIfSandboxed":false,"allowUnsandboxedCommands":false,
		"allowNestedUserNamespaces":true,"enableWeakerNetworkIsolation":true,"allowAppleEvents":true,
		"ripgrep":{"command":"`+rg+`","args":["--no-config"]},
		"network":{"allowMachLookup":["com.apple.x.*"],"tlsTerminate":{}},
		"credentials":{"envVars":[{"name":"DB","mode":"mask","extract":"pw=(\\w+)","onExtractNoMatch":"deny"},{"name":"JWT","mode":"mask","decode":"jwt","maskClaims":["sub"]},
			{"name":"KEY_ID","mode":"mask"},{"name":"KEY_SECRET","mode":"mask"}],
		"files":[{"path":"/n","mode":"mask","extract":"password (\\S+)","maskDuplicates":true}],
		"allowPlaintextInject":true,"awsPairs":[{"accessKeyIdVar":"KEY_ID","secretAccessKeyVar":"KEY_SECRET"}],"sigv4":{"presigned":"passthrough"}}}`), &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got.Sandbox); d != "" {
		t.Errorf("sandbox settings (-want +got):\n%s", d)
	}
}

// The constrained values of the sandbox forms are CreateSession errors, before the CLI starts; a
// ripgrep the repository could have put or changed is refused.
func TestSandboxFormsValidation(t *testing.T) {
	project := t.TempDir()
	inProject := filepath.Join(project, "rg")
	shared := filepath.Join(t.TempDir(), "rg")
	for p, mode := range map[string]os.FileMode{inProject: 0o755, shared: 0o777} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // the umask
	}
	mask := func(m v2.SandboxMaskOptions) v2.Sandbox {
		return v2.Sandbox{Credentials: v2.SandboxCredentials{MaskEnv: []v2.SandboxMaskedEnv{{Name: "X", SandboxMaskOptions: m}}}}
	}
	for _, tc := range []struct {
		name string
		sb   v2.Sandbox
		want string
	}{
		{"extract and decode", mask(v2.SandboxMaskOptions{Extract: "(x)", Decode: "jwt"}), "Extract and Decode exclude each other"},
		{"no match mode", mask(v2.SandboxMaskOptions{Extract: "(x)", OnExtractNoMatch: "ignore"}), `OnExtractNoMatch "ignore"`},
		{"no match alone", mask(v2.SandboxMaskOptions{OnExtractNoMatch: "deny"}), "does nothing"},
		{"decode", mask(v2.SandboxMaskOptions{Decode: "saml"}), `Decode "saml"`},
		{"claims", mask(v2.SandboxMaskOptions{MaskClaims: []string{"sub"}}), "MaskClaims needs Decode"},
		{"aws unmasked", v2.Sandbox{Credentials: v2.SandboxCredentials{AWSPairs: []v2.SandboxAWSPair{{AccessKeyIDVar: "A", SecretAccessKeyVar: "B"}}}}, "A is not a whole-value MaskEnv entry"},
		{"aws half", v2.Sandbox{Credentials: v2.SandboxCredentials{AWSPairs: []v2.SandboxAWSPair{{SecretAccessKeyVar: "B"}}}}, "AccessKeyIDVar and SecretAccessKeyVar are required"},
		{"sigv4", v2.Sandbox{Credentials: v2.SandboxCredentials{SigV4: &v2.SandboxSigV4{Streaming: "allow"}}}, "Credentials.SigV4.Streaming"},
		{"tls half", v2.Sandbox{Network: v2.SandboxNetwork{TLSTerminate: &v2.SandboxTLSTerminate{CACertPath: "/ca.pem"}}}, "both CACertPath and CAKeyPath"},
		{"ripgrep relative", v2.Sandbox{Ripgrep: &v2.SandboxRipgrep{Command: "rg"}}, "not an absolute path"},
		{"ripgrep in project", v2.Sandbox{Ripgrep: &v2.SandboxRipgrep{Command: inProject}}, "which the session's agent and the repository may write"},
		{"ripgrep writable", v2.Sandbox{Ripgrep: &v2.SandboxRipgrep{Command: shared}}, "writable by group or others"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v2.CreateSession(context.Background(), v2.WithSandbox(tc.sb), v2.WithCwd(project), v2.WithCLIPath("/nonexistent/claude"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CreateSession: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
