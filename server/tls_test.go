package server_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/modsolver/modsolver/internal/testpki"
	modsolverv1 "github.com/modsolver/modsolver/proto/modsolver/v1"
	"github.com/modsolver/modsolver/server"
)

// pki is a server CA with a serving certificate, a client CA with a
// client certificate, and a stranger CA with one of its own.
type pki struct {
	serverCA, clientCA, strangerCA *testpki.CA
	server                         *testpki.Leaf
	client, stranger               tls.Certificate
}

func newPKI(t *testing.T) *pki {
	t.Helper()
	var p pki
	var err error
	for _, ca := range []**testpki.CA{&p.serverCA, &p.clientCA, &p.strangerCA} {
		*ca, err = testpki.NewCA("test ca")
		require.NoError(t, err)
	}
	p.server, err = p.serverCA.Server("modsolver")
	require.NoError(t, err)
	for cert, ca := range map[*tls.Certificate]*testpki.CA{&p.client: p.clientCA, &p.stranger: p.strangerCA} {
		leaf, err := ca.Client("operator")
		require.NoError(t, err)
		*cert, err = leaf.TLSCertificate()
		require.NoError(t, err)
	}
	return &p
}

// writeSecret mounts the serving certificate and the client CA in dir
// as kubelet mounts a Secret.
func (p *pki) writeSecret(t *testing.T, dir string, leaf *testpki.Leaf) TLSPaths {
	t.Helper()
	require.NoError(t, testpki.WriteSecret(dir, map[string][]byte{"tls.crt": leaf.CertPEM, "tls.key": leaf.KeyPEM, "ca.crt": p.clientCA.CertPEM}))
	return TLSPaths{filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"), filepath.Join(dir, "ca.crt")}
}

// TLSPaths are the mounted files.
type TLSPaths struct{ cert, key, ca string }

// serveTLS serves the tiny catalog on a loopback port with files.
func serveTLS(t *testing.T, files server.TLSFiles) string {
	t.Helper()
	creds, stop, err := server.TLSCredentials(files)
	require.NoError(t, err)
	srv := server.New(demoCatalogs(t), server.WithServerOptions(grpc.Creds(creds)))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		stop()
	})
	return lis.Addr().String()
}

// call lists the catalogs over a new connection with creds.
func call(t *testing.T, addr string, creds credentials.TransportCredentials) error {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(creds))
	require.NoError(t, err)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err = modsolverv1.NewResolverClient(conn).ListCatalogs(ctx, &modsolverv1.ListCatalogsRequest{})
	return err
}

func clientTLS(p *pki, certs ...tls.Certificate) credentials.TransportCredentials {
	return credentials.NewTLS(&tls.Config{RootCAs: testpki.Pool(p.serverCA), ServerName: "localhost", Certificates: certs})
}

func TestMutualTLS(t *testing.T) {
	p := newPKI(t)
	files := p.writeSecret(t, t.TempDir(), p.server)
	addr := serveTLS(t, server.TLSFiles{CertFile: files.cert, KeyFile: files.key, ClientCAFile: files.ca})

	require.NoError(t, call(t, addr, clientTLS(p, p.client)), "a client certificate from the client CA is let in")
	for name, creds := range map[string]credentials.TransportCredentials{
		"plaintext":             insecure.NewCredentials(),
		"no client certificate": clientTLS(p),
		"another CA's client":   clientTLS(p, p.stranger),
	} {
		err := call(t, addr, creds)
		assert.Equal(t, codes.Unavailable, status.Code(err), "%s: %v", name, err)
	}
}

func TestTLSWithoutClientCA(t *testing.T) {
	p := newPKI(t)
	files := p.writeSecret(t, t.TempDir(), p.server)
	addr := serveTLS(t, server.TLSFiles{CertFile: files.cert, KeyFile: files.key, MinVersion: tls.VersionTLS13})

	require.NoError(t, call(t, addr, clientTLS(p)), "without --client-ca-file no client certificate is needed")
	assert.Equal(t, codes.Unavailable, status.Code(call(t, addr, insecure.NewCredentials())), "plaintext is refused")
	tls12 := credentials.NewTLS(&tls.Config{RootCAs: testpki.Pool(p.serverCA), ServerName: "localhost", MaxVersion: tls.VersionTLS12})
	assert.Equal(t, codes.Unavailable, status.Code(call(t, addr, tls12)), "below the minimum version is refused")
}

// TestTLSRotation swaps the mounted Secret, as cert-manager and kubelet
// do, and expects new handshakes to present the new certificate while a
// connection opened before keeps working.
func TestTLSRotation(t *testing.T) {
	p := newPKI(t)
	dir := t.TempDir()
	files := p.writeSecret(t, dir, p.server)
	addr := serveTLS(t, server.TLSFiles{CertFile: files.cert, KeyFile: files.key, ClientCAFile: files.ca, Refresh: 20 * time.Millisecond})
	assert.Equal(t, p.server.Cert.SerialNumber, servedCert(t, addr, p).SerialNumber)

	before, err := grpc.NewClient(addr, grpc.WithTransportCredentials(clientTLS(p, p.client)))
	require.NoError(t, err)
	defer before.Close()
	rpc := modsolverv1.NewResolverClient(before)
	_, err = rpc.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	require.NoError(t, err)

	next, err := p.serverCA.Server("modsolver rotated")
	require.NoError(t, err)
	p.writeSecret(t, dir, next)
	require.Eventually(t, func() bool { return servedCert(t, addr, p).SerialNumber.Cmp(next.Cert.SerialNumber) == 0 },
		5*time.Second, 20*time.Millisecond, "the rotated certificate is served")

	_, err = rpc.ListCatalogs(t.Context(), &modsolverv1.ListCatalogsRequest{})
	require.NoError(t, err, "a connection opened before the rotation keeps working")
}

// servedCert is the certificate a new handshake presents.
func servedCert(t *testing.T, addr string, p *pki) *x509.Certificate {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: testpki.Pool(p.serverCA), ServerName: "localhost",
		Certificates: []tls.Certificate{p.client}, NextProtos: []string{"h2"}})
	require.NoError(t, err)
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0]
}

func TestTLSBadFiles(t *testing.T) {
	p := newPKI(t)
	files := p.writeSecret(t, t.TempDir(), p.server)
	for name, f := range map[string]server.TLSFiles{
		"no key":          {CertFile: files.cert},
		"missing cert":    {CertFile: files.cert + ".missing", KeyFile: files.key},
		"key as cert":     {CertFile: files.key, KeyFile: files.key},
		"missing CA":      {CertFile: files.cert, KeyFile: files.key, ClientCAFile: files.ca + ".missing"},
		"CA with no cert": {CertFile: files.cert, KeyFile: files.key, ClientCAFile: files.key},
	} {
		_, _, err := server.TLSCredentials(f)
		assert.Error(t, err, name)
	}
}

func TestParseTLSVersion(t *testing.T) {
	v, err := server.ParseTLSVersion("VersionTLS13")
	require.NoError(t, err)
	assert.Equal(t, uint16(tls.VersionTLS13), v)
	for _, bad := range []string{"", "VersionTLS10", "VersionTLS11", "1.2"} {
		_, err := server.ParseTLSVersion(bad)
		assert.Error(t, err, bad)
	}
}
