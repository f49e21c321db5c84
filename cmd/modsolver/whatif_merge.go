package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/modsolver/modsolver/catalog"
	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/readiness"
	"github.com/modsolver/modsolver/server"
)

// Merging a sharded what-if batch (docs/decisions.md D407–D409): the
// shards' JSON lines carry each scenario's answer but not what reads the
// answers together (groups, blockers, the grid, the batch's warnings), so
// merge reads the batch again from the flags the shards ran with, puts
// each line's answer in its scenario's place, and prints what the
// unsharded run prints.

const whatifMergeUsage = `Usage:
  modsolver whatif merge [the batch's flags] [-o table|json|jsonl|html|sarif] FILE…

Prints what one unsharded run of a what-if batch prints (the grid of a
matrix, each group once, each blocker with its severity, the batch's
warnings, its exit status) from the JSON lines of its shards, each
written by whatif … --shard i/n -o jsonl. Give each shard's output as a
FILE, or one FILE with every shard's lines; - reads standard input. Each
line goes where its index says, so the files may come in any order.

Give merge the flags the shards ran with, less --shard and --shards:
--catalog or --source, --cluster and the cluster's (--edition, …),
--deckhouse and --kubernetes or --scenarios, --request, --devel,
--allow-experimental. A line holds its
scenario's answer, not the batch around it; merge reads the catalog, the
cluster state and the scenarios again, and solves nothing, to draw the
grid with the cluster's own cell, to class each blocker (R30) against
the whole batch, to tell built-in modules that move with DKP, and to
say the batch's warnings as whatif says them. Without --catalog it is
the embedded demo catalog and cluster, as for whatif. --accept is merge's
own: the shards do not class blockers, so it may differ from theirs.
--no-timing leaves the shards' stats out, as whatif does.

Every line must be the scenario of the batch at its index: a line that
is not a WhatIfResult (said by file and line), an index beyond the
batch, a name that is not the batch's at that index (lines of another
batch, or flags other than the shards'), a scenario given twice, or
scenarios in no line (said as index ranges) are bad input.

Example, an Indexed Job's four shards collected in shard-0.jsonl …
shard-3.jsonl:
  modsolver whatif merge --deckhouse 1.73.0,1.74.0 --kubernetes 1.31.0,1.32.0 \
      --no-timing -o html shard-*.jsonl > readiness.html

Every -o prints what whatif prints for the whole batch, byte for byte;
-o jsonl gives the lines again with their group and blockers. Exit codes are whatif's: for the matrix, 0 when the first
cell is ready and every risk of the batch is accepted, 1 otherwise; for
--scenarios, 0; 2 on bad input, a scenario that is bad input included.

Flags:
`

func runWhatIfMerge(ctx context.Context, args []string, out, errOut io.Writer) int {
	var f whatifFlags
	fs := flag.NewFlagSet("whatif merge", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), whatifMergeUsage); fs.PrintDefaults() }
	f.register(fs)
	files, code, done := parseMergeArgs(fs, args, out, errOut)
	if done {
		return code
	}
	if err := f.check(); err != nil {
		return fail(errOut, err)
	}
	if err := checkStdin(f.cluster, files); err != nil {
		return fail(errOut, err)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	b, err := loadWithin(ctx, f.timeout, "reading the inputs", errOut, f.load)
	if err != nil {
		return fail(errOut, err)
	}
	lines, err := b.readShards(files)
	if err != nil {
		return fail(errOut, err)
	}
	cells, ready, err := b.merge(&f, lines)
	if err != nil {
		return fail(errOut, err)
	}
	return b.finish(&f, cells, ready, out, errOut)
}

// parseMergeArgs parses the flags around the FILE arguments, which may
// come before, between or after them.
func parseMergeArgs(fs *flag.FlagSet, args []string, out, errOut io.Writer) (files []string, code int, done bool) {
	args = slices.Clone(args)
	for i := positional(fs, args); i >= 0; i = positional(fs, args) {
		files = append(files, args[i])
		args = slices.Delete(args, i, i+1)
	}
	if code, done := parseFlags(fs, args, out, errOut); done {
		return nil, code, true
	}
	if len(files) == 0 {
		fmt.Fprintf(errOut, "modsolver %s: give the shards' JSON lines (whatif --shard i/n -o jsonl) as FILE…, - for standard input\nRun 'modsolver %s --help' for usage.\n", fs.Name(), fs.Name())
		return nil, exitBadInput, true
	}
	return files, 0, false
}

