package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// The FBC schemas that resolution reads; objects of other schemas are
// counted and ignored.
const (
	fbcSchemaPackage = "olm.package"
	fbcSchemaChannel = "olm.channel"
	fbcSchemaBundle  = "olm.bundle"
)

// fbcOnce lists the bundle property types that a bundle may have once.
var fbcOnce = map[string]bool{"olm.package": true, "olm.csv.metadata": true, "olm.maxOpenShiftVersion": true}

// fbcPackage is an olm.package object.
type fbcPackage struct {
	Name           string `json:"name"`
	DefaultChannel string `json:"defaultChannel"`
	line           int
}

// fbcChannel is an olm.channel object.
type fbcChannel struct {
	Name    string     `json:"name"`
	Package string     `json:"package"`
	Entries []olmEntry `json:"entries"`
	line    int
}

// fbcBundle is an olm.bundle object.
type fbcBundle struct {
	Name       string        `json:"name"`
	Package    string        `json:"package"`
	Properties []olmProperty `json:"properties"`
}

// fbcKey names a bundle or a channel within its package.
type fbcKey struct{ pkg, name string }

// fbcEdges are the union of a bundle's channel entries.
type fbcEdges struct {
	replaces, skips, skipRanges []string
}

// fbcReader reads a file-based catalog. It reads every object first, since
// an FBC may list channels and bundles in any order.
type fbcReader struct {
	l        *olmLoader
	data     []byte
	lines    fbcLines
	packages []fbcPackage
	channels []fbcChannel
	bundles  []fbcBundle
	edges    map[fbcKey]*fbcEdges
	// deprecations are the olm.deprecations objects (R25, D55).
	deprecations []fbcDeprecations
}

// parseOLMFBC reads an OLM file-based catalog: a stream of JSON objects
// (FormatOLMFBC), mapped as the comment at the top of olm.go says.
func parseOLMFBC(name string, data []byte) (*model.Catalog, *Report, error) {
	r := &fbcReader{
		l:     newOLMLoader(name, FormatOLMFBC),
		data:  data,
		lines: fbcLines{data: data},
		edges: map[fbcKey]*fbcEdges{},
	}
	if err := r.read(); err != nil {
		return nil, nil, err
	}
	r.readPackages()
	r.readChannels()
	for _, fb := range r.bundles {
		r.l.addBundle(r.bundle(fb))
	}
	r.applyDeprecations()
	return r.l.finish()
}

// read decodes the stream of objects; a JSON syntax error ends it.
func (r *fbcReader) read() error {
	dec := json.NewDecoder(bytes.NewReader(r.data))
	for n := 0; ; n++ {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		switch {
		case errors.Is(err, io.EOF) && n == 0:
			return &ParseError{File: r.l.source, Err: fmt.Errorf("%w: the file holds no JSON object", ErrSyntax)}
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return olmJSONError(r.l.source, r.data, err)
		}
		r.object(raw, r.lines.at(dec.InputOffset()-int64(len(raw))))
	}
}

// object sorts one decoded object by schema. An object of a known schema
// that does not decode is skipped.
func (r *fbcReader) object(raw json.RawMessage, line int) {
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		r.l.rep.skip(r.where(line), "not an FBC object: %s", olmJSONReason(err))
		return
	}
	var err error
	switch head.Schema {
	case fbcSchemaPackage:
		p := fbcPackage{line: line}
		if err = json.Unmarshal(raw, &p); err == nil {
			r.packages = append(r.packages, p)
		}
	case fbcSchemaChannel:
		c := fbcChannel{line: line}
		if err = json.Unmarshal(raw, &c); err == nil {
			r.channels = append(r.channels, c)
		}
	case fbcSchemaBundle:
		var b fbcBundle
		if err = json.Unmarshal(raw, &b); err == nil {
			r.bundles = append(r.bundles, b)
		}
	case fbcSchemaDeprecations:
		d := fbcDeprecations{line: line}
		if err = json.Unmarshal(raw, &d); err == nil {
			r.deprecations = append(r.deprecations, d)
		}
	default:
		r.l.rep.add(fmt.Sprintf("FBC objects of schema %q ignored", head.Schema), 1)
	}
	if err != nil {
		r.l.rep.skip(r.where(line), "%s: %s", head.Schema, olmJSONReason(err))
	}
}

// where names a line of the file in the report.
func (r *fbcReader) where(line int) string { return fmt.Sprintf("%s:%d", r.l.source, line) }

// readPackages records each package's default channel.
func (r *fbcReader) readPackages() {
	seen := map[string]bool{}
	for _, fp := range r.packages {
		switch {
		case fp.Name == "":
			r.l.rep.skip(r.where(fp.line), "olm.package has no name")
		case seen[fp.Name]:
			r.l.rep.skip(r.where(fp.line), "package %s is declared twice; the first is kept", fp.Name)
		default:
			seen[fp.Name] = true
			r.l.pkg(fp.Name).defaultChannel = fp.DefaultChannel
		}
	}
}

