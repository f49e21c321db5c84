// Package deploy_test renders the kustomizations in deploy/ in-process,
// decodes every object strictly into the Kubernetes API types and checks
// that the pieces fit: selectors, ports, probes, volumes, and the flags
// of the binary itself.
package deploy_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/modsolver/modsolver/catalog"
)

// binary is modsolver built once for the flag checks.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "modsolver-deploy")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "modsolver")
	build := exec.Command("go", "build", "-o", binary, "../cmd/modsolver")
	build.Stderr = os.Stderr
	code := 1
	if err := build.Run(); err == nil {
		code = m.Run()
	} else {
		fmt.Fprintln(os.Stderr, "deploy test: go build:", err)
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// objects is one rendered kustomization, decoded.
type objects struct {
	deployments []*appsv1.Deployment
	jobs        []*batchv1.Job
	services    []*corev1.Service
	configMaps  []*corev1.ConfigMap
	pdbs        []*policyv1.PodDisruptionBudget
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	policies    []*networkingv1.NetworkPolicy
}

var decoder = func() runtime.Decoder {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{appsv1.AddToScheme, batchv1.AddToScheme, corev1.AddToScheme,
		policyv1.AddToScheme, autoscalingv2.AddToScheme, networkingv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}()

// render builds the kustomization in dir and decodes every object
// strictly: an unknown or duplicate field, or an unknown kind, fails.
func render(t *testing.T, dir string) *objects {
	t.Helper()
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	res, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), abs)
	require.NoError(t, err)
	out := &objects{}
	for _, r := range res.Resources() {
		data, err := r.AsYAML()
		require.NoError(t, err)
		obj, gvk, err := decoder.Decode(data, nil, nil)
		require.NoError(t, err, "%s: strict decoding:\n%s", r.CurId(), data)
		switch o := obj.(type) {
		case *appsv1.Deployment:
			out.deployments = append(out.deployments, o)
		case *batchv1.Job:
			out.jobs = append(out.jobs, o)
		case *corev1.Service:
			out.services = append(out.services, o)
		case *corev1.ConfigMap:
			out.configMaps = append(out.configMaps, o)
		case *policyv1.PodDisruptionBudget:
			out.pdbs = append(out.pdbs, o)
		case *autoscalingv2.HorizontalPodAutoscaler:
			out.hpas = append(out.hpas, o)
		case *networkingv1.NetworkPolicy:
			out.policies = append(out.policies, o)
		default:
			t.Errorf("%s: no check covers this kind", gvk)
		}
	}
	return out
}

func TestBase(t *testing.T) {
	objs := render(t, "base")
	d := checkServing(t, objs)
	c := d.Spec.Template.Spec.Containers[0]
	require.NotNil(t, c.ReadinessProbe.GRPC, "native gRPC readiness probe")
	require.NotNil(t, c.LivenessProbe.GRPC, "native gRPC liveness probe")
	assert.Equal(t, "modsolver.v1.Resolver", *c.ReadinessProbe.GRPC.Service, "readiness asks for the Resolver service")
	assert.Equal(t, "registry.example.com/modsolver:dev", c.Image)
}

func TestOverlayMTLS(t *testing.T) {
	objs := render(t, "overlays/mtls")
	d := checkServing(t, objs)
	c := d.Spec.Template.Spec.Containers[0]
	for _, flag := range []string{"--tls-cert-file=", "--tls-private-key-file=", "--client-ca-file="} {
		assert.True(t, slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, flag) }), "args set %s", flag)
	}
	for name, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		require.NotNil(t, p.HTTPGet, "%s probe is HTTP: kubelet's gRPC probes cannot speak TLS", name)
		assert.Nil(t, p.GRPC, name)
		assert.Equal(t, "metrics", p.HTTPGet.Port.String(), name)
	}
	assert.Equal(t, "/readyz", c.ReadinessProbe.HTTPGet.Path)
	assert.Equal(t, "/healthz", c.LivenessProbe.HTTPGet.Path)
	secret := volume(t, d.Spec.Template.Spec, "tls")
	require.NotNil(t, secret.Secret)
	assert.Equal(t, "modsolver-tls", secret.Secret.SecretName)
}

