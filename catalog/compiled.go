package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// A compiled catalog file (D310–D313) is a loaded catalog written as
// modsolver holds it, so that reading it skips parsing and importing:
//
//	magic            compiledMagic
//	format version   uint32, big-endian: compiledFormat
//	checksum         SHA-256 of everything after it
//	build            uvarint length, then the text of Build()
//	payload length   uvarint
//	payload          encoding/gob of compiledCatalog
//
// Only the modsolver build that wrote a file reads it back: any other
// build, or a file whose bytes changed, is refused with a message that
// says to compile it again.
const (
	compiledMagic = "\x00modsolver compiled catalog\n"
	// compiledFormat numbers the layout and payload; a change to either
	// takes the next number.
	compiledFormat uint32 = 3
	// FormatCompiled is a catalog written by `modsolver catalog compile`.
	FormatCompiled Format = "compiled"
)

// compiledHeaderSize is the fixed part of the header: magic, format
// version and checksum.
const compiledHeaderSize = len(compiledMagic) + 4 + sha256.Size

var (
	// ErrCompiledBuild is a compiled catalog written by another build of
	// modsolver, which this one does not read.
	ErrCompiledBuild = fmt.Errorf("%w: compiled catalog of another modsolver", model.ErrInvalidInput)
	// ErrCompiledDamaged is a compiled catalog whose bytes are not those
	// written: changed, truncated, or not a compiled catalog after all.
	ErrCompiledDamaged = fmt.Errorf("%w: damaged compiled catalog", model.ErrInvalidInput)
)

// build is this modsolver as Build names it; tests set it to stand for
// another build.
var build = readBuild()

// Build names this modsolver build as a compiled catalog records it:
// the main module's version, and the VCS revision it was built from,
// marked when the tree had changes.
func Build() string { return build }

func readBuild() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	parts := []string{info.Main.Version}
	if parts[0] == "" {
		parts[0] = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		parts = append(parts, "revision "+rev)
	}
	if settings["vcs.modified"] == "true" {
		parts = append(parts, "modified")
	}
	return strings.Join(parts, ", ")
}

// IsCompiled reports whether data starts as a compiled catalog does.
func IsCompiled(data []byte) bool { return bytes.HasPrefix(data, []byte(compiledMagic)) }

// WriteCompiled writes cat, with the report of the load that read it
// (nil for none), as a compiled catalog.
func WriteCompiled(w io.Writer, cat *model.Catalog, rep *Report) error {
	p, err := compiledOf(cat, rep)
	var payload bytes.Buffer
	if err == nil {
		err = gob.NewEncoder(&payload).Encode(p)
	}
	if err != nil {
		return fmt.Errorf("compiled catalog: %w", err)
	}
	var body []byte
	body = binary.AppendUvarint(body, uint64(len(build)))
	body = append(body, build...)
	body = binary.AppendUvarint(body, uint64(payload.Len()))
	sum := sha256.New()
	sum.Write(body)
	sum.Write(payload.Bytes())
	head := make([]byte, 0, compiledHeaderSize)
	head = append(head, compiledMagic...)
	head = binary.BigEndian.AppendUint32(head, compiledFormat)
	head = sum.Sum(head)
	for _, part := range [][]byte{head, body, payload.Bytes()} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// ReadCompiled reads a compiled catalog from data; name is the file, for
// messages. It refuses, with an error that wraps ErrCompiledBuild or
// ErrCompiledDamaged inside a *ParseError, a file of another build or
// format, and one whose bytes changed.
func ReadCompiled(name string, data []byte) (*model.Catalog, *Report, error) {
	payload, err := compiledPayload(data)
	if err != nil {
		return nil, nil, &ParseError{File: name, Err: err}
	}
	var p compiledCatalog
	if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&p); err != nil {
		return nil, nil, &ParseError{File: name, Err: damaged("its payload does not decode: %v", err)}
	}
	cat, err := p.toModel()
	if err != nil {
		return nil, nil, &ParseError{File: name, Err: damaged("its catalog does not build: %v", err)}
	}
	return cat, reportOf(name, p.Report, cat), nil
}

// compiledPayload checks a compiled catalog's header and returns its
// payload.
func compiledPayload(data []byte) ([]byte, error) {
	if !IsCompiled(data) {
		return nil, damaged("not a compiled catalog")
	}
	if len(data) < compiledHeaderSize {
		return nil, damaged("truncated: %d bytes, shorter than its header", len(data))
	}
	if f := binary.BigEndian.Uint32(data[len(compiledMagic):]); f != compiledFormat {
		return nil, fmt.Errorf("%w: written in compiled format %d; this is modsolver %s, which reads format %d: %s",
			ErrCompiledBuild, f, build, compiledFormat, compileAgain)
	}
	sum, body := data[len(compiledMagic)+4:compiledHeaderSize], data[compiledHeaderSize:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, damaged("checksum mismatch: its contents changed or it was cut short since it was written: %s", compileAgain)
	}
	wrote, rest, ok := uvarintBytes(body)
	if !ok {
		return nil, damaged("its header does not name a build")
	}
	if string(wrote) != build {
		return nil, fmt.Errorf("%w: compiled by modsolver %s; this is modsolver %s: %s", ErrCompiledBuild, wrote, build, compileAgain)
	}
	n, size := binary.Uvarint(rest)
	if size <= 0 || n != uint64(len(rest)-size) {
		return nil, damaged("truncated: its payload is not the length its header says")
	}
	return rest[size:], nil
}

// compileAgain is what to do about a compiled catalog that cannot be read.
const compileAgain = "compile it again with `modsolver catalog compile`"

// uvarintBytes reads a uvarint length and that many bytes from b.
func uvarintBytes(b []byte) (field, rest []byte, ok bool) {
	n, size := binary.Uvarint(b)
	if size <= 0 || n > uint64(len(b)-size) {
		return nil, nil, false
	}
	return b[size : size+int(n)], b[size+int(n):], true
}

func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCompiledDamaged, fmt.Sprintf(format, args...))
}
