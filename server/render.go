package server

import (
	"bytes"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/solver"
)

// Response converts a model result into the proto message that both the gRPC
// service and the CLI's `-o json` output carry.
func Response(res *model.Result) *modsolverv1.ResolveResponse {
	return resultToProto(res)
}

// WhatIfResult converts the answer to scenario i of a batch, or its error,
// with its group and blockers, into the message the gRPC WhatIf stream
// sends and `whatif -o json` prints: one converter, so that both word an
// error alike. index maps the cell's scenario indices (its group, each
// blocker's first scenario) to those the output gives.
func WhatIfResult(i int, name string, c solver.Cell, index func(int) int) *modsolverv1.WhatIfResult {
	return whatIfResultToProto(i, name, c, index)
}

// BadInput words bad input as an InvalidArgument status does: "field:
// what is wrong", one per problem, each field named by its proto field
// path, such as `request.pin["x"]` (D103). A what-if scenario that is bad
// input carries this text, in the gRPC WhatIf stream, in `whatif -o json`
// and in the `whatif` table alike.
func BadInput(err error) string {
	return describe(err, violations(err, ""))
}

// MarshalJSON renders m as protojson with default options (zero fields
// omitted, camelCase field names such as "fromVersion"), indented by two
// spaces and followed by a newline.
//
// protojson deliberately varies its whitespace between builds, so the output
// is normalised with json.Compact and json.Indent: identical messages always
// give identical bytes.
func MarshalJSON(m proto.Message) ([]byte, error) {
	raw, err := protojson.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("marshal %s to JSON: %w", m.ProtoReflect().Descriptor().FullName(), err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, fmt.Errorf("compact JSON: %w", err)
	}
	var out bytes.Buffer
	out.Grow(compact.Len() * 2)
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("indent JSON: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}
