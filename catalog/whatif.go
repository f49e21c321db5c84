package catalog

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// NamedRequest is one scenario of a what-if batch.
type NamedRequest struct {
	Name    string
	Request *model.Request
}

// fileWhatIf is the what-if batch format:
//
//	scenarios:
//	  - name: enable console
//	    request: {enable: [console]}
type fileWhatIf struct {
	Scenarios []fileNamedRequest `yaml:"scenarios"`
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

// ParseWhatIf reads a what-if batch from data; name is used in errors.
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
	for i, s := range fw.Scenarios {
		req, err := s.Request.toModel(name)
		if err != nil {
			return nil, err
		}
		if s.Name == "" {
			s.Name = fmt.Sprintf("scenario %d", i+1)
		}
		out[i] = NamedRequest{Name: s.Name, Request: req}
	}
	return out, nil
}
