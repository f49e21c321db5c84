//go:build !unix

package loadgen

import "time"

// ProcessCPU reports that this platform's process CPU time is not read:
// Report.CPU stays zero.
func ProcessCPU() (time.Duration, bool) { return 0, false }
