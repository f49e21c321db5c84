package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// Formats lists the catalog formats Load reads, by the names the command
// line uses.
var Formats = []Format{FormatFile, FormatDKP, FormatOLMBundles, FormatOLMFBC, FormatHelmIndex, FormatKUDO, FormatCompiled}

// ParseFormatName reads a format name; "" and "auto" mean "detect it".
func ParseFormatName(name string) (Format, error) {
	if name == "" || name == "auto" {
		return "", nil
	}
	if f := Format(name); slices.Contains(Formats, f) {
		return f, nil
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("%w: unknown catalog format %q (want auto, %s)", model.ErrInvalidValue, name, strings.Join(names, ", "))
}

// Load reads a catalog from path, detecting its format: a single YAML or
// JSON file in modsolver's format, a directory in DKP's module-source
// layout or of KUDO packages, an OLM bundle dump or file-based catalog, a
// KUDO index, a Helm repository index, or a catalog compiled by
// `modsolver catalog compile` (ReadCompiled). The report says what was
// read and what was skipped.
func Load(path string, opts ...Option) (*model.Catalog, *Report, error) {
	return LoadFormat(path, "", opts...)
}

// LoadFormat reads a catalog from path in format, or detects the format
// when it is "".
func LoadFormat(path string, format Format, opts ...Option) (*model.Catalog, *Report, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	if info.IsDir() {
		if format == "" && !isDKPDir(path) && isKUDODir(path) {
			format = FormatKUDO
		}
		switch format {
		case "", FormatDKP:
			return LoadDir(path)
		case FormatKUDO:
			return loadKUDODir(path)
		}
		return nil, nil, fmt.Errorf("%w: catalog %s: a directory is read as %s or %s, not %s", model.ErrInvalidInput, path, FormatDKP, FormatKUDO, format)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	return ParseFormat(path, data, format, opts...)
}

// Parse reads a catalog in the single-file format from data; name is used
// in error messages.
func Parse(name string, data []byte) (*model.Catalog, *Report, error) {
	node, err := parseNode(name, data)
	if err != nil {
		return nil, nil, err
	}
	return parseFile(name, node)
}

// ParseFormat reads a catalog file's data in format, or detects the format
// when it is "".
func ParseFormat(name string, data []byte, format Format, opts ...Option) (*model.Catalog, *Report, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, &ParseError{File: name, Err: ErrEmptyFile}
	}
	if IsCompiled(data) && format != "" && format != FormatCompiled {
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("%w: a compiled catalog cannot be read as %s; name no format, or %s", model.ErrInvalidInput, format, FormatCompiled)}
	}
	if format == "" {
		var err error
		if format, err = Detect(name, data); err != nil {
			return nil, nil, err
		}
		return parseAs(name, data, format, opts)
	}
	cat, rep, err := parseAs(name, data, format, opts)
	if err == nil && cat.Len() == 0 {
		return nil, nil, emptyForced(name, data, format)
	}
	return cat, rep, err
}

// parseAs reads a catalog file's data in format.
func parseAs(name string, data []byte, format Format, opts []Option) (*model.Catalog, *Report, error) {
	switch format {
	case FormatFile:
		return Parse(name, data)
	case FormatOLMBundles:
		return parseOLMBundles(name, data)
	case FormatOLMFBC:
		return parseOLMFBC(name, data)
	case FormatHelmIndex:
		return parseHelmIndex(name, data, opts...)
	case FormatKUDO:
		return parseKUDOIndex(name, data)
	case FormatCompiled:
		return ReadCompiled(name, data)
	}
	return nil, nil, fmt.Errorf("%w: catalog %s: format %q is not a file format", model.ErrInvalidInput, name, format)
}

const errAmbiguous = "cannot tell the catalog format; name it with --catalog-format"

// Detect tells a catalog file's format from its content: a JSON stream
// whose first object has a "schema" is an OLM file-based catalog; a JSON
// object with "packages" and "bundles" is an OLM bundle dump; YAML with a
// top-level "entries" is a Helm index, or a KUDO index when its entries
// have operatorVersion and no version; "modules" is modsolver's own format;
// a file that starts with the compiled catalog's magic is compiled.
// An empty file, or one of white space alone, is ErrEmptyFile, and a list
// is ErrWrongKind: every format is a mapping. Anything else, or a file
// that looks like two formats, is an error that asks for the format by
// name.
func Detect(name string, data []byte) (Format, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return "", &ParseError{File: name, Err: ErrEmptyFile}
	}
	if IsCompiled(data) {
		return FormatCompiled, nil
	}
	if bytes.HasPrefix(trimmed, []byte("{")) {
		return detectJSON(name, trimmed)
	}
	if startsList(data) {
		return "", &ParseError{File: name, Err: fmt.Errorf("%w: a catalog is a mapping (or, in OLM's file-based form, a stream of JSON objects), not a list", ErrWrongKind)}
	}
	helm, own := hasLineStart(data, "entries:"), hasLineStart(data, "modules:")
	switch {
	case helm && !own && looksKUDOIndex(data):
		return FormatKUDO, nil
	case helm && !own:
		return FormatHelmIndex, nil
	case own && !helm:
		return FormatFile, nil
	}
	return "", &ParseError{File: name, Err: fmt.Errorf("%w: %s", model.ErrInvalidInput, errAmbiguous)}
}

// startsList reports whether data is a YAML or JSON list: its first line
// that holds more than white space, a comment or a document marker starts
// one.
func startsList(data []byte) bool {
	for line := range bytes.Lines(data) {
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0 || line[0] == '#' || bytes.Equal(line, []byte("---")):
			continue
		case line[0] == '[':
			return true
		}
		return bytes.Equal(line, []byte("-")) || bytes.HasPrefix(line, []byte("- "))
	}
	return false
}

func detectJSON(name string, data []byte) (Format, error) {
	keys, ok := jsonTopKeys(data)
	if !ok {
		var first map[string]json.RawMessage
		if err := json.NewDecoder(bytes.NewReader(data)).Decode(&first); err != nil {
			return "", &ParseError{File: name, Err: fmt.Errorf("%w: syntax error: %v", model.ErrInvalidInput, err)}
		}
		keys = slices.Collect(maps.Keys(first))
	}
	schema := slices.Contains(keys, "schema")
	packages := slices.Contains(keys, "packages")
	bundles := slices.Contains(keys, "bundles")
	modules := slices.Contains(keys, "modules")
	switch {
	case schema && !modules:
		return FormatOLMFBC, nil
	case packages && bundles && !modules:
		return FormatOLMBundles, nil
	case modules && !schema && !packages:
		return FormatFile, nil
	}
	return "", &ParseError{File: name, Err: fmt.Errorf("%w: %s", model.ErrInvalidInput, errAmbiguous)}
}
