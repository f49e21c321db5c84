package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/modsolver/modsolver/model"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/readiness"
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
func WhatIfResult(i int, name string, c readiness.Cell, index func(int) int) *modsolverv1.WhatIfResult {
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
// spaces and followed by a newline. A what-if result is the exception:
// the scenario positions it gives (its index, each blocker's
// firstScenario) are written when they are 0 too, as its group is.
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
	if r, ok := m.(*modsolverv1.WhatIfResult); ok {
		positioned, err := withPositions(r, compact.Bytes())
		if err != nil {
			return nil, err
		}
		compact.Reset()
		compact.Write(positioned)
	}
	var out bytes.Buffer
	out.Grow(compact.Len() * 2)
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("indent JSON: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// withPositions writes into data, the compact protojson of r, the
// positions protojson leaves out when they are 0: r's index and each
// blocker's firstScenario. Scenario 0 is a position like any other; a
// reader that finds "group": 0 beside no index, or a blocker without the
// scenario it first blocks, cannot tell "the first" from "not given"
// (D414). The proto keeps them plain uint32 (the group is optional
// because a shard leaves it unset), so the JSON is mended here, in
// protojson's own field order.
func withPositions(r *modsolverv1.WhatIfResult, data []byte) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("what-if result JSON: %w", err)
	}
	fields["index"] = json.RawMessage(strconv.FormatUint(uint64(r.GetIndex()), 10))
	if len(r.GetBlockers()) > 0 {
		var blockers []map[string]json.RawMessage
		if err := json.Unmarshal(fields["blockers"], &blockers); err != nil || len(blockers) != len(r.GetBlockers()) {
			return nil, fmt.Errorf("what-if result JSON: blockers: %v", err)
		}
		var list bytes.Buffer
		list.WriteByte('[')
		for i, b := range blockers {
			if i > 0 {
				list.WriteByte(',')
			}
			b["firstScenario"] = json.RawMessage(strconv.FormatUint(uint64(r.GetBlockers()[i].GetFirstScenario()), 10))
			writeObject(&list, r.GetBlockers()[i].ProtoReflect().Descriptor(), b)
		}
		list.WriteByte(']')
		fields["blockers"] = list.Bytes()
	}
	var out bytes.Buffer
	writeObject(&out, r.ProtoReflect().Descriptor(), fields)
	return out.Bytes(), nil
}

// writeObject writes fields as a JSON object, its keys in the order of
// desc's fields, as protojson orders them. The values are written as
// they are: encoding/json would escape the HTML characters protojson
// leaves alone.
func writeObject(out *bytes.Buffer, desc protoreflect.MessageDescriptor, fields map[string]json.RawMessage) {
	out.WriteByte('{')
	first := true
	for i := range desc.Fields().Len() {
		name := desc.Fields().Get(i).JSONName()
		v, ok := fields[name]
		if !ok {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		out.WriteString(strconv.Quote(name))
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
}
