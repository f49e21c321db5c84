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
	w := warner{errOut: errOut}
	for _, req := range reqs {
		dkp, kube := cluster.Deckhouse, cluster.Kubernetes
		if req.Platform.Deckhouse != nil {
			dkp = req.Platform.Deckhouse
		}
		if req.Platform.Kubernetes != nil {
			kube = req.Platform.Kubernetes
		}
		for _, text := range known.Unknown(dkp, kube) {
			w.say(text)
		}
	}
	return w.said
}

// warner says each warning once on errOut, and keeps what it said.
type warner struct {
	errOut io.Writer
	said   []string
}

func (w *warner) say(text string) {
	if !slices.Contains(w.said, text) {
		w.said = append(w.said, text)
		fmt.Fprintf(w.errOut, "modsolver: warning: %s\n", text)
	}
}

// downgrades says on stderr, once each, which candidate platform versions
// are a minor below the cluster's (R33): neither DKP nor Kubernetes moves
// a minor down, so such a cell is answered as what the modules would need
// there, with no route. It returns what it said.
func downgrades(errOut io.Writer, cluster *model.ClusterState, reqs []*model.Request) []string {
	w := warner{errOut: errOut}
	say := func(what string, v, now model.Version) {
		if v != nil && now != nil && model.MinorOf(v).Compare(model.MinorOf(now)) < 0 {
			w.say(fmt.Sprintf("%s %s is a minor below the cluster's %s: a downgrade, which DKP does not make; its cells have no route", what, v, now))
		}
	}
	for _, req := range reqs {
		say("deckhouse", req.Platform.Deckhouse, cluster.Deckhouse)
		say("kubernetes", req.Platform.Kubernetes, cluster.Kubernetes)
	}
	return w.said
}
