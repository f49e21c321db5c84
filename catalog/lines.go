package catalog

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// fieldLines indexes the lines of the fields under n, a release or a
// module as its file writes it, by their paths from n
// (requirements.kubernetes, stage), so that a fact read from a field can
// say its line (DESIGN.md §3). A list item that is a mapping with a name
// is indexed by that name too (requirements.modules.mandatory[csi-nfs]),
// as DKP v2's buckets list modules. The index goes four keys deep, as
// deep as a requirement is written.
func fieldLines(n *yaml.Node) map[string]int {
	lines := map[string]int{}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	indexLines(lines, "", resolveAlias(n), 4)
	return lines
}

func indexLines(lines map[string]int, prefix string, n *yaml.Node, depth int) {
	if n == nil || depth == 0 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, value := n.Content[i], resolveAlias(n.Content[i+1])
			path := key.Value
			if prefix != "" {
				path = prefix + "." + key.Value
			}
			if _, seen := lines[path]; !seen {
				lines[path] = key.Line
			}
			indexLines(lines, path, value, depth-1)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			item = resolveAlias(item)
			path := prefix + "[" + strconv.Itoa(i) + "]"
			lines[path] = item.Line
			if name := itemName(item); name != "" {
				lines[prefix+"["+name+"]"] = item.Line
			}
			indexLines(lines, path, item, depth-1)
		}
	}
}

// itemName is the name of a list item that is a mapping with one.
func itemName(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "name" && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}
