package main

import (
	"flag"
	"fmt"
	"strconv"
)

// intFlag is an int flag with a least value. Every int flag of the
// command line is one, so that a value below its least is refused in one
// place and in one wording (checkInts, which parseFlags calls), before a
// command can run with it.
type intFlag struct {
	p     *int
	least int
}

// intVar defines an int flag name with default value and least value
// least, as fs.IntVar does.
func intVar(fs *flag.FlagSet, p *int, name string, value, least int, usage string) {
	*p = value
	fs.Var(intFlag{p: p, least: least}, name, usage)
}

func (f intFlag) String() string {
	if f.p == nil { // the zero value the flag package makes to print defaults
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f intFlag) Set(text string) error {
	n, err := strconv.ParseInt(text, 0, strconv.IntSize)
	if err != nil {
		return fmt.Errorf("want a whole number")
	}
	*f.p = int(n)
	return nil
}

// check refuses a value below the least, as bad command-line input.
func (f intFlag) check(name string) error {
	if *f.p < f.least {
		return fmt.Errorf("%w: --%s %d: want n >= %d", errUsage, name, *f.p, f.least)
	}
	return nil
}

// checkInts checks every int flag of fs against its least value; the
// first one below it is the error.
func checkInts(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(fl *flag.Flag) {
		if f, ok := fl.Value.(intFlag); ok && err == nil {
			err = f.check(fl.Name)
		}
	})
	return err
}
