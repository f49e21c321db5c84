package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/modsolver/modsolver/model"
)

// warnUnknownPlatform says on stderr, once each, which platform versions
// the requests run at that the catalog's platform data does not know
// (D212): a request's candidate version, or the cluster's own where it
// names none. The answer is still given: the data may be older than the
// question. It returns what it said, for the outputs that carry the
// batch's warnings themselves.
func warnUnknownPlatform(errOut io.Writer, cat *model.Catalog, cluster *model.ClusterState, reqs []*model.Request) []string {
	known := cat.KnownPlatform()
	if known == nil {
		return nil
	}
	var said []string
	for _, req := range reqs {
		dkp, kube := cluster.Deckhouse, cluster.Kubernetes
		if req.Platform.Deckhouse != nil {
			dkp = req.Platform.Deckhouse
		}
		if req.Platform.Kubernetes != nil {
			kube = req.Platform.Kubernetes
		}
		for _, w := range known.Unknown(dkp, kube) {
			if !slices.Contains(said, w) {
				said = append(said, w)
				fmt.Fprintf(errOut, "modsolver: warning: %s\n", w)
			}
		}
	}
	return said
}

// downgrades says on stderr, once each, which candidate platform versions
// are a minor below the cluster's (R33): neither DKP nor Kubernetes moves
// a minor down, so such a cell is answered as what the modules would need
// there, with no route. It returns what it said.
func downgrades(errOut io.Writer, cluster *model.ClusterState, reqs []*model.Request) []string {
	var said []string
	say := func(what string, v, now model.Version) {
		if v == nil || now == nil || model.MinorOf(v).Compare(model.MinorOf(now)) >= 0 {
			return
		}
		w := fmt.Sprintf("%s %s is a minor below the cluster's %s: a downgrade, which DKP does not make; its cells have no route", what, v, now)
		if !slices.Contains(said, w) {
			said = append(said, w)
			fmt.Fprintf(errOut, "modsolver: warning: %s\n", w)
		}
	}
	for _, req := range reqs {
		say("deckhouse", req.Platform.Deckhouse, cluster.Deckhouse)
		say("kubernetes", req.Platform.Kubernetes, cluster.Kubernetes)
	}
	return said
}
