package catalog

import "bytes"

// Telling a catalog's format from its content (Detect) looks at a few
// keys of a file that may be 15 MB long. The scans below find them with
// bytes.Index, at memory speed: the regular expressions they replace
// took 1.4 s on Bitnami's Helm index, and decoding a whole OLM dump to
// read its top-level keys doubled the time to load it (D320).

// hasLineStart reports whether a line of data starts with prefix, as
// the regular expression (?m)^prefix matches.
func hasLineStart(data []byte, prefix string) bool {
	if bytes.HasPrefix(data, []byte(prefix)) {
		return true
	}
	return bytes.Contains(data, []byte("\n"+prefix))
}

// hasKey reports whether data holds key as a YAML or JSON mapping key:
// key, quoted or not, after the start of data, white space, "{", "," or
// a quote, and followed by ":". It matches where the regular expression
// (^|[\s{,"])key"?: does.
func hasKey(data []byte, key string) bool {
	k := []byte(key)
	for off := 0; ; {
		i := bytes.Index(data[off:], k)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(k)
		off = start + 1
		if start > 0 && !keyBefore(data[start-1]) {
			continue
		}
		if end < len(data) && data[end] == '"' {
			end++
		}
		if end < len(data) && data[end] == ':' {
			return true
		}
	}
}

// keyBefore reports whether c may come just before a mapping key: white
// space as regular expressions' \s means it, "{", "," or a quote.
func keyBefore(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\f', '\r', '{', ',', '"':
		return true
	}
	return false
}

// jsonTopKeys returns the keys of the JSON object at the start of data
// (after white space), skipping their values without decoding them. It
// checks the structure it walks (strings closed, brackets matched, a
// colon after each key, a comma between entries), not the literals in
// between; ok is false when the object is not well formed so, and the
// caller then decodes it to say why.
func jsonTopKeys(data []byte) (keys []string, ok bool) {
	s := jsonSkimmer{data: data}
	if !s.byte('{') {
		return nil, false
	}
	if s.byte('}') {
		return nil, true
	}
	for {
		key, ok := s.str()
		if !ok || !plainKey(key) || !s.byte(':') || !s.value() {
			return nil, false
		}
		keys = append(keys, key)
		if s.byte('}') {
			return keys, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// plainKey reports whether key is printable ASCII without escapes, read
// as written; any other key is left to the decoder.
func plainKey(key string) bool {
	for i := range len(key) {
		if key[i] < 0x20 || key[i] > 0x7e || key[i] == '\\' {
			return false
		}
	}
	return true
}

// jsonSkimmer walks JSON text by its structure.
type jsonSkimmer struct {
	data []byte
	pos  int
}

func (s *jsonSkimmer) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// byte consumes c, after white space, if it comes next.
func (s *jsonSkimmer) byte(c byte) bool {
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// str consumes a string and returns its text, escapes left as written
// (a key with one is left to the decoder).
func (s *jsonSkimmer) str() (string, bool) {
	start, ok := s.skipStr()
	if !ok {
		return "", false
	}
	return string(s.data[start : s.pos-1]), true
}

// skipStr consumes a string and returns where its text starts; the text
// ends before the closing quote, at s.pos-1.
func (s *jsonSkimmer) skipStr() (int, bool) {
	if !s.byte('"') {
		return 0, false
	}
	start := s.pos
	for {
		i := bytes.IndexByte(s.data[s.pos:], '"')
		if i < 0 {
			return 0, false
		}
		s.pos += i + 1
		if !escaped(s.data[start : s.pos-1]) {
			return start, true
		}
	}
}

// escaped reports whether text ends in an odd number of backslashes, so
// that a quote after it is escaped.
func escaped(text []byte) bool {
	n := 0
	for n < len(text) && text[len(text)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// value consumes one value: a string, an object or array with its
// contents, or a literal up to the next delimiter.
func (s *jsonSkimmer) value() bool {
	s.space()
	if s.pos >= len(s.data) {
		return false
	}
	switch s.data[s.pos] {
	case '"':
		_, ok := s.skipStr()
		return ok
	case '{', '[':
		return s.nested()
	}
	start := s.pos
	for s.pos < len(s.data) && !literalEnd(s.data[s.pos]) {
		s.pos++
	}
	return s.pos > start
}

// literalEnd reports whether c ends a literal (a number, true, false or
// null).
func literalEnd(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// nested consumes an object or array, counting brackets and skipping
// strings, so that a bracket inside a string is not counted.
func (s *jsonSkimmer) nested() bool {
	var open []byte
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; c {
		case '"':
			if _, ok := s.skipStr(); !ok {
				return false
			}
			continue
		case '{', '[':
			open = append(open, c)
		case '}', ']':
			if len(open) == 0 || open[len(open)-1] != c-2 { // '{'+2 == '}', '['+2 == ']'
				return false
			}
			open = open[:len(open)-1]
			if len(open) == 0 {
				s.pos++
				return true
			}
		}
		s.pos++
	}
	return false
}