// checkStdin refuses standard input read twice: as two FILEs, or as a
// FILE and the cluster state.
func checkStdin(cluster string, files []string) error {
	n := 0
	for _, file := range files {
		if file == "-" {
			n++
		}
	}
	switch {
	case n > 1:
		return fmt.Errorf("%w: - is given %d times; standard input is read once", errUsage, n)
	case n == 1 && cluster == "-":
		return fmt.Errorf("%w: --cluster - and FILE - both read standard input; give one of them as a file", errUsage)
	}
	return nil
}

// Sentinels for shard lines that do not make up the batch; each is bad
// input.
var (
	// errNotResult is a line that is not a what-if result.
	errNotResult = fmt.Errorf("%w: not a what-if result", model.ErrInvalidInput)
	// errOtherBatch is a line whose scenario is not the batch's at its
	// index.
	errOtherBatch = fmt.Errorf("%w: not a scenario of this batch", model.ErrInvalidInput)
	// errMissingScenarios is a batch with scenarios in no line.
	errMissingScenarios = fmt.Errorf("%w: scenarios missing", model.ErrInvalidInput)
)

// otherBatchHint ends what says a line is not the batch's.
const otherBatchHint = "merge takes the flags the shards ran with, less --shard"

// shardLine is one line of a shard's output and where it is.
type shardLine struct {
	result *modsolverv1.WhatIfResult
	file   string
	line   int
}

// place puts err at the line, as a *catalog.ParseError.
func (l *shardLine) place(err error) error {
	return &catalog.ParseError{File: l.file, Line: l.line, Err: err}
}

// readShards reads the files' lines into their scenarios' places: one
// for each scenario of b, none twice.
func (b *batch) readShards(files []string) ([]*shardLine, error) {
	lines := make([]*shardLine, len(b.scenarios))
	for _, file := range files {
		if err := b.readShard(file, lines); err != nil {
			return nil, err
		}
	}
	if missing := missingSpans(lines); len(missing) > 0 {
		return nil, fmt.Errorf("%w: %s of the batch's %d (indices from 0) are in no line given; merge needs every shard's output",
			errMissingScenarios, strings.Join(missing, ", "), len(lines))
	}
	return lines, nil
}

// readShard reads one file's lines into lines, by index.
func (b *batch) readShard(file string, lines []*shardLine) error {
	name, r := file, io.Reader(os.Stdin)
	if file == "-" {
		name = stdinName
	} else {
		f, err := os.Open(file)
		if err != nil {
			return fmt.Errorf("%w: %w", model.ErrInvalidInput, err)
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		text, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(text)) > 0 {
			l := &shardLine{file: name, line: n}
			if perr := b.putLine(l, text, lines); perr != nil {
				return perr
			}
		}
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return fmt.Errorf("%w: %s: %w", model.ErrInvalidInput, name, err)
		}
	}
}

// putLine reads one line as the scenario of the batch at its index.
func (b *batch) putLine(l *shardLine, text []byte, lines []*shardLine) error {
	l.result = &modsolverv1.WhatIfResult{}
	if err := protojson.Unmarshal(text, l.result); err != nil {
		return l.place(fmt.Errorf("%w: want one WhatIfResult a line, in JSON, as whatif --shard i/n -o jsonl prints: %v", errNotResult, err))
	}
	r := l.result
	i := int(r.GetIndex())
	switch {
	case r.GetResponse() == nil && r.GetError() == "":
		return l.place(fmt.Errorf("%w: scenario %d (%q) has neither a response nor an error", errNotResult, i, r.GetName()))
	case i >= len(lines):
		return l.place(fmt.Errorf("%w: scenario index %d, but the batch the flags give has %d scenarios; %s", errOtherBatch, i, len(lines), otherBatchHint))
	case r.GetName() != b.scenarios[i].Name:
		return l.place(fmt.Errorf("%w: scenario %d is %q here, but %q in the batch the flags give; %s", errOtherBatch, i, r.GetName(), b.scenarios[i].Name, otherBatchHint))
	case lines[i] != nil:
		return l.place(fmt.Errorf("%w: scenario %d (%q) is also at %s:%d: a shard given twice, or shards of two batches", model.ErrDuplicate, i, r.GetName(), lines[i].file, lines[i].line))
	}
	lines[i] = l
	return nil
}

