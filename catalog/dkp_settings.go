package catalog

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// A DKP folder's settings (R34) live in its openapi/ folder: the schema
// in config-values.yaml, and the conversions in conversions/v<N>.yaml,
// one file for each settings version N they convert to. The other files
// there (values.yaml, documentation, case tests) do not concern the
// ModuleConfig's settings.
const (
	dkpOpenAPI       = "openapi"
	dkpConfigValues  = "config-values.yaml"
	dkpConversionDir = "conversions"
)

// dkpConversion is one conversions/v<N>.yaml. Other keys (description)
// are ignored.
type dkpConversion struct {
	Version     *int     `yaml:"version"`
	Conversions []string `yaml:"conversions"`
}

// settings reads and compiles the settings schema of the release or
// built-in module in dir; nil when dir has no openapi/config-values.yaml.
// Folders that ship the same files share one compiled schema: most of a
// module's tags do not change their settings. Only a file that cannot be
// read at all is an error.
//
// A schema or conversion that cannot be parsed or compiled leaves the
// release without settings, with a warning that names the file, and the
// release is loaded all the same: the fault is the module's, and DKP
// refuses that module's ModuleConfig, not the module source, so the
// tree stays as loadable as DKP's tolerance keeps it. Resolution then
// asks nothing of that release's settings.
func (l *dkpLoader) settings(dir string, loc place) (*model.SettingsSchema, error) {
	files, err := readOpenAPIFiles(dir)
	if files == nil || err != nil {
		return nil, err
	}
	key := files.key()
	read, seen := l.schemas[key]
	if !seen {
		if read, err = files.compile(loc); err != nil {
			l.rep.warn("%v; loaded without settings", err)
			return nil, nil
		}
		if l.schemas == nil {
			l.schemas = map[[sha256.Size]byte]openAPIRead{}
		}
		l.schemas[key] = read
	}
	for _, n := range read.notes {
		l.rep.warn("%s:%d: %s", filepath.Join(dir, n.file), n.line, n.text)
	}
	return read.schema, nil
}

// openAPIFiles are the bytes of a folder's settings files, read before
// any is parsed, so that folders with the same files can share a reading.
type openAPIFiles struct {
	dir    string
	schema []byte
	// conversions are the v<N>.yaml files, in name order.
	conversions []conversionFile
}

type conversionFile struct {
	name    string
	version int
	data    []byte
}

// openAPIRead is a folder's settings, compiled, and what reading them
// noted, by file within the folder.
type openAPIRead struct {
	schema *model.SettingsSchema
	notes  []fileNote
}

// fileNote is a warning about a line of a file of a folder.
type fileNote struct {
	file string
	line int
	text string
}

// readOpenAPIFiles reads dir's settings files; nil when there is no
// config-values.yaml. Files of conversions/ not named v<N>.yaml, for a
// settings version N of 2 or more, are not conversions.
func readOpenAPIFiles(dir string) (*openAPIFiles, error) {
	schema, err := readOptional(filepath.Join(dir, dkpOpenAPI, dkpConfigValues))
	if schema == nil || err != nil {
		return nil, err
	}
	f := &openAPIFiles{dir: dir, schema: schema}
	convDir := filepath.Join(dir, dkpOpenAPI, dkpConversionDir)
	entries, err := os.ReadDir(convDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	for _, e := range entries {
		n, ok := conversionVersion(e.Name())
		if e.IsDir() || !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(convDir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
		}
		f.conversions = append(f.conversions, conversionFile{name: e.Name(), version: n, data: data})
	}
	return f, nil
}

// readOptional reads the file at path; nil, nil when there is none.
func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: catalog: %w", model.ErrInvalidInput, err)
	}
	return data, nil
}

