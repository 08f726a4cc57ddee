package temporalagent

import (
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
)

// The heartbeat interval follows the activity's heartbeat timeout (a third of it) unless
// WithHeartbeatEvery sets one, which must be shorter than the timeout; the ledger's lease follows
// the interval and the timeout.
func TestHeartbeatFollowsTheTimeout(t *testing.T) {
	tests := []struct {
		name           string
		every, timeout time.Duration
		want, lease    time.Duration
		wantErr        bool
	}{
		{name: "DefaultActivityOptions' timeout", timeout: time.Minute, want: 20 * time.Second, lease: 32 * time.Second},
		{name: "a caller's timeout", timeout: 9 * time.Second, want: 3 * time.Second, lease: 6500 * time.Millisecond},
		{name: "no timeout", want: 10 * time.Second, lease: 17 * time.Second},
		{name: "WithHeartbeatEvery", every: 5 * time.Second, timeout: time.Minute, want: 5 * time.Second, lease: 32 * time.Second},
		{name: "WithHeartbeatEvery not shorter than the timeout", every: time.Minute, timeout: time.Minute, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Activities{heartbeatEvery: tt.every, ledger: FileLedger{Dir: t.TempDir()}}
			got, err := a.heartbeatInterval(tt.timeout)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("heartbeatInterval(%s) with WithHeartbeatEvery(%s) = %s, %v; want %s, error %v", tt.timeout, tt.every, got, err, tt.want, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			l := a.newAttemptLedger(activity.Info{HeartbeatTimeout: tt.timeout}, got, nil)
			if l.lease != tt.lease {
				t.Errorf("lease = %s, want %s", l.lease, tt.lease)
			}
		})
	}
}
