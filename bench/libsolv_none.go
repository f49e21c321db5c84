//go:build !libsolv || !cgo

package bench

import "time"

const libsolvBuilt = false

// runPool is the libsolv peer of a binary built without it.
func runPool(*poolInput, time.Duration) (*poolOutput, error) { return nil, ErrNoLibsolv }
