package catalog

import (
	"fmt"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// fileDisable is the `disable` key of a release, or of a built-in module
// (R26), as DKP's module.yaml writes it: `message`, or the localised
// `messages` that package.yaml writes (R28).
type fileDisable struct {
	Confirmation bool          `yaml:"confirmation"`
	Message      string        `yaml:"message"`
	Messages     *fileMessages `yaml:"messages"`
}

// fileMessages are localised texts; answers are in English.
type fileMessages struct {
	En string `yaml:"en"`
	Ru string `yaml:"ru"`
}

// toModel takes the English message, from `messages.en` when written, or
// else from `message` (DKP's deprecated key).
func (fd *fileDisable) toModel() model.Disable {
	if fd == nil {
		return model.Disable{}
	}
	d := model.Disable{Confirmation: fd.Confirmation, Message: fd.Message}
	if fd.Messages != nil && strings.TrimSpace(fd.Messages.En) != "" {
		d.Message = strings.TrimSpace(fd.Messages.En)
	}
	return d
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
