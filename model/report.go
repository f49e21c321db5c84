package model

// Report chooses which modules an answer lists (DESIGN.md §3).
type Report string

const (
	// ReportAll lists every module enabled before or after (the default).
	ReportAll Report = "all"
	// ReportChanges lists only the modules that change: installs,
	// updates, disables and downgrades. Stats.Unchanged counts the kept
	// ones, and the plan holds the changing steps only.
	ReportChanges Report = "changes"
)

// ChangesOnly reports whether the request asks for the changes only.
func (r *Request) ChangesOnly() bool { return r.Report == ReportChanges }

// validateReport checks the report field.
func (r *Request) validateReport() InputErrors {
	switch r.Report {
	case "", ReportAll, ReportChanges:
		return nil
	}
	return InputErrors{fieldErr(Field("request", "report"), ErrInvalidValue, "unknown report %q (want all or changes)", r.Report)}
}

// Changes reports whether action a is one that `report: changes` lists.
func (a Action) Changes() bool {
	switch a {
	case ActionInstall, ActionUpdate, ActionDisable, ActionDowngrade:
		return true
	}
	return false
}
