package catalog

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Parsing a large YAML file on several cores (D324).
//
// yaml's parser reads about 25 MB/s, so that parsing was most of the time
// to load Bitnami's Helm index even after everything around it was cut.
// A large catalog is one top-level collection (a Helm index's entries, a
// catalog's modules) of many items, each written on lines of their own:
// parseSplit cuts that collection at item boundaries into a few parts,
// parses the parts at once, and joins their nodes. Each part is parsed
// as its own document, preceded by as many empty lines as precede it in
// the file, so that every node keeps its line and column.
//
// It cuts only where the cut cannot fall inside an item: every line of the
// collection is at least as indented as its items, no line leaves a
// quoted scalar or a flow collection open, and no document marker or
// directive is in the file. A file it cannot cut so, any part that does
// not parse, or anything else it does not expect, is parsed whole as
// before (parseNode), so that errors are yaml's, for the whole file.

// splitMin is the size from which parseNode tries to parse a file in
// parts; splitPart is the least size of a part.
const (
	splitMin  = 1 << 20
	splitPart = 256 << 10
)

// parseSplit parses data in up to parts parts of at least minPart bytes
// when it can; ok is false when it cannot, and data is then to be parsed
// whole.
func parseSplit(data []byte, parts, minPart int) (node *yaml.Node, ok bool) {
	lines := lineStarts(data)
	if !cleanLines(data, lines) {
		return nil, false
	}
	b, ok := largestBlock(data, lines)
	if !ok {
		return nil, false
	}
	cuts := b.cuts(data, lines, parts, minPart)
	if len(cuts) < 2 {
		return nil, false
	}
	nodes := make([]*yaml.Node, len(cuts)-1)
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() { nodes[i], errs[i] = parsePart(data, lines, cuts[i], cuts[i+1]) })
	}
	head, err := parseDoc(blankBlock(data, lines, b))
	wg.Wait()
	if err != nil || errors.Join(errs...) != nil {
		return nil, false
	}
	for _, n := range nodes {
		if n.Kind != b.kind {
			return nil, false
		}
	}
	return joinBlock(head, b.keyLine, nodes)
}

// lineStarts returns the offset at which each line of data starts.
func lineStarts(data []byte) []int {
	starts := make([]int, 0, bytes.Count(data, []byte("\n"))+1)
	for off := 0; off < len(data); {
		starts = append(starts, off)
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return starts
}

// line returns line i of data, without its newline.
func line(data []byte, lines []int, i int) []byte {
	end := len(data)
	if i+1 < len(lines) {
		end = lines[i+1] - 1
	}
	return data[lines[i]:end]
}

// indent is the number of spaces a line starts with.
func indent(l []byte) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	return n
}

// blankOrComment reports whether a line holds nothing to parse.
func blankOrComment(l []byte) bool {
	rest := l[indent(l):]
	return len(rest) == 0 || rest[0] == '#'
}

// cleanLines reports whether every line ends outside any quoted scalar
// or flow collection, and the file has no tab, carriage return, byte
// order mark, document marker or directive. Lines inside a block scalar
// (after a line ending in | or >, and more indented than it) are its
// text, and are not looked at.
func cleanLines(data []byte, lines []int) bool {
	if bytes.ContainsAny(data, "\t\r") || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return false
	}
	blockScalar := -1 // the indentation of the line that opened one
	for i := range lines {
		l := line(data, lines, i)
		if blockScalar >= 0 && (len(bytes.TrimSpace(l)) == 0 || indent(l) > blockScalar) {
			continue
		}
		blockScalar = -1
		if bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) || bytes.HasPrefix(l, []byte("%")) {
			return false
		}
		opensBlock, ok := lexLine(l)
		if !ok {
			return false
		}
		if opensBlock {
			blockScalar = indent(l)
		}
	}
	return true
}

