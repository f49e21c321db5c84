package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/modsolver/modsolver/model"
)

// Sentinel errors of the service. Bad input is model.ErrInvalidInput;
// these are the other categories a handler can end in.
var (
	// ErrNotFound is a catalog or module the server does not hold.
	ErrNotFound = errors.New("not found")
	// ErrUnknownCatalog is a catalog name the server does not serve.
	ErrUnknownCatalog = fmt.Errorf("%w: unknown catalog", ErrNotFound)
	// ErrUnsupported is a request this server is not set up to answer,
	// such as an inline catalog without a catalog parser.
	ErrUnsupported = errors.New("unsupported")
)

// internalMessage is all a client learns of an internal error; the error
// itself goes to the log.
const internalMessage = "internal error; the server log has the details"

// toStatus maps a handler's error to the gRPC status the client sees. It
// is the one place that decides codes (STYLE 8). An unsatisfiable answer
// is never an error, so it never gets here.
func toStatus(log *slog.Logger, method string, err error) error {
	var grpcErr interface{ GRPCStatus() *status.Status }
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, ErrUnsupported):
		return status.Error(codes.Unimplemented, err.Error())
	case errors.Is(err, model.ErrInvalidInput):
		return invalidArgument(err)
	case errors.Is(err, ErrOverloaded), errors.Is(err, model.ErrTooLarge):
		return resourceExhausted(err)
	case errors.As(err, &grpcErr):
		return err // already a status, e.g. from a failed Send
	}
	log.Error("internal error", "method", method, "error", err)
	return status.Error(codes.Internal, internalMessage)
}

// resourceExhausted is ResourceExhausted for a call beyond one of the
// server's bounds. An overloaded server adds a google.rpc.RetryInfo with
// its retry hint; a request over the memory limit, which a retry does not
// help, adds a google.rpc.ErrorInfo with the limit and the estimate.
func resourceExhausted(err error) error {
	st := status.New(codes.ResourceExhausted, err.Error())
	var over *OverloadedError
	var mem *model.MemoryLimitError
	var detail protoadapt.MessageV1
	switch {
	case errors.As(err, &over):
		detail = &errdetails.RetryInfo{RetryDelay: durationpb.New(over.RetryAfter)}
	case errors.As(err, &mem):
		detail = &errdetails.ErrorInfo{Reason: "MEMORY_LIMIT", Domain: ServiceName, Metadata: map[string]string{
			"limitBytes": strconv.FormatInt(mem.Limit, 10), "estimateBytes": strconv.FormatInt(mem.Estimate, 10)}}
	default:
		return st.Err()
	}
	withDetails, detailErr := st.WithDetails(detail)
	if detailErr != nil {
		return st.Err()
	}
	return withDetails.Err()
}

// invalidArgument is InvalidArgument with one BadRequest field violation
// per problem found in err.
func invalidArgument(err error) error {
	vs := violations(err, "")
	st := status.New(codes.InvalidArgument, describe(err, vs))
	if len(vs) == 0 {
		return st.Err()
	}
	withDetails, detailErr := st.WithDetails(&errdetails.BadRequest{FieldViolations: vs})
	if detailErr != nil {
		return st.Err()
	}
	return withDetails.Err()
}

// describe renders bad input as "field: what is wrong", one per
// violation, or as err's own message when it names no field.
func describe(err error, vs []*errdetails.BadRequest_FieldViolation) string {
	if len(vs) == 0 {
		return err.Error()
	}
	msgs := make([]string, len(vs))
	for i, v := range vs {
		msgs[i] = v.GetField() + ": " + v.GetDescription()
	}
	return strings.Join(msgs, "; ")
}

// violations walks err's tree (model.InputErrors, errors.Join and %w
// chains) for *model.FieldError and *model.ConstraintError. A field error
// that holds more of them, such as an inline catalog with several
// problems, gives one violation for each, all under its own field: the
// inner paths point into a document, not into the request. field, when
// not empty, is that outer field.
func violations(err error, field string) []*errdetails.BadRequest_FieldViolation {
	var fe *model.FieldError
	var ce *model.ConstraintError
	switch {
	case asDirect(err, &fe) && field != "":
		// Inside another field: fe's own path goes into the description.
		if inner := violations(fe.Err, field); len(inner) > 0 {
			return inner
		}
		return []*errdetails.BadRequest_FieldViolation{{Field: field, Description: fe.Error()}}
	case asDirect(err, &fe):
		field = protoField(fe.Path)
		if inner := violations(fe.Err, field); len(inner) > 0 {
			return inner
		}
		return []*errdetails.BadRequest_FieldViolation{{Field: field, Description: fe.Err.Error()}}
	case asDirect(err, &ce):
		if field == "" {
			field = "catalog"
		}
		return []*errdetails.BadRequest_FieldViolation{{Field: field, Description: ce.Error()}}
	}
	var out []*errdetails.BadRequest_FieldViolation
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, violations(e, field)...)
		}
	case interface{ Unwrap() error }:
		out = violations(u.Unwrap(), field)
	}
	return out
}

// asDirect is errors.As for err itself, without following its chain, so
// that violations sees every error of a tree exactly once.
func asDirect[T error](err error, target *T) bool {
	t, ok := err.(T)
	if ok {
		*target = t
	}
	return ok
}

// protoField renders a model path as the request's proto field path:
// named fields in snake_case, map keys quoted in brackets, list indexes
// and items in brackets. cluster.releaseChannel becomes
// "cluster.release_channel", the version of module x in the cluster
// `cluster.modules["x"].version`, request.enable's third entry
// "request.enable[2]". The path's steps say which is which; nothing is
// parsed back from a string (STYLE 17).
func protoField(path model.Path) string {
	var b strings.Builder
	for i, step := range path {
		switch step.Kind {
		case model.StepKey:
			b.WriteString("[" + strconv.Quote(step.Name) + "]")
		case model.StepIndex:
			b.WriteString("[" + strconv.Itoa(step.Index) + "]")
		case model.StepItem:
			b.WriteString("[" + step.Name + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(snakeCase(step.Name))
		}
	}
	return b.String()
}

// snakeCase lowers a camelCase field name: "updateAll" becomes
// "update_all"; a name already in snake_case stays as it is.
func snakeCase(name string) string {
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