// readChannels records the channels of each package, and the union of
// the edges their entries give each bundle.
func (r *fbcReader) readChannels() {
	bundles := make(map[fbcKey]bool, len(r.bundles))
	for _, fb := range r.bundles {
		bundles[fbcKey{fb.Package, fb.Name}] = true
	}
	seen := map[fbcKey]bool{}
	for _, fc := range r.channels {
		k := fbcKey{fc.Package, fc.Name}
		switch {
		case fc.Package == "" || fc.Name == "":
			r.l.rep.skip(r.where(fc.line), "olm.channel has no name or no package")
		case seen[k]:
			r.l.rep.skip(r.where(fc.line), "channel %s of package %s is declared twice; the first is kept", fc.Name, fc.Package)
		default:
			seen[k] = true
			p := r.l.pkg(fc.Package)
			p.channels = append(p.channels, olmChannel{name: fc.Name, entries: fc.Entries})
			r.addEdges(fc, bundles)
		}
	}
}

// addEdges adds the edges of fc's entries to their bundles; an entry
// naming no bundle is counted.
func (r *fbcReader) addEdges(fc fbcChannel, bundles map[fbcKey]bool) {
	for _, e := range fc.Entries {
		k := fbcKey{fc.Package, e.Name}
		if !bundles[k] {
			r.l.rep.add("channel entries naming no bundle", 1)
			continue
		}
		u := r.edges[k]
		if u == nil {
			u = &fbcEdges{}
			r.edges[k] = u
		}
		u.replaces = olmAppend(u.replaces, e.Replaces)
		u.skips = olmAppend(u.skips, e.Skips...)
		u.skipRanges = olmAppend(u.skipRanges, strings.TrimSpace(e.SkipRange))
	}
}

// bundle reduces an olm.bundle object to an olmBundle.
func (r *fbcReader) bundle(fb fbcBundle) *olmBundle {
	b := &olmBundle{pkg: fb.Package, name: fb.Name}
	if e := r.edges[fbcKey{fb.Package, fb.Name}]; e != nil {
		b.replaces, b.skips, b.skipRanges = e.replaces, e.skips, e.skipRanges
	}
	seen := map[string]bool{}
	for _, p := range fb.Properties {
		if fbcOnce[p.Type] && seen[p.Type] {
			b.fail("property %s is listed twice", p.Type)
		}
		seen[p.Type] = true
		fbcProperty(b, p)
	}
	if !seen["olm.package"] {
		b.fail("bundle has no olm.package property")
	}
	return b
}

// fbcProperty reads one bundle property into b.
func fbcProperty(b *olmBundle, p olmProperty) {
	switch p.Type {
	case "olm.package":
		fbcPackageProperty(b, p)
	case "olm.gvk":
		var g olmGVK
		if fbcValue(b, p, &g) {
			b.provide(g)
		}
	case "olm.gvk.required":
		var g olmGVK
		if fbcValue(b, p, &g) {
			b.require(g)
		}
	case "olm.package.required":
		var d struct {
			PackageName  string `json:"packageName"`
			VersionRange string `json:"versionRange"`
		}
		if fbcValue(b, p, &d) {
			b.deps = append(b.deps, olmPackageDep{pkg: d.PackageName, versionRange: d.VersionRange})
		}
	case "olm.csv.metadata":
		var m struct {
			MinKubeVersion *string           `json:"minKubeVersion"`
			NativeAPIs     []json.RawMessage `json:"nativeAPIs"`
		}
		if fbcValue(b, p, &m) {
			b.minKube = m.MinKubeVersion
			b.count(olmNativeAPIs, len(m.NativeAPIs))
		}
	case "olm.maxOpenShiftVersion":
		var s string
		if fbcValue(b, p, &s) {
			b.maxOpenShift = &s
		}
	case "olm.constraint":
		b.constraint(p.Value)
	default:
		b.count(fmt.Sprintf("bundle properties of type %q ignored", p.Type), 1)
	}
}

// fbcPackageProperty reads the olm.package property: the bundle's version.
// The bundle's own package field names its package.
func fbcPackageProperty(b *olmBundle, p olmProperty) {
	var v struct {
		PackageName string `json:"packageName"`
		Version     string `json:"version"`
	}
	if !fbcValue(b, p, &v) {
		return
	}
	b.version = v.Version
	if v.PackageName != b.pkg {
		b.notes = append(b.notes, fmt.Sprintf("bundle %s: its olm.package property names package %q; its package %s is used", b.path(), v.PackageName, b.pkg))
	}
}

// fbcValue decodes p's value into v; if it cannot, b fails.
func fbcValue(b *olmBundle, p olmProperty, v any) bool {
	if err := json.Unmarshal(p.Value, v); err != nil {
		b.fail("property %s: %s", p.Type, olmJSONReason(err))
		return false
	}
	return true
}

// olmJSONReason words an encoding/json error without Go type names.
func olmJSONReason(err error) string {
	var te *json.UnmarshalTypeError
	switch {
	case !errors.As(err, &te):
		return err.Error()
	case te.Field == "":
		return fmt.Sprintf("got a JSON %s, want %s", te.Value, olmJSONKind(te.Type))
	}
	return fmt.Sprintf("%s: got a JSON %s, want %s", te.Field, te.Value, olmJSONKind(te.Type))
}

// olmJSONKind names the JSON kind that decodes into t.
func olmJSONKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Pointer:
		return olmJSONKind(t.Elem())
	}
	return t.Kind().String()
}

// fbcLines finds the lines of increasing offsets in data, counting
// from 1, without rescanning from the start.
type fbcLines struct {
	data []byte
	off  int64
	line int
}

// at is the line of off, which must not be below the last one asked.
func (c *fbcLines) at(off int64) int {
	off = min(max(off, c.off), int64(len(c.data)))
	c.line += bytes.Count(c.data[c.off:off], []byte("\n"))
	c.off = off
	return c.line + 1
}
