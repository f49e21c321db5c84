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
	field := func(f string, err error) error { return &model.FieldError{Path: model.Field(f), Err: err} }
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
		&model.FieldError{Path: model.Field("modules").Key("a").Field("channels"), Err: model.ErrInvalidValue},
		&model.ConstraintError{Module: "a", Release: "1.0.0", Field: "kubernetes", Text: ">= x", Err: model.ErrInvalidConstraint},
	}
	err := errors.Join(
		model.InputErrors{
			&model.FieldError{Path: model.Field("cluster", "releaseChannel"), Err: model.ErrInvalidValue},
			&model.FieldError{Path: model.Field("cluster", "modules").Key("cni-cilium").Field("version"), Err: model.ErrUnknownVersion},
		},
		fmt.Errorf("request: %w", &model.FieldError{Path: model.Field("request", "pin").Key("code"), Err: model.ErrMissingField}),
		&model.FieldError{Path: model.Field("inline_catalog"), Err: fmt.Errorf("parse: %w", inner)},
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

// TestProtoField renders a path's steps in the request's proto spelling:
// the steps say which part is a field, a key or an index, so a module
// name with dots or capitals stays one key (STYLE 17).
func TestProtoField(t *testing.T) {
	modules := model.Field("cluster", "modules")
	tests := []struct {
		path       model.Path
		proto, cli string
	}{
		{model.Field("cluster", "deckhouse"), "cluster.deckhouse", "cluster.deckhouse"},
		{model.Field("cluster", "releaseChannel"), "cluster.release_channel", "cluster.releaseChannel"},
		{modules.Key("x"), `cluster.modules["x"]`, "cluster.modules.x"},
		{modules.Key("x").Field("version"), `cluster.modules["x"].version`, "cluster.modules.x.version"},
		{modules.Key("a.b").Field("channel"), `cluster.modules["a.b"].channel`, "cluster.modules.a.b.channel"},
		{modules.Key("MyMod").Field("version"), `cluster.modules["MyMod"].version`, "cluster.modules.MyMod.version"},
		{modules.Key("x.version"), `cluster.modules["x.version"]`, "cluster.modules.x.version"},
		{model.Field("request", "pin").Key("Code"), `request.pin["Code"]`, "request.pin.Code"},
		{model.Field("request", "enable").Index(2), "request.enable[2]", "request.enable[2]"},
		{model.Field("request", "updateAll"), "request.update_all", "request.updateAll"},
		{model.Field("request", "platform", "kubernetes"), "request.platform.kubernetes", "request.platform.kubernetes"},
		{model.Field("inline_catalog"), "inline_catalog", "inline_catalog"},
		{model.Field("sources").Index(1).Field("catalog_name"), "sources[1].catalog_name", "sources[1].catalog_name"},
		{model.Field("modules").Key("a").Field("releases").Item("1.0.0"), `modules["a"].releases[1.0.0]`, "modules.a.releases[1.0.0]"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.proto, protoField(tt.path), "proto %v", tt.path)
		assert.Equal(t, tt.cli, tt.path.String(), "cli %v", tt.path)
	}
}
