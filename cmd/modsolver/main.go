// Command modsolver resolves dependencies of Deckhouse Kubernetes Platform
// modules: one request at a time from the command line, or as a gRPC
// service. It parses flags and wires packages together; the work happens
// in the packages it calls.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"syscall"

	"github.com/modsolver/modsolver/model"
)

// Exit codes, as the design fixes them; exitNoAnswer is modsolver's own,
// for a run that ended before it had an answer.
const (
	exitResolved      = 0
	exitUnsatisfiable = 1
	exitBadInput      = 2
	exitNoAnswer      = 3
)

const usage = `modsolver resolves dependencies of Deckhouse Kubernetes Platform modules.

Usage:
  modsolver <command> [flags]

Commands:
  resolve   resolve one request against a catalog and a cluster state
  serve     serve the gRPC service modsolver.v1.Resolver
  call      call a running service: call resolve|explain|whatif|catalogs|module,
            printing the answer as resolve prints it (no grpcurl needed)
  whatif    answer many what-if questions: the upgrade readiness matrix
  bench     measure modsolver on generated or real catalogs, side by side with deppy
  loadtest  measure the gRPC service's Resolve throughput and latency on this machine
  catalog   describe a catalog (stats), check that each module installs (check),
            or compile it to a file that loads without parsing (compile)
  version   print the version
  help      print this help, or the help of a command: modsolver help resolve

Exit codes: 0 resolved, 1 unsatisfiable, 2 bad input, 3 no answer (timeout
or interrupted).

Run 'modsolver <command> --help' for a command's flags.
`

// version is set at build time with -ldflags "-X main.version=…"; where
// it is not, versionText reads the build's module information.
var version = ""

// versionText is what `modsolver version` prints after the name: the
// version set at build time, else the module's version (v1.2.3 from `go
// install …@v1.2.3`) or, for a build from a checkout, the VCS revision
// and time, "+dirty" when the tree had changes (D400).
func versionText(info *debug.BuildInfo, ok bool) string {
	if version != "" {
		return version
	}
	if !ok {
		return "unknown (built without module information)"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return "devel (no VCS information: built outside a checkout or with -buildvcs=false)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	text := "devel " + rev
	if t := settings["vcs.time"]; t != "" {
		text += " " + t
	}
	if settings["vcs.modified"] == "true" {
		text += "+dirty"
	}
	return text + ", " + info.GoVersion
}

type command struct {
	name string
	run  func(ctx context.Context, args []string, out, errOut io.Writer) int
}

var commands = []command{
	{"resolve", runResolve},
	{"serve", runServe},
	{"call", runCall},
	{"whatif", runWhatIf},
	{"bench", runBench},
	{"loadtest", runLoadtest},
	{"catalog", runCatalog},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches one command line and returns the exit code.
func run(ctx context.Context, args []string, out, errOut io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(errOut, usage)
		return exitBadInput
	}
	switch args[0] {
	case "help", "-h", "--help", "-help":
		return help(args[1:], out, errOut)
	case "version", "--version":
		fmt.Fprintf(out, "modsolver %s\n", versionText(debug.ReadBuildInfo()))
		return exitResolved
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], out, errOut)
		}
	}
	fmt.Fprintf(errOut, "modsolver: unknown command %q%s\n\n%s", args[0], commandHint(args[0]), usage)
	return exitBadInput
}

// commandHint is "; did you mean "resolve"?" for the commands nearest to
// a misspelt one, or "".
func commandHint(name string) string {
	names := []string{"help", "version"}
	for _, c := range commands {
		names = append(names, c.name)
	}
	near := model.Nearest(name, names)
	if len(near) == 0 {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", near[0])
}

func help(args []string, out, errOut io.Writer) int {
	if len(args) == 0 || slices.Contains([]string{"help", "-h", "--help", "-help"}, args[0]) {
		fmt.Fprint(out, usage)
		return exitResolved
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(context.Background(), []string{"--help"}, out, errOut)
		}
	}
	fmt.Fprintf(errOut, "modsolver: unknown command %q%s\n", args[0], commandHint(args[0]))
	return exitBadInput
}

// fail prints err in the "modsolver: what: why" form and returns the exit
// code its kind calls for.
func fail(errOut io.Writer, err error) int {
	fmt.Fprintf(errOut, "modsolver: %v\n", err)
	if errors.Is(err, model.ErrInvalidInput) || errors.Is(err, errUsage) {
		return exitBadInput
	}
	return exitNoAnswer
}

// errUsage marks a command line that cannot be run as given.
var errUsage = errors.New("bad command line")
