//go:build unix

package bench

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system, on
// every thread (the garbage collector's included): on a shared machine it
// varies less than the time on the clock.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
