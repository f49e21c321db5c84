package catalog

import (
	"fmt"
	"strings"

	"github.com/modsolver/modsolver/model"
)

// versionsNormalised counts the versions an importer read in another form
// than they were written (D71).
const versionsNormalised = "versions normalised on import"

// normalised returns a warning naming a version whose text is not its
// canonical form, such as Helm's "0.46.00" read as 0.46.0 or "1.2" read
// as 1.2.0, or "" when it is (a "v" prefix and surrounding space do not
// count: D3 prints versions without them). Two texts that normalise to
// one version are then one release, which the operator should know.
func normalised(path, text string, v model.Version) string {
	canon := model.VersionString(v)
	bare := strings.TrimPrefix(strings.TrimSpace(text), "v")
	if bare == canon {
		return ""
	}
	return fmt.Sprintf("%s: version %q is read as %s", path, text, canon)
}

// ErrNoModules marks a catalog read in a format named by hand that holds
// no module: most often a file in another format, which an importer's
// tolerance would otherwise read as an empty catalog (D72).
var ErrNoModules = fmt.Errorf("%w: the catalog holds no module", model.ErrInvalidInput)

// emptyForced is the error for a file read as format that gave no module;
// it names the format the file looks like, when there is one.
func emptyForced(name string, data []byte, format Format) error {
	hint := ""
	if detected, err := Detect(name, data); err == nil && detected != format {
		hint = fmt.Sprintf("; it looks like %s (leave --catalog-format out to detect it)", detected)
	}
	return &ParseError{File: name, Err: fmt.Errorf("%w when read as %s%s", ErrNoModules, format, hint)}
}
