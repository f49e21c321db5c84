package main

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/modsolver/modsolver/server"
)

// defaultMaxRequestMemory bounds the solver's memory for one request. The
// largest encodings measured, an unsatisfiable request and a platform
// upgrade on the generated L catalog (500,000 releases), came to about
// 200 and 240 MiB.
const defaultMaxRequestMemory = 512 << 20

// limitFlags are serve's resource bounds (server/limits.go).
type limitFlags struct {
	maxInflight      int
	maxQueued        int
	queueTimeout     time.Duration
	maxInlineBytes   int
	maxInlineModules int
	maxMemory        byteSize
}

func (l *limitFlags) register(fs *flag.FlagSet) {
	l.maxMemory = defaultMaxRequestMemory
	intVar(fs, &l.maxInflight, "max-inflight", runtime.GOMAXPROCS(0), 0, "solve at most `N` calls at once (Resolve, Explain, WhatIf); 0: no bound (the default is GOMAXPROCS)")
	intVar(fs, &l.maxQueued, "max-queued", -1, -1, "let at most `N` calls wait for a solve slot, beyond --max-inflight; more are refused with RESOURCE_EXHAUSTED; -1: as many as --max-inflight")
	fs.DurationVar(&l.queueTimeout, "queue-timeout", server.DefaultQueueTimeout, "refuse a queued call with RESOURCE_EXHAUSTED after this `duration`; also the retry delay the refusal suggests")
	intVar(fs, &l.maxInlineBytes, "max-inline-catalog-bytes", server.DefaultMaxInlineCatalogBytes, 1, "largest inline catalog in `bytes`")
	intVar(fs, &l.maxInlineModules, "max-inline-catalog-modules", server.DefaultMaxInlineCatalogModules, 1, "most modules in an inline catalog (`N`)")
	fs.Var(&l.maxMemory, "max-request-memory", "bound the solver's estimated memory for one request (for WhatIf, per worker) to this `size`, such as 512Mi or 2Gi; 0: no bound")
}

func (l *limitFlags) check() error {
	switch {
	case l.queueTimeout <= 0:
		return fmt.Errorf("%w: --queue-timeout %s: want a positive duration", errUsage, l.queueTimeout)
	}
	return nil
}

func (l *limitFlags) options() []server.Option {
	return []server.Option{
		server.WithMaxInflight(l.maxInflight, l.maxQueued, l.queueTimeout),
		server.WithMaxInlineCatalog(l.maxInlineBytes, l.maxInlineModules),
		server.WithMaxRequestMemory(int64(l.maxMemory)),
	}
}

// byteSize is a flag of bytes, written as a number with an optional
// binary suffix: 1048576, 1024Ki, 1Mi, 1MiB.
type byteSize int64

var byteUnits = []struct {
	suffix string
	shift  uint
}{{"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}}

func (b *byteSize) Set(s string) error {
	text, shift := strings.TrimSuffix(strings.TrimSpace(s), "B"), uint(0)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(text, u.suffix); ok {
			text, shift = n, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return fmt.Errorf("%q: want a size in bytes such as 536870912, 512Mi or 2Gi", s)
	}
	*b = byteSize(n << shift)
	return nil
}

func (b *byteSize) String() string {
	n := int64(*b)
	for i := len(byteUnits) - 1; i >= 0; i-- {
		if u := byteUnits[i]; n != 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