func TestWhatIfJob(t *testing.T) {
	objs := render(t, "jobs")
	require.Len(t, objs.jobs, 1)
	job := objs.jobs[0]
	require.NotNil(t, job.Spec.CompletionMode)
	assert.Equal(t, batchv1.IndexedCompletion, *job.Spec.CompletionMode)
	spec := job.Spec.Template.Spec
	require.Len(t, spec.Containers, 1)
	c := spec.Containers[0]
	shards := ""
	for _, e := range c.Env {
		if e.Name == "MODSOLVER_SHARDS" {
			shards = e.Value
		}
	}
	assert.Equal(t, strconv.Itoa(int(*job.Spec.Completions)), shards, "MODSOLVER_SHARDS equals the completions")
	checkPod(t, objs, spec, job.Spec.Template.Labels)
}

// checkServing checks the serving objects of a rendered kustomization
// and returns its Deployment.
func checkServing(t *testing.T, objs *objects) *appsv1.Deployment {
	t.Helper()
	require.Len(t, objs.deployments, 1)
	d := objs.deployments[0]
	pod := d.Spec.Template.Labels
	assert.True(t, matches(t, d.Spec.Selector, pod), "the Deployment's selector matches its pods")
	spec := d.Spec.Template.Spec
	checkPod(t, objs, spec, pod)
	c := spec.Containers[0]
	assert.Equal(t, "serve", c.Args[0])
	assert.Equal(t, strconv.Itoa(int(port(t, c, intstr.FromString("metrics")))), d.Spec.Template.Annotations["prometheus.io/port"],
		"the scrape annotation names the metrics port")
	assert.NotZero(t, c.Resources.Requests.Cpu().MilliValue(), "a CPU request, which the HPA scales on")
	checkGC(t, c)

	var headless, clusterIP int
	for _, s := range objs.services {
		assert.True(t, matches(t, &metav1.LabelSelector{MatchLabels: s.Spec.Selector}, pod), "Service %s selects the pods", s.Name)
		for _, p := range s.Spec.Ports {
			port(t, c, p.TargetPort)
		}
		if s.Spec.ClusterIP == corev1.ClusterIPNone {
			headless++
		} else {
			clusterIP++
		}
	}
	assert.Equal(t, 1, headless, "one headless Service, for client-side balancing")
	assert.Equal(t, 1, clusterIP, "one ClusterIP Service")

	require.Len(t, objs.pdbs, 1)
	assert.True(t, matches(t, objs.pdbs[0].Spec.Selector, pod), "the PodDisruptionBudget selects the pods")
	require.Len(t, objs.hpas, 1)
	ref := objs.hpas[0].Spec.ScaleTargetRef
	assert.Equal(t, [2]string{"Deployment", d.Name}, [2]string{ref.Kind, ref.Name}, "the HPA scales the Deployment")
	assert.GreaterOrEqual(t, *objs.hpas[0].Spec.MinReplicas, int32(2))
	require.Len(t, objs.policies, 1)
	np := objs.policies[0]
	assert.True(t, matches(t, &np.Spec.PodSelector, pod), "the NetworkPolicy selects the pods")
	for _, rule := range np.Spec.Ingress {
		for _, p := range rule.Ports {
			port(t, c, *p.Port)
		}
	}
	return d
}

// checkPod checks what every pod of modsolver must be: non-root on a
// read-only root with no capabilities, resources set, every mount backed
// by a volume, every ConfigMap rendered (and its catalogs parse), every
// probe on a container port, and args the binary accepts.
func checkPod(t *testing.T, objs *objects, spec corev1.PodSpec, podLabels map[string]string) {
	t.Helper()
	require.NotEmpty(t, podLabels)
	require.NotNil(t, spec.SecurityContext)
	require.NotNil(t, spec.SecurityContext.RunAsNonRoot)
	assert.True(t, *spec.SecurityContext.RunAsNonRoot, "runAsNonRoot")
	require.NotNil(t, spec.SecurityContext.RunAsUser)
	assert.NotZero(t, *spec.SecurityContext.RunAsUser, "a non-root user")
	for _, c := range spec.Containers {
		sc := c.SecurityContext
		require.NotNil(t, sc, c.Name)
		assert.True(t, sc.ReadOnlyRootFilesystem != nil && *sc.ReadOnlyRootFilesystem, "%s: read-only root filesystem", c.Name)
		assert.True(t, sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation, "%s: no privilege escalation", c.Name)
		require.NotNil(t, sc.Capabilities, c.Name)
		assert.Equal(t, []corev1.Capability{"ALL"}, sc.Capabilities.Drop, "%s: every capability dropped", c.Name)
		assert.Empty(t, sc.Capabilities.Add, c.Name)
		assert.False(t, c.Resources.Requests.Memory().IsZero(), "%s: a memory request", c.Name)
		assert.False(t, c.Resources.Limits.Memory().IsZero(), "%s: a memory limit", c.Name)
		for _, m := range c.VolumeMounts {
			v := volume(t, spec, m.Name)
			if v.ConfigMap != nil {
				checkConfigMap(t, objs, v.ConfigMap.Name, m.MountPath)
			}
		}
		for _, p := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe, c.StartupProbe} {
			switch {
			case p == nil:
			case p.GRPC != nil:
				port(t, c, intstr.FromInt32(p.GRPC.Port))
			case p.HTTPGet != nil:
				port(t, c, p.HTTPGet.Port)
			default:
				t.Errorf("%s: a probe that is neither gRPC nor HTTP", c.Name)
			}
		}
		checkArgs(t, c.Args)
	}
}

