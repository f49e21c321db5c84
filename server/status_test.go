package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/model"
)

func TestToStatusCodes(t *testing.T) {
	field := func(f string, err error) error { return &model.FieldError{Field: f, Err: err} }
	tests := []struct {
		name string
		err  error
		want codes.Code
	}{
		{"deadline", fmt.Errorf("solve: %w", context.DeadlineExceeded), codes.DeadlineExceeded},
		{"cancelled", context.Canceled, codes.Canceled},
		{"unknown catalog", field("catalog_name", ErrUnknownCatalog), codes.NotFound},
		{"unknown module of GetModule", fmt.Errorf("%w: no module x", ErrNotFound), codes.NotFound},
		{"unsupported", field("inline_catalog", ErrUnsupported), codes.Unimplemented},
		{"bad input", field("request.enable[0]", model.ErrUnknownModule), codes.InvalidArgument},
		{"bad input without a field", fmt.Errorf("%w: nothing to go on", model.ErrInvalidInput), codes.InvalidArgument},
		{"a status passes through", status.Error(codes.Unavailable, "gone"), codes.Unavailable},
		{"anything else", errors.New("disk on fire"), codes.Internal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			err := toStatus(slog.New(slog.NewTextHandler(&logs, nil)), "/m", tc.err)
			assert.Equal(t, tc.want, status.Code(err), "%v", err)
			if tc.want == codes.Internal {
				assert.Equal(t, internalMessage, status.Convert(err).Message())
				assert.Contains(t, logs.String(), "disk on fire")
			} else {
				assert.Empty(t, logs.String(), "only internal errors are logged here")
			}
		})
	}
	assert.NoError(t, toStatus(slog.Default(), "/m", nil))
}

func TestBadRequestViolations(t *testing.T) {
	inner := model.InputErrors{
		&model.FieldError{Field: "modules.a.channels", Err: model.ErrInvalidValue},
		&model.ConstraintError{Module: "a", Release: "1.0.0", Field: "kubernetes", Text: ">= x", Err: model.ErrInvalidConstraint},
	}
	err := errors.Join(
		model.InputErrors{
			&model.FieldError{Field: "cluster.releaseChannel", Err: model.ErrInvalidValue},
			&model.FieldError{Field: "cluster.modules.cni-cilium.version", Err: model.ErrUnknownVersion},
		},
		fmt.Errorf("request: %w", &model.FieldError{Field: "request.pin.code", Err: model.ErrMissingField}),
		&model.FieldError{Field: "inline_catalog", Err: fmt.Errorf("parse: %w", inner)},
	)
	st := status.Convert(toStatus(slog.Default(), "/m", err))
	require.Equal(t, codes.InvalidArgument, st.Code())
	require.Len(t, st.Details(), 1)
	br, ok := st.Details()[0].(*errdetails.BadRequest)
	require.True(t, ok)
	var fields []string
	for _, v := range br.GetFieldViolations() {
		fields = append(fields, v.GetField())
		assert.NotEmpty(t, v.GetDescription())
	}
	assert.Equal(t, []string{
		"cluster.release_channel",
		`cluster.modules["cni-cilium"].version`,
		`request.pin["code"]`,
		"inline_catalog",
		"inline_catalog",
	}, fields)
	assert.Contains(t, br.GetFieldViolations()[3].GetDescription(), "modules.a.channels", "inner paths stay in the description")
	assert.Contains(t, br.GetFieldViolations()[4].GetDescription(), "release 1.0.0")
	assert.Contains(t, st.Message(), `cluster.modules["cni-cilium"].version: `)
}

func TestProtoField(t *testing.T) {
	tests := map[string]string{
		"cluster.deckhouse":                     "cluster.deckhouse",
		"cluster.releaseChannel":                "cluster.release_channel",
		"cluster.modules.x":                     `cluster.modules["x"]`,
		"cluster.modules.x.version":             `cluster.modules["x"].version`,
		"cluster.modules.x.enabled":             `cluster.modules["x"].enabled`,
		"cluster.modules.a.b.channel":           `cluster.modules["a.b"].channel`,
		"request.pin.code":                      `request.pin["code"]`,
		"request.enable[2]":                     "request.enable[2]",
		"request.updateAll":                     "request.update_all",
		`cluster.modules["MyMod"].version`:      `cluster.modules["MyMod"].version`,
		`request.pin["Code"]`:                   `request.pin["Code"]`,
		"request.platform.kubernetes":           "request.platform.kubernetes",
		"inline_catalog":                        "inline_catalog",
		`scenarios[1].request.pin["A"]`:         `scenarios[1].request.pin["A"]`,
		"cluster.modules.sds-node-configurator": `cluster.modules["sds-node-configurator"]`,
	}
	for in, want := range tests {
		assert.Equal(t, want, protoField(in), "protoField(%q)", in)
	}
}
