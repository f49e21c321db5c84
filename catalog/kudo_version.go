package catalog

import (
	"errors"
	"fmt"
	"math"

	"github.com/Masterminds/semver/v3"

	"github.com/modsolver/modsolver/model"
)

// How a KUDO package's two versions become one release version (D86).
//
// KUDO names a package by its operatorVersion and its appVersion, and
// takes as the latest the package with the highest appVersion, then the
// highest operatorVersion. modsolver orders releases by semver, so the
// release version carries both, with the appVersion first:
//
//   - An operator none of whose packages has an appVersion: the
//     operatorVersion itself (akka-cluster 0.1.0 is 0.1.0).
//   - Otherwise ("packed"): appMajor.appMinor.P, where
//     P = appPatch×1,000,000 + opMajor×10,000 + opMinor×100 + opPatch.
//     kafka operatorVersion 1.3.1 with appVersion 2.5.0 is 2.5.10301;
//     zookeeper 0.3.1 with 3.4.14 is 3.4.14000301. A package without an
//     appVersion has app 0.0.0 and sorts below every package with one.
//
// Semver order of packed versions is KUDO's order exactly, since every
// operatorVersion part is below 100 (a part of 100 or more, or a
// prerelease or build suffix on either version, cannot be packed and
// skips the package). The packed core is what constraints compare, so an
// exact KUDO pin is an exact version (D87).

// kudoPackedLimit bounds each operatorVersion part in a packed version.
const kudoPackedLimit = 100

// errKudoPack is why a package's versions cannot be packed.
var errKudoPack = errors.New("cannot be packed into one release version (D86)")

// kudoReleaseVersion forms the release version of a package; app is nil
// when the package has no appVersion, and packed says whether the
// operator's versions are packed.
func kudoReleaseVersion(app, op model.Version, packed bool) (model.Version, error) {
	if !packed {
		return op, nil
	}
	if app == nil {
		app = semver.New(0, 0, 0, "", "")
	}
	for _, v := range []model.Version{app, op} {
		if v.Prerelease() != "" || v.Metadata() != "" {
			return nil, fmt.Errorf("%w: version %s has a prerelease or build suffix", errKudoPack, model.VersionString(v))
		}
	}
	if op.Major() >= kudoPackedLimit || op.Minor() >= kudoPackedLimit || op.Patch() >= kudoPackedLimit {
		return nil, fmt.Errorf("%w: operatorVersion %s has a part of %d or more", errKudoPack, model.VersionString(op), kudoPackedLimit)
	}
	const scale = kudoPackedLimit * kudoPackedLimit * kudoPackedLimit
	if app.Patch() > (math.MaxUint64-scale)/scale {
		return nil, fmt.Errorf("%w: appVersion %s has too large a patch", errKudoPack, model.VersionString(app))
	}
	p := app.Patch()*scale + op.Major()*kudoPackedLimit*kudoPackedLimit + op.Minor()*kudoPackedLimit + op.Patch()
	return semver.New(app.Major(), app.Minor(), p, "", ""), nil
}