// checkConfigMap checks that the ConfigMap is rendered and that every
// catalog or cluster file in it parses.
func checkConfigMap(t *testing.T, objs *objects, name, mountPath string) {
	t.Helper()
	i := slices.IndexFunc(objs.configMaps, func(cm *corev1.ConfigMap) bool { return cm.Name == name })
	require.GreaterOrEqual(t, i, 0, "ConfigMap %s is rendered", name)
	for file, data := range objs.configMaps[i].Data {
		var err error
		if file == "cluster.yaml" {
			_, err = catalog.ParseCluster(file, []byte(data))
		} else {
			_, _, err = catalog.Parse(file, []byte(data))
		}
		assert.NoError(t, err, "%s/%s", mountPath, file)
	}
}

// checkArgs runs the binary with the container's args and --help: the
// flag parser refuses a flag the command lacks or a value it cannot
// parse before it reaches --help.
func checkArgs(t *testing.T, args []string) {
	t.Helper()
	require.NotEmpty(t, args)
	cmd := exec.Command(binary, append(slices.Clone(args), "--help")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Errorf("modsolver %s: exit %d: %s", strings.Join(args, " "), exit.ExitCode(), stderr.String())
		return
	}
	require.NoError(t, err)
}

func volume(t *testing.T, spec corev1.PodSpec, name string) corev1.Volume {
	t.Helper()
	i := slices.IndexFunc(spec.Volumes, func(v corev1.Volume) bool { return v.Name == name })
	require.GreaterOrEqual(t, i, 0, "volume %s exists", name)
	return spec.Volumes[i]
}

// port resolves a port by name or number to one of c's container ports.
func port(t *testing.T, c corev1.Container, p intstr.IntOrString) int32 {
	t.Helper()
	for _, cp := range c.Ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return cp.ContainerPort
		}
	}
	t.Errorf("port %s is not a port of container %s", p.String(), c.Name)
	return 0
}

func matches(t *testing.T, sel *metav1.LabelSelector, podLabels map[string]string) bool {
	t.Helper()
	require.NotNil(t, sel)
	s, err := metav1.LabelSelectorAsSelector(sel)
	require.NoError(t, err)
	return !s.Empty() && s.Matches(labels.Set(podLabels))
}

// checkGC checks the garbage collector's settings (D114): GOGC is a
// number, and GOMEMLIMIT, a soft limit in Go's syntax, lies between 70%
// and 95% of the container's memory limit, so that the collector works
// harder before the container is killed and the heap still has room.
func checkGC(t *testing.T, c corev1.Container) {
	t.Helper()
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	_, err := strconv.Atoi(env["GOGC"])
	assert.NoError(t, err, "GOGC %q", env["GOGC"])
	limit := goMemLimit(t, env["GOMEMLIMIT"])
	hard := c.Resources.Limits.Memory().Value()
	assert.Greater(t, limit, hard*70/100, "GOMEMLIMIT %s leaves too much of limits.memory %s unused", env["GOMEMLIMIT"], c.Resources.Limits.Memory())
	assert.Less(t, limit, hard*95/100, "GOMEMLIMIT %s leaves too little room below limits.memory %s", env["GOMEMLIMIT"], c.Resources.Limits.Memory())
}

// goMemLimit reads a GOMEMLIMIT value: an integer and a unit, B, KiB,
// MiB or GiB.
func goMemLimit(t *testing.T, text string) int64 {
	t.Helper()
	for _, u := range []struct {
		suffix string
		scale  int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if num, ok := strings.CutSuffix(text, u.suffix); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			require.NoError(t, err, "GOMEMLIMIT %q", text)
			return n * u.scale
		}
	}
	t.Fatalf("GOMEMLIMIT %q: want an integer and B, KiB, MiB or GiB", text)
	return 0
}
