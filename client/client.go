// Package client is the Go client of modsolver's gRPC service, for
// operators and other programs that run beside it in a cluster.
//
// New dials a target such as "dns:///modsolver-headless.NS.svc:50051"
// (a headless Service, so that DNS returns every replica) and configures
// the connection through gRPC's own service config: round-robin
// balancing over the replicas, client-side health checking on the
// standard health service (a replica that is shutting down leaves the
// rotation), and retries of calls that fail with UNAVAILABLE, which every
// modsolver call may safely be retried on: the service is stateless.
// gRPC retries a call only until the replica has begun to answer it; a
// replica that dies in that moment fails the call with UNAVAILABLE
// although nothing was answered, so a unary call that fails so is made
// again, twice at most, on whichever replica the balancer picks then
// (go-grpc-middleware's retry interceptor).
//
// An unsatisfiable request is an answer, not an error: Resolve returns it
// with Unsatisfiable() true and its explanation. Errors are what the
// service could not answer: bad input (InvalidArgument), an unknown
// catalog or module (NotFound), deadlines, and transport failures.
package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/health" // client-side health checking
	"google.golang.org/grpc/keepalive"

	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
)

// ServiceName is the full name of the service, as health checks name it.
const ServiceName = "modsolver.v1.Resolver"

// ServiceConfig is the gRPC service config every client uses: round-robin
// over the resolved addresses, health checking of each on ServiceName,
// and up to four attempts of a call that fails with UNAVAILABLE.
const ServiceConfig = `{
  "loadBalancingConfig": [{"round_robin": {}}],
  "healthCheckConfig": {"serviceName": "modsolver.v1.Resolver"},
  "methodConfig": [{
    "name": [{"service": "modsolver.v1.Resolver"}],
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.05s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }]
}`

// callAttempts is how many times a unary call that fails with
// UNAVAILABLE is made in all, each with gRPC's own retries (ServiceConfig).
const callAttempts = 3

// Option tunes New.
type Option func(*options)

type options struct {
	creds credentials.TransportCredentials
	dial  []grpc.DialOption
}

// WithTLS dials with TLS; cfg carries the CA to trust (RootCAs) and, for
// mutual TLS, the client's certificate. Without it or
// WithTransportCredentials, the client dials in plaintext.
func WithTLS(cfg *tls.Config) Option {
	return func(o *options) { o.creds = credentials.NewTLS(cfg) }
}

// WithTransportCredentials dials with creds.
func WithTransportCredentials(creds credentials.TransportCredentials) Option {
	return func(o *options) { o.creds = creds }
}

// WithDialOptions adds options to the connection, such as a resolver of
// one's own (grpc.WithResolvers).
func WithDialOptions(opts ...grpc.DialOption) Option {
	return func(o *options) { o.dial = append(o.dial, opts...) }
}

// Client calls modsolver. It is safe for concurrent use; make one and
// share it.
type Client struct {
	conn *grpc.ClientConn
	rpc  modsolverv1.ResolverClient
}

// New returns a client of target, in gRPC's name syntax:
// "dns:///host:port" for a headless Service. It does not connect until
// the first call.
func New(target string, opts ...Option) (*Client, error) {
	o := options{creds: insecure.NewCredentials()}
	for _, opt := range opts {
		opt(&o)
	}
	dial := append([]grpc.DialOption{
		grpc.WithTransportCredentials(o.creds),
		grpc.WithDefaultServiceConfig(ServiceConfig),
		grpc.WithDisableServiceConfig(), // DNS TXT records do not override ours
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 30 * time.Second, Timeout: 10 * time.Second, PermitWithoutStream: true}),
		grpc.WithChainUnaryInterceptor(retry.UnaryClientInterceptor(
			retry.WithCodes(codes.Unavailable),
			retry.WithMax(callAttempts-1),
			retry.WithBackoff(retry.BackoffExponential(50*time.Millisecond)),
		)),
	}, o.dial...)
	conn, err := grpc.NewClient(target, dial...)
	if err != nil {
		return nil, fmt.Errorf("modsolver client: %w", err)
	}
	return &Client{conn: conn, rpc: modsolverv1.NewResolverClient(conn)}, nil
}

// Close closes the connections.
func (c *Client) Close() error { return c.conn.Close() }

// Answer is the answer to a resolution: resolved, or unsatisfiable with
// an explanation.
type Answer struct {
	*modsolverv1.ResolveResponse
}

// Resolved reports whether the request resolved.
func (a Answer) Resolved() bool { return a.GetStatus() == modsolverv1.Status_STATUS_RESOLVED }

// Unsatisfiable reports whether the request cannot be met; the
// explanation says why.
func (a Answer) Unsatisfiable() bool {
	return a.GetStatus() == modsolverv1.Status_STATUS_UNSATISFIABLE
}

// Resolve resolves one request.
func (c *Client) Resolve(ctx context.Context, req *modsolverv1.ResolveRequest) (Answer, error) {
	resp, err := c.rpc.Resolve(ctx, req)
	if err != nil {
		return Answer{}, err
	}
	return Answer{resp}, nil
}

// Explain explains a request that is known to fail.
func (c *Client) Explain(ctx context.Context, req *modsolverv1.ExplainRequest) (*modsolverv1.ExplainResponse, error) {
	return c.rpc.Explain(ctx, req)
}

// WhatIf answers a batch of scenarios, calling each once per scenario in
// order; a scenario that was bad input carries its error in its result.
// An error from each stops the batch and is returned.
func (c *Client) WhatIf(ctx context.Context, req *modsolverv1.WhatIfRequest, each func(*modsolverv1.WhatIfResult) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := c.rpc.WhatIf(ctx, req)
	if err != nil {
		return err
	}
	for {
		res, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := each(res); err != nil {
			return err
		}
	}
}

// ListCatalogs lists the served catalogs.
func (c *Client) ListCatalogs(ctx context.Context) ([]*modsolverv1.CatalogInfo, error) {
	resp, err := c.rpc.ListCatalogs(ctx, &modsolverv1.ListCatalogsRequest{})
	return resp.GetCatalogs(), err
}

// GetModule describes one module of a catalog ("" for the default one).
func (c *Client) GetModule(ctx context.Context, catalog, module string) (*modsolverv1.Module, error) {
	resp, err := c.rpc.GetModule(ctx, &modsolverv1.GetModuleRequest{CatalogName: catalog, Name: module})
	return resp.GetModule(), err
}
