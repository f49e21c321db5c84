package server

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/tls/certprovider"
	"google.golang.org/grpc/credentials/tls/certprovider/pemfile"
)

// DefaultTLSRefresh is how often the TLS files are read again.
const DefaultTLSRefresh = time.Minute

// TLSFiles names the PEM files of the server's TLS identity and, for
// mutual TLS, of the certificate authorities its clients must present a
// certificate from.
type TLSFiles struct {
	CertFile, KeyFile string
	// ClientCAFile turns on mutual TLS: a client without a certificate
	// signed by one of these CAs is refused.
	ClientCAFile string
	// MinVersion is the lowest TLS version accepted (default TLS 1.2).
	MinVersion uint16
	// Refresh is how often the files are read again (default
	// DefaultTLSRefresh). A changed file takes effect for the next
	// handshake; connections already open keep theirs.
	Refresh time.Duration
}

// TLSCredentials returns gRPC transport credentials that serve the
// identity in f and keep it current as the files change, the symlink
// swap of a mounted Kubernetes Secret included. The files are watched by
// gRPC's pemfile certificate provider; every handshake reads the
// provider's latest key material through tls.Config.GetConfigForClient,
// so verification stays crypto/tls's own. Call stop to end the watching.
func TLSCredentials(f TLSFiles) (creds credentials.TransportCredentials, stop func(), err error) {
	if err := f.check(); err != nil {
		return nil, nil, err
	}
	if f.MinVersion == 0 {
		f.MinVersion = tls.VersionTLS12
	}
	if f.Refresh <= 0 {
		f.Refresh = DefaultTLSRefresh
	}
	prov, err := pemfile.NewProvider(pemfile.Options{CertFile: f.CertFile, KeyFile: f.KeyFile, RootFile: f.ClientCAFile, RefreshDuration: f.Refresh})
	if err != nil {
		return nil, nil, fmt.Errorf("tls: %w", err)
	}
	cfg := &tls.Config{
		MinVersion:         f.MinVersion,
		GetConfigForClient: func(hello *tls.ClientHelloInfo) (*tls.Config, error) { return f.handshakeConfig(hello, prov) },
	}
	return credentials.NewTLS(cfg), prov.Close, nil
}

// handshakeConfig is the configuration of one handshake, from the
// provider's current key material.
func (f TLSFiles) handshakeConfig(hello *tls.ClientHelloInfo, prov certprovider.Provider) (*tls.Config, error) {
	km, err := prov.KeyMaterial(hello.Context())
	if err != nil {
		return nil, fmt.Errorf("tls: no key material: %w", err)
	}
	cfg := &tls.Config{MinVersion: f.MinVersion, Certificates: km.Certs}
	if f.ClientCAFile != "" {
		cfg.ClientCAs = km.Roots
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// check reads the files once, so that a bad one fails at start with its
// name rather than at the first handshake.
func (f TLSFiles) check() error {
	if f.CertFile == "" || f.KeyFile == "" {
		return errors.New("tls: both a certificate file and a private key file are needed")
	}
	if _, err := tls.LoadX509KeyPair(f.CertFile, f.KeyFile); err != nil {
		return fmt.Errorf("tls: %s, %s: %w", f.CertFile, f.KeyFile, err)
	}
	if f.ClientCAFile == "" {
		return nil
	}
	data, err := os.ReadFile(f.ClientCAFile)
	if err != nil {
		return fmt.Errorf("tls: client CA: %w", err)
	}
	if !x509.NewCertPool().AppendCertsFromPEM(data) {
		return fmt.Errorf("tls: client CA %s: no PEM certificate in it", f.ClientCAFile)
	}
	return nil
}

// tlsVersions are the names --tls-min-version takes, as Kubernetes
// components name them.
var tlsVersions = map[string]uint16{
	"VersionTLS12": tls.VersionTLS12,
	"VersionTLS13": tls.VersionTLS13,
}

// ParseTLSVersion reads a TLS version name: VersionTLS12 or
// VersionTLS13. Older versions are refused.
func ParseTLSVersion(name string) (uint16, error) {
	if v, ok := tlsVersions[name]; ok {
		return v, nil
	}
	names := make([]string, 0, len(tlsVersions))
	for n := range tlsVersions {
		names = append(names, n)
	}
	slices.Sort(names)
	return 0, fmt.Errorf("tls version %q: want one of %s", name, strings.Join(names, ", "))
}
