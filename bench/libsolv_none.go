//go:build !libsolv || !cgo

package bench

import "time"

const libsolvBuilt = false

// runPool is the libsolv peer of a binary built without it.
func runPool(*poolInput, time.Duration) (*poolOutput, error) { return nil, ErrNoLibsolv }

// heldPool is the held libsolv pool of a binary built without it.
type heldPool struct{}

func buildHeldPool(*poolInput, string, []string) (*heldPool, error) { return nil, ErrNoLibsolv }

func (*heldPool) run(*poolInput, []int32, time.Duration) (*poolOutput, error) {
	return nil, ErrNoLibsolv
}

func (*heldPool) free() {}
