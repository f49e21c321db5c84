package model

import (
	"fmt"
	"strings"
)

// Gates that need the live cluster (R32).
//
// A DKP release's release.yaml may require what only the running cluster
// knows: its nodes' OS and kernel, its container runtime, the versions of
// its ingress and istio controllers, its cloud's conditions. The cluster
// state carries such knowledge as facts (ClusterState.Facts, named as DKP
// names them); a gate whose fact is given is decided like any other rule,
// one whose fact is not is assumed, and the answer says so.

// Gate is how one release.yaml key is decided from a fact of the cluster.
type Gate struct {
	// Key is the release.yaml key, such as nodesMinimalOSVersionUbuntu.
	Key string
	// Fact is the cluster-state fact that decides it.
	Fact string
	// Module registers the check: DKP runs it only while the module is on.
	// "" for a check DKP always runs.
	Module string
	// Needs says, for an assumption, what the fact is and how to give it.
	Needs string
	// holds reports whether the fact's value meets the requirement.
	holds func(required, fact string) (bool, error)
}

// Holds decides the gate for the cluster's fact; an error when the fact
// cannot be read as the gate reads it.
func (g Gate) Holds(required, fact string) (bool, error) { return g.holds(required, fact) }

// GateFor is the gate of a release.yaml key. Every key not named below is
// decided by a fact of the same name whose value must equal the
// requirement's (DKP's yandex, metallb, RBAC and cloud checks compare
// so).
func GateFor(key string) Gate {
	switch {
	case strings.HasPrefix(key, "nodesMinimalOSVersion"):
		os := strings.TrimPrefix(key, "nodesMinimalOSVersion")
		return Gate{Key: key, Fact: key, Module: "node-manager", holds: atLeast,
			Needs: fmt.Sprintf("the OS version of the cluster's oldest %s node (facts.%s)", os, key)}
	case key == "nodesMinimalLinuxKernelVersion":
		return Gate{Key: key, Fact: key, Module: "cni-cilium", holds: atLeast,
			Needs: "the Linux kernel of the cluster's oldest node (facts.nodesMinimalLinuxKernelVersion)"}
	case key == "ingressNginx":
		return Gate{Key: key, Fact: "ingressNginxMinimalControllerVersion", Module: "ingress-nginx", holds: atLeast,
			Needs: "the lowest controllerVersion of the cluster's IngressNginxControllers (facts.ingressNginxMinimalControllerVersion)"}
	case key == "istioMinimalVersion":
		return Gate{Key: key, Fact: "istioInstalledVersions", Module: "istio", holds: everyAtLeast,
			Needs: "the istio versions the cluster runs (facts.istioInstalledVersions)"}
	case key == "checkContainerdV1NodesPresent":
		return Gate{Key: key, Fact: "containerdV1NodesPresent", Module: "node-manager", holds: isFalse,
			Needs: "whether any node still runs containerd v1 (facts.containerdV1NodesPresent)"}
	case key == "unmetCloudConditions":
		return Gate{Key: key, Fact: key, holds: isFalse,
			Needs: "whether the cloud provider reports unmet conditions (facts.unmetCloudConditions)"}
	case key == "metallbHasStandardConfiguration":
		return Gate{Key: key, Fact: key, Module: "metallb", holds: equal, Needs: "facts.metallbHasStandardConfiguration"}
	case key == "containerdOnAllNodes":
		return Gate{Key: key, Fact: key, Module: "node-manager", holds: equal, Needs: "whether every node runs containerd (facts.containerdOnAllNodes)"}
	}
	return Gate{Key: key, Fact: key, holds: equal, Needs: "facts." + key}
}

func atLeast(required, fact string) (bool, error) {
	r, err := ParseVersion(required)
	if err != nil {
		return false, err
	}
	f, err := ParseVersion(fact)
	if err != nil {
		return false, err
	}
	return CompareVersions(f, r) >= 0, nil
}

// everyAtLeast holds when every version of a comma list is at least the
// required one; an empty list holds (nothing runs that could be too old).
func everyAtLeast(required, fact string) (bool, error) {
	for _, v := range strings.Split(fact, ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		if ok, err := atLeast(required, v); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func isFalse(_, fact string) (bool, error) {
	return strings.EqualFold(strings.TrimSpace(fact), "false"), nil
}

func equal(required, fact string) (bool, error) {
	return strings.EqualFold(strings.TrimSpace(required), strings.TrimSpace(fact)), nil
}

// Assumption is a gate an answer could not decide (R32): which gate, of
// which DKP release, what would decide it, in a sentence.
type Assumption struct {
	// Gate is the release.yaml key.
	Gate string
	// Subject is what requires it: "DKP 1.74".
	Subject string
	// Needs is the fact that would decide it and how to give it.
	Needs   string
	Message string
}
