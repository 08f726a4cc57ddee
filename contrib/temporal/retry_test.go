package temporalagent_test

import (
	"time"

	"go.temporal.io/sdk/temporal"
)

// temporalRetry retries a failed turn at once, three times at most.
var temporalRetry = temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 1, MaximumAttempts: 3}
