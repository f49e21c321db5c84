package catalog

import (
	"testing"

	"github.com/modsolver/modsolver/model"
)

// FuzzKUDO feeds arbitrary bytes to the KUDO importer, as an index and as
// one operator.yaml beside a fixed package it may depend on: each must
// give a catalog whose every release needs kudo, with a report that
// counts it, or an input error, and never panic.
func FuzzKUDO(f *testing.F) {
	f.Add([]byte(kudoOp("a", "1.3.1", "2.5.0", kudoDep("../b", "0.1.0", ""))))
	f.Add([]byte(kudoOp("a", `"2.0"`, "5.7", kudoDep("a", "", "5.7"))))
	f.Add([]byte("name: a\nversion: beta1\nkubernetesVersion: 0.16.0\nkudoVersion: 0.15.0-rc1\ntasks:\n  deploy: {resources: [a.yaml]}\n"))
	f.Add([]byte("name: a\noperatorVersion: 0.1.0\nappVersion: 1.0.0\nappVersion: 1.100.0\ntasks:\n  - {name: x, kind: KudoOperator, spec: {package: b, operatorVersion: 0.1.0}}\n  - {name: y, kind: KudoOperator, spec: {package: b, appVersion: 9.0.0}}\n"))
	f.Add([]byte("apiVersion: v1\nentries:\n  mysql:\n    - {name: mysql, operatorVersion: 0.1.0, appVersion: 5.7}\n    - {name: x, version: 0.2.0}\n  '': [{operatorVersion: 1.0.0}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, rep, err := parseKUDOIndex("index.yaml", data)
		kudoFuzzCheck(t, cat, rep, err)
		p, err := parseKudoFile("a/1/operator.yaml", data)
		if err != nil {
			kudoFuzzCheck(t, nil, nil, err)
			return
		}
		b := &kudoPackage{path: "a/b", dir: "a/b", name: "b", operatorVersion: "0.1.0", appVersion: "9.0.0"}
		cat, rep, err = importKUDO("fuzz", []*kudoPackage{p, b}, &Report{Source: "fuzz", Format: FormatKUDO})
		kudoFuzzCheck(t, cat, rep, err)
	})
}

func kudoFuzzCheck(t *testing.T, cat *model.Catalog, rep *Report, err error) {
	t.Helper()
	if !checkLoaded(t, cat, rep, err) {
		return
	}
	for _, m := range cat.Modules() {
		for _, r := range m.Releases {
			if r.Requirements.Platform[kudoComponent] == nil {
				t.Fatalf("%s %s does not need kudo", m.Name, r.Version)
			}
		}
	}
}