// lexLine reads one line's tokens as far as quotes, brackets and comments
// go, by YAML's rules for where each starts and ends: ok is false when
// the line ends inside a quoted scalar or a flow collection. opensBlock
// reports a line that ends with a block scalar's indicator (| or >).
func lexLine(l []byte) (opensBlock, ok bool) {
	depth := 0
	for i := 0; i < len(l); {
		c := l[i]
		switch {
		case c == ' ':
			i++
		case c == '#':
			return false, depth == 0 // a comment: after a space, or first
		case c == '\'' || c == '"':
			end, closed := quoteEnd(l, i)
			if !closed {
				return false, false
			}
			i = end + 1
		case c == '[' || c == '{':
			depth++
			i++
		case c == ']' || c == '}':
			if depth == 0 {
				return false, false
			}
			depth--
			i++
		case c == ',' && depth > 0:
			i++
		case (c == '-' || c == '?' || c == ':') && (i+1 == len(l) || l[i+1] == ' ' || (depth > 0 && c == ':' && flowEnd(l[i+1]))):
			i++
		case (c == '|' || c == '>') && depth == 0:
			return blockIndicator(l, i), blockIndicator(l, i)
		case c == '&' || c == '*' || c == '!':
			for i < len(l) && l[i] != ' ' && !(depth > 0 && flowEnd(l[i])) {
				i++
			}
		default:
			i = plainEnd(l, i, depth > 0)
		}
	}
	return false, depth == 0
}

// plainEnd returns where the plain scalar that starts at l[i] ends: at
// ": ", a ":" that ends the line, or " #", and in a flow collection also
// at a flow indicator.
func plainEnd(l []byte, i int, flow bool) int {
	for i++; i < len(l); i++ {
		switch c := l[i]; {
		case c == ':' && (i+1 == len(l) || l[i+1] == ' ' || (flow && flowEnd(l[i+1]))):
			return i
		case c == '#' && l[i-1] == ' ':
			return i
		case flow && flowEnd(c):
			return i
		}
	}
	return i
}

// flowEnd reports whether c ends a plain scalar in a flow collection.
func flowEnd(c byte) bool {
	switch c {
	case ',', '[', ']', '{', '}':
		return true
	}
	return false
}

// blockIndicator reports whether l[i] starts a block scalar's header: |
// or > at a token's start, then only indicators, spaces and a comment.
func blockIndicator(l []byte, i int) bool {
	for j := i + 1; j < len(l); j++ {
		switch c := l[j]; {
		case c == '+' || c == '-' || (c >= '1' && c <= '9'):
		case c == ' ':
			rest := bytes.TrimLeft(l[j:], " ")
			return len(rest) == 0 || rest[0] == '#'
		default:
			return false
		}
	}
	return true
}

// quoteEnd finds the quote that closes the one at l[i]: ” is a quote in
// single-quoted text, and \ escapes in double-quoted text.
func quoteEnd(l []byte, i int) (int, bool) {
	q := l[i]
	for j := i + 1; j < len(l); j++ {
		switch {
		case q == '"' && l[j] == '\\':
			j++
		case l[j] == q && q == '\'' && j+1 < len(l) && l[j+1] == '\'':
			j++
		case l[j] == q:
			return j, true
		}
	}
	return 0, false
}

// block is a top-level key's collection, on lines first to end
// (exclusive): items at indentation ind, a mapping's keys or a
// sequence's entries (kind).
type block struct {
	keyLine, first, end, ind int
	kind                     yaml.Kind
}

// largestBlock finds the top-level key whose value, written on the lines
// below it, is the largest, and checks that it is a block collection
// whose items can be told by their lines: every line at least as indented
// as the items, and every item line of one kind.
func largestBlock(data []byte, lines []int) (block, bool) {
	var best block
	for i := 0; i < len(lines); {
		l := line(data, lines, i)
		if blankOrComment(l) || indent(l) > 0 || !bytes.HasSuffix(bytes.TrimRight(l, " "), []byte(":")) {
			i++
			continue
		}
		b := block{keyLine: i, first: i + 1}
		for b.end = b.first; b.end < len(lines); b.end++ {
			if next := line(data, lines, b.end); !blankOrComment(next) && indent(next) == 0 && itemKind(next) != yaml.SequenceNode {
				break
			}
		}
		if b.end-b.first > best.end-best.first {
			best = b
		}
		i = b.end
	}
	return best, best.end > best.first && best.items(data, lines)
}