// conversionVersion reads N from a file name v<N>.yaml, a settings
// version of 2 or more.
func conversionVersion(name string) (int, bool) {
	text, ok := strings.CutPrefix(name, "v")
	if !ok {
		return 0, false
	}
	if text, ok = strings.CutSuffix(text, ".yaml"); !ok {
		return 0, false
	}
	n, err := strconv.Atoi(text)
	return n, err == nil && n >= 2 && text == strconv.Itoa(n)
}

// key identifies the files by their content: each file's name and bytes,
// each part preceded by its length.
func (f *openAPIFiles) key() [sha256.Size]byte {
	h := sha256.New()
	part := func(b []byte) {
		h.Write(binary.AppendUvarint(nil, uint64(len(b))))
		h.Write(b)
	}
	part(f.schema)
	for _, c := range f.conversions {
		part([]byte(c.name))
		part(c.data)
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// compile parses and compiles the files. A conversion file's version,
// where it gives one, must be the N of its name. An error is a
// *ParseError.
func (f *openAPIFiles) compile(loc place) (openAPIRead, error) {
	var read openAPIRead
	schemaFile := filepath.Join(dkpOpenAPI, dkpConfigValues)
	var raw any
	if err := read.decode(f.dir, schemaFile, f.schema, &raw); err != nil {
		return read, err
	}
	path := filepath.Join(f.dir, schemaFile)
	value, err := jsonValue("schema", raw)
	if err != nil {
		return read, &ParseError{File: path, Err: fmt.Errorf("%w: %v", model.ErrInvalidValue, err)}
	}
	schema, ok := value.(map[string]any)
	if !ok {
		return read, &ParseError{File: path, Err: fmt.Errorf("%w: a settings schema is a mapping", model.ErrInvalidValue)}
	}
	var conv map[int][]string
	for _, c := range f.conversions {
		file := filepath.Join(dkpOpenAPI, dkpConversionDir, c.name)
		var dc dkpConversion
		if err := read.decode(f.dir, file, c.data, &dc); err != nil {
			return read, err
		}
		if dc.Version != nil && *dc.Version != c.version {
			return read, &ParseError{File: filepath.Join(f.dir, file), Err: fmt.Errorf("%w: version %d, but the file is named for version %d", model.ErrInvalidValue, *dc.Version, c.version)}
		}
		if conv == nil {
			conv = map[int][]string{}
		}
		conv[c.version] = dc.Conversions
	}
	where := "module " + loc.module
	if loc.release != "" {
		where += ": release " + loc.release
	}
	read.schema, err = compileSettings(path, 0, where, schema, conv)
	return read, err
}

// decode decodes YAML data, the file at dir/file, into v. A key written
// twice in one mapping is read as DKP's YAML reader reads it, the last
// one winning, with a note.
func (read *openAPIRead) decode(dir, file string, data []byte, v any) error {
	path := filepath.Join(dir, file)
	node, err := parseNode(path, data)
	if err != nil {
		return err
	}
	for _, k := range keepLastKeys(node) {
		read.notes = append(read.notes, fileNote{file: file, line: k.first.Line,
			text: fmt.Sprintf("key %q is written again at line %d; the last one is read, as DKP reads it", k.first.Value, k.last.Line)})
	}
	return decode(path, node, v)
}

// rewrittenKey is a mapping key written twice: where first, where last.
type rewrittenKey struct{ first, last *yaml.Node }

// keepLastKeys drops from every mapping under n each entry whose key the
// mapping writes again later, and lists what it dropped. Aliases are not
// followed: the node they name is met where it is written.
func keepLastKeys(n *yaml.Node) []rewrittenKey {
	var out []rewrittenKey
	if n.Kind == yaml.MappingNode {
		last := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value != "<<" {
				last[k.Value] = k
			}
		}
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if l, ok := last[k.Value]; ok && l != k && k.Kind == yaml.ScalarNode {
				out = append(out, rewrittenKey{first: k, last: l})
				continue
			}
			kept = append(kept, k, n.Content[i+1])
		}
		n.Content = kept
	}
	for _, c := range n.Content {
		out = append(out, keepLastKeys(c)...)
	}
	return out
}
