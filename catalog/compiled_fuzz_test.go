package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// sealed is payload in a compiled catalog's header that matches it, so
// that fuzzing reaches the payload's decoding past the checksum.
func sealed(payload []byte) []byte {
	body := binary.AppendUvarint(nil, uint64(len(build)))
	body = append(body, build...)
	body = binary.AppendUvarint(body, uint64(len(payload)))
	body = append(body, payload...)
	sum := sha256.Sum256(body)
	out := binary.BigEndian.AppendUint32([]byte(compiledMagic), compiledFormat)
	return append(append(out, sum[:]...), body...)
}

// FuzzReadCompiled feeds arbitrary payloads, sealed so that their
// checksum holds, to the compiled catalog reader: it must return a
// catalog or an input error, and never panic.
func FuzzReadCompiled(f *testing.F) {
	for _, doc := range []string{validCatalog, "modules: [{name: a, releases: [{version: 1.0.0}]}]"} {
		cat, rep, err := Parse("seed.yaml", []byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		var out bytes.Buffer
		if err := WriteCompiled(&out, cat, rep); err != nil {
			f.Fatal(err)
		}
		payload, err := compiledPayload(out.Bytes())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(payload)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		cat, rep, err := ReadCompiled("fuzz.bin", sealed(payload))
		if !checkLoaded(t, cat, rep, err) {
			return
		}
	})
}
