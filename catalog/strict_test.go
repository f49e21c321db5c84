package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A YAML syntax error names the line, counted from 1, that the problem is
// on: yaml's parser counts its errors' lines from 0 and its scanner from
// 1, and for a tab it names the line where the scalar before it starts.
func TestSyntaxErrorLines(t *testing.T) {
	const head = "modules:\n  - name: a\n    releases:\n"
	tests := []struct {
		name, text string
		line       int
	}{
		{"a tab on line 5", head + "      - version: 1.0.0\n\t      stage: GA\n", 5},
		{"a tab after a block scalar", "a: 1\nb: 2\nc: 3\nd: |\n\te: 5\n", 5},
		{"a tab on line 2 after line 1", "a: 1\n\tb: 2\n", 2},
		{"an unclosed mapping on line 4", head + "    channels: {stable: 1.0.0\n", 4},
		{"an unclosed mapping on line 5, then blank lines", "a: 1\nb: 2\nc: 3\nd: 4\nchannels: {stable: 1.0.0\n\n\n", 5},
		{"an unclosed list at the end", "apiVersion: v1\nentries:\n  a: [\n", 3},
		{"a list item among keys on line 5", "a: 1\nb: 2\nc: 3\nd: 4\n- x\n", 5},
		{"an unclosed list on line 2", "a: 1\nb: [1,\n\nc: 3\n", 2},
		{"a character that starts no token", "a: 1\nb: @x\n", 2},
		{"an unclosed quote", "a: 1\nb: 2\nc: 3\nd: 4\ne: \"abc\n", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseNode("f.yaml", []byte(tt.text))
			require.ErrorIs(t, err, ErrSyntax)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tt.line, pe.Line, "%v", err)
		})
	}
}

// A dump of several documents counts its lines over the whole file.
func TestSyntaxErrorLineInALaterDocument(t *testing.T) {
	dump := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b\n"
	_, err := ParseKubectl("dump.yaml", []byte(dump))
	var pe *ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 7, pe.Line, "%v", err)
}