// items sets the items' indentation and kind, and checks every line: a
// mapping's values may be sequences written at its keys' indentation.
func (b *block) items(data []byte, lines []int) bool {
	b.ind = -1
	for i := b.first; i < b.end; i++ {
		l := line(data, lines, i)
		if blankOrComment(l) {
			continue
		}
		n := indent(l)
		if b.ind < 0 {
			b.ind, b.kind = n, itemKind(l[n:])
		}
		if n < b.ind || (n == b.ind && itemKind(l[n:]) != b.kind && b.kind == yaml.SequenceNode) {
			return false
		}
	}
	return b.ind > 0 || (b.ind == 0 && b.kind == yaml.SequenceNode)
}

// itemKind is the kind of collection an item line belongs to.
func itemKind(rest []byte) yaml.Kind {
	if rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ') {
		return yaml.SequenceNode
	}
	return yaml.MappingNode
}

// cuts returns the lines at which to cut the block into about parts
// parts of at least minPart bytes: the block's first line, item lines,
// and the block's end.
func (b *block) cuts(data []byte, lines []int, parts, minPart int) []int {
	size := lineOffset(data, lines, b.end) - lines[b.first]
	parts = min(parts, size/max(minPart, 1))
	if parts < 2 {
		return nil
	}
	cuts := []int{b.first}
	next := lines[b.first] + size/parts
	for i := b.first + 1; i < b.end && len(cuts) < parts; i++ {
		if lines[i] < next {
			continue
		}
		if l := line(data, lines, i); !blankOrComment(l) && indent(l) == b.ind && itemKind(l[b.ind:]) == b.kind {
			cuts = append(cuts, i)
			next = lines[i] + size/parts
		}
	}
	return append(cuts, b.end)
}

// lineOffset is where line i starts, or the end of data.
func lineOffset(data []byte, lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	return len(data)
}

// parsePart parses lines first to end (exclusive) of data as one
// document, after as many empty lines as come before them.
func parsePart(data []byte, lines []int, first, end int) (*yaml.Node, error) {
	part := data[lineOffset(data, lines, first):lineOffset(data, lines, end)]
	text := make([]byte, first+len(part))
	for i := range first {
		text[i] = '\n'
	}
	copy(text[first:], part)
	return parseDoc(text)
}

// parseDoc parses text, which must hold one document.
func parseDoc(text []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) || len(doc.Content) != 1 {
		return nil, errors.New("not one document")
	}
	return doc.Content[0], nil
}

// blankBlock returns data with the block's lines emptied, so that its
// key's value parses as null on the same line numbers.
func blankBlock(data []byte, lines []int, b block) []byte {
	start, end := lines[b.first], lineOffset(data, lines, b.end)
	out := make([]byte, 0, len(data)-(end-start)+(b.end-b.first))
	out = append(out, data[:start]...)
	out = append(out, bytes.Repeat([]byte("\n"), b.end-b.first)...)
	return append(out, data[end:]...)
}

// joinBlock sets the value of head's key on keyLine, null while the block
// was empty, to the parts' items joined.
func joinBlock(head *yaml.Node, keyLine int, parts []*yaml.Node) (*yaml.Node, bool) {
	if head.Kind != yaml.MappingNode {
		return nil, false
	}
	for i := 0; i+1 < len(head.Content); i += 2 {
		if head.Content[i].Line != keyLine+1 {
			continue
		}
		if !isNull(head.Content[i+1]) {
			return nil, false
		}
		joined := *parts[0]
		joined.Content = nil
		for _, p := range parts {
			joined.Content = append(joined.Content, p.Content...)
		}
		head.Content[i+1] = &joined
		return head, true
	}
	return nil, false
}

// splitParts is how many parts parseNode cuts a large file into.
func splitParts() int { return min(runtime.GOMAXPROCS(0), 8) }
