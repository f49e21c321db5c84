package catalog

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/modsolver/modsolver/model"
)

// NamedRequest is one scenario of a what-if batch.
type NamedRequest struct {
	Name    string
	Request *model.Request
	// Err is set, and Request nil, for a scenario that is bad input as
	// written (a version that does not parse, an unknown key): the batch
	// answers the others, and this one with Err. It names the file and
	// the line.
	Err error
	// Origin is where the scenario's request is in the batch file, to
	// place the bad input its answer may find.
	Origin Origin
}

// fileWhatIf is the what-if batch format:
//
//	scenarios:
//	  - name: enable console
//	    request: {enable: [console]}
//
// Each scenario is decoded on its own (fileNamedRequest), so that one
// that is bad input is that scenario's error, not the batch's.
type fileWhatIf struct {
	Scenarios []yaml.Node `yaml:"scenarios"`
}

type fileNamedRequest struct {
	Name    string      `yaml:"name"`
	Request fileRequest `yaml:"request"`
}

// LoadWhatIf reads a what-if batch file: a list of named requests.
func LoadWhatIf(path string) ([]NamedRequest, error) {
	data, err := readInput("what-if scenarios", path)
	if err != nil {
		return nil, err
	}
	return ParseWhatIf(path, data)
}

// ParseWhatIf reads a what-if batch from data; name is used in errors. A
// file that is not a batch is an error; a scenario of it that is bad
// input is that scenario's Err.
func ParseWhatIf(name string, data []byte) ([]NamedRequest, error) {
	node, err := parseNode(name, data)
	if err != nil {
		return nil, err
	}
	var fw fileWhatIf
	if err := decodeStrict(name, node, &fw); err != nil {
		return nil, err
	}
	if len(fw.Scenarios) == 0 {
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: no scenarios", model.ErrMissingField)}
	}
	out := make([]NamedRequest, len(fw.Scenarios))
	for i := range fw.Scenarios {
		out[i] = namedRequest(name, node, i, &fw.Scenarios[i])
	}
	return out, nil
}

// namedRequest reads scenario i of file, whose document is doc, from its
// node n.
func namedRequest(file string, doc *yaml.Node, i int, n *yaml.Node) NamedRequest {
	out := NamedRequest{Name: fmt.Sprintf("scenario %d", i+1),
		Origin: Origin{File: file, Root: "request", At: model.Field("scenarios").Index(i).Field("request"), doc: doc}}
	var fs fileNamedRequest
	err := decodeStrict(file, n, &fs)
	if name := scenarioName(n, fs.Name); name != "" {
		out.Name = name
	}
	if err == nil {
		requestNode := lineOf(n, model.Field("request")).nodeOr(&yaml.Node{Kind: yaml.MappingNode, Line: n.Line})
		out.Request, err = fs.Request.toModel(file, requestNode)
	}
	out.Err = err
	return out
}

// scenarioName is the scenario's name as decoded, or, when decoding did
// not get to it, as written in n.
func scenarioName(n *yaml.Node, decoded string) string {
	if decoded != "" {
		return decoded
	}
	if at := lineOf(n, model.Field("name")); at.node != nil && at.node.Kind == yaml.ScalarNode {
		return at.node.Value
	}
	return ""
}
