package checker

import (
	"testing"

	"github.com/modsolver/modsolver/internal/fixture"
	"github.com/modsolver/modsolver/model"
)

func stage(s model.Stage) fixture.ReleaseOption { return func(r *model.Release) { r.Stage = s } }

func confirm(msg string) fixture.ReleaseOption {
	return func(r *model.Release) { r.Disable = model.Disable{Confirmation: true, Message: msg} }
}

func deprecation(name, v string) model.Warning {
	return model.Warning{Kind: model.WarningDeprecated, Module: name, Version: v, Message: name + " " + v + " is Deprecated"}
}

// TestCheckStages breaks R25 and R26 one way per case; the first cases
// are valid answers.
func TestCheckStages(t *testing.T) {
	labs := demoModule(fixture.Releases(fixture.Release("1.0.0"), fixture.Release("1.1.0", stage(model.StageExperimental)), fixture.Release("1.2.0", stage(model.StageDeprecated))))
	allowed := fixture.Cluster(nil)
	allowed.AllowExperimentalModules = true
	cni := []*model.Module{
		fixture.Module("cni-a", fixture.Group("cni"), fixture.Releases(fixture.Release("1.0.0", confirm("stops networking")))),
		fixture.Module("cni-b", fixture.Group("cni"), fixture.Releases(fixture.Release("1.0.0"))),
	}
	cniCluster := fixture.Cluster(map[string]model.ModuleState{"cni-a": fixture.Enabled("1.0.0")})
	confirmedPlan := func(res *model.Result) {
		res.Plan[0].ConfirmationMessage, res.Plan[0].ConfirmationAnnotation = "stops networking", model.AllowDisablingAnnotation
	}
	runCases(t, []checkCase{
		{
			name: "R25 Experimental release on a cluster that allows them", modules: labs, cluster: allowed,
			req: model.Request{Pin: map[string]model.Version{"demo": model.MustParseVersion("1.1.0")}},
			res: resolved(install("demo", "1.1.0")), want: []string{},
		},
		{
			name: "R25 Experimental release without allowExperimentalModules", modules: labs, cluster: fixture.Cluster(nil),
			req: model.Request{Pin: map[string]model.Version{"demo": model.MustParseVersion("1.1.0")}},
			res: resolved(install("demo", "1.1.0")), want: []string{"R25"},
		},
		{
			name: "R25 Deprecated release with its warning", modules: labs, cluster: fixture.Cluster(nil),
			req:  model.Request{Enable: []string{"demo"}},
			res:  edited(resolved(install("demo", "1.2.0")), func(r *model.Result) { r.Warnings = []model.Warning{deprecation("demo", "1.2.0")} }),
			want: []string{},
		},
		{
			name: "R25 Deprecated release without a warning", modules: labs, cluster: fixture.Cluster(nil),
			req: model.Request{Enable: []string{"demo"}}, res: resolved(install("demo", "1.2.0")), want: []string{"R25"},
		},
		{
			name: "R25 warning about a release that is not Deprecated", modules: labs, cluster: fixture.Cluster(nil),
			req:  model.Request{Pin: map[string]model.Version{"demo": model.MustParseVersion("1.0.0")}},
			res:  edited(resolved(install("demo", "1.0.0")), func(r *model.Result) { r.Warnings = []model.Warning{deprecation("demo", "1.0.0")} }),
			want: []string{"R25"},
		},
		{
			name: "R26 confirmed module disabled by name", modules: cni, cluster: cniCluster,
			req:  model.Request{Enable: []string{"cni-b"}, Disable: []string{"cni-a"}},
			res:  edited(resolved(disable("cni-a", "1.0.0"), install("cni-b", "1.0.0")), confirmedPlan),
			want: []string{},
		},
		{
			name: "R26 confirmed module disabled by allowDisable", modules: cni, cluster: cniCluster,
			req:  model.Request{Enable: []string{"cni-b"}, AllowDisable: true},
			res:  edited(resolved(disable("cni-a", "1.0.0"), install("cni-b", "1.0.0")), confirmedPlan),
			want: []string{"R26"},
		},
		{
			name: "R26 disable step without the annotation", modules: cni, cluster: cniCluster,
			req:  model.Request{Enable: []string{"cni-b"}, Disable: []string{"cni-a"}},
			res:  resolved(disable("cni-a", "1.0.0"), install("cni-b", "1.0.0")),
			want: []string{"R26"},
		},
	})
}
