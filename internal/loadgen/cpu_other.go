//go:build !unix

package loadgen

import "time"

// processCPU reports that this platform's process CPU time is not read:
// Report.CPU stays zero.
func processCPU() (time.Duration, bool) { return 0, false }