// missingSpans says which indices have no line, as ranges: "3–5", "8".
func missingSpans(lines []*shardLine) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		if lines[i] != nil {
			continue
		}
		end := i
		for end+1 < len(lines) && lines[end+1] == nil {
			end++
		}
		if end == i {
			out = append(out, strconv.Itoa(i))
		} else {
			out = append(out, fmt.Sprintf("%d–%d", i, end))
		}
		i = end
	}
	return out
}

// merge reads the lines' answers as run reads the solver's: their groups,
// their blockers, and whether the first scenario is ready.
func (b *batch) merge(f *whatifFlags, lines []*shardLine) ([]readiness.Cell, bool, error) {
	reading := b.readiness(f.accept)
	var cells []readiness.Cell
	for i, l := range lines {
		a, err := b.lineAnswer(f, i, l.result)
		if err != nil {
			return nil, false, l.place(err)
		}
		cells = append(cells, reading.Add(i, a)...)
	}
	return cells, reading.Ready(), nil
}

// lineAnswer is scenario i's answer as the line r gives it, as whatif
// would have it for the output f asks for: without stats under
// --no-timing, and without held-back reasons for the table and the page,
// whose runs search none (their groups count them).
func (b *batch) lineAnswer(f *whatifFlags, i int, r *modsolverv1.WhatIfResult) (readiness.Answer, error) {
	s := b.scenarios[i]
	switch {
	case r.GetError() != "":
		return b.lineError(i, r.GetError())
	case s.Err != nil:
		return readiness.Answer{}, fmt.Errorf("%w: scenario %d (%q) has an answer here, but is bad input in the batch the flags give (%s); %s", errOtherBatch, i, s.Name, badInputText(s.Err), otherBatchHint)
	}
	res, err := server.ResultFromProto(r.GetResponse())
	if err != nil {
		return readiness.Answer{}, fmt.Errorf("%w: %w", errNotResult, err)
	}
	if f.noTiming {
		res.Stats = model.Stats{}
	}
	if !f.printsHeldBack() {
		for k := range res.Modules {
			res.Modules[k].HeldBack = ""
		}
	}
	return readiness.Answer{Result: res}, nil
}

// lineError is scenario i's bad input, which the line words as text: the
// error whatif finds, where it still words it so (it names the file and
// line of the scenario on stderr too), else the line's words.
func (b *batch) lineError(i int, text string) (readiness.Answer, error) {
	s := b.scenarios[i]
	if s.Err != nil { // bad as written: every run words it alike
		if badInputText(s.Err) != text {
			return readiness.Answer{}, fmt.Errorf("%w: scenario %d (%q) is bad input here as %q, but as %q in the batch the flags give; %s", errOtherBatch, i, s.Name, text, badInputText(s.Err), otherBatchHint)
		}
		return readiness.Answer{Err: s.Err}, nil
	}
	if err := s.Origin.Place(s.Request.Validate(b.cat, b.cluster)); err != nil && badInputText(err) == text {
		return readiness.Answer{Err: err}, nil
	}
	return readiness.Answer{Err: &shardError{text: text}}, nil
}

// shardError is a scenario's bad input in a shard's words, where merge
// does not find it again: a WhatIfResult's error is bad input (D368).
type shardError struct{ text string }

func (e *shardError) Error() string { return e.text }

func (e *shardError) Is(target error) bool { return target == model.ErrInvalidInput }
