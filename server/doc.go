// Package server serves modsolver over gRPC and owns the conversion between
// model and proto types and the single error→status mapping.
//
// For now it holds only the conversion from model results to proto messages
// and their JSON rendering; the gRPC service comes later.
package server
