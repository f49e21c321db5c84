package catalog

import (
	"fmt"

	"github.com/modsolver/modsolver/model"
)

// fileDisable is the `disable` key of a release, or of a built-in module
// (R26), as DKP's module.yaml writes it.
type fileDisable struct {
	Confirmation bool   `yaml:"confirmation"`
	Message      string `yaml:"message"`
}

func (fd *fileDisable) toModel() model.Disable {
	if fd == nil {
		return model.Disable{}
	}
	return model.Disable{Confirmation: fd.Confirmation, Message: fd.Message}
}

// stageAt parses a stage (R25) and names where it was read on error: the
// file, the line, the module and, for a release, its version.
func stageAt(loc place, line int, text string) (model.Stage, error) {
	s, err := model.ParseStage(text)
	if err == nil {
		return s, nil
	}
	where := "module " + loc.module
	if loc.release != "" {
		where += ": release " + loc.release
	}
	return 0, &ParseError{File: loc.file, Line: line, Err: fmt.Errorf("%s: stage: %w", where, err)}
}
