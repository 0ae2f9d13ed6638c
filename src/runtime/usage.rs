//! What a running container uses: CPU and memory, as the kubelet's resource metrics report them.
//!
//! Real counterpart: none in code — on a real node cAdvisor (through the CRI's
//! `ListContainerStats`) reads each container's cgroup: `cpuacct` usage in nanoseconds and the
//! memory working set. kubesim runs no processes, so each container has a usage profile: an idle
//! floor from the image catalogue (about what `kubectl top` shows for the image at rest), and a
//! cost per request per second for the traffic `sim load` sends to it.
//!
//! The teaching image `kubesim/app` takes its profile from its environment: `CPU_MILLIS` (idle
//! millicores, default 1), `MEMORY_MB` (idle MiB, default 6), `CPU_PER_REQUEST` (millicores for
//! each request per second, default 1) and its `LEAK_MB_PER_S` growth.

/// A container's usage profile.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Profile {
    /// millicores at rest
    pub idle_milli: f64,
    /// MiB at rest
    pub idle_mib: f64,
    /// millicores for each request per second it serves
    pub milli_per_rps: f64,
    /// MiB the working set grows each second (the teaching image's leak)
    pub leak_mib_per_s: f64,
}

/// (repository without `docker.io/library/`, idle millicores, idle MiB, millicores per request/s):
/// rough figures of each image at rest.
const CATALOGUE: &[(&str, f64, f64, f64)] = &[
    ("nginx", 0.0, 3.0, 0.2),
    ("httpd", 1.0, 8.0, 0.3),
    ("traefik", 1.0, 24.0, 0.2),
    ("redis", 2.0, 3.0, 0.1),
    ("memcached", 1.0, 2.0, 0.1),
    ("postgres", 1.0, 26.0, 0.5),
    ("mysql", 5.0, 380.0, 0.5),
    ("python", 1.0, 12.0, 1.0),
    ("node", 1.0, 30.0, 0.5),
    ("busybox", 0.0, 0.4, 0.0),
    ("alpine", 0.0, 0.4, 0.0),
    ("ubuntu", 0.0, 0.6, 0.0),
    ("registry.k8s.io/coredns/coredns", 2.0, 13.0, 0.1),
    ("registry.k8s.io/metrics-server/metrics-server", 3.0, 18.0, 0.0),
    ("registry.k8s.io/ingress-nginx/controller", 2.0, 90.0, 0.2),
    ("registry.k8s.io/echoserver", 1.0, 6.0, 0.3),
    ("gcr.io/google-samples/hello-app", 0.0, 2.0, 0.2),
    ("registry.k8s.io/e2e-test-images/agnhost", 1.0, 8.0, 0.3),
    ("registry.k8s.io/nginx-slim", 0.0, 2.0, 0.2),
    ("quay.io/fluentd_elasticsearch/fluentd", 4.0, 90.0, 0.0),
];

/// The profile of a container running `image` with environment `env`.
pub fn profile(image: &str, env: &[(String, String)]) -> Profile {
    let repo = image.split('@').next().unwrap_or(image);
    let repo = match repo.rsplit_once(':') {
        Some((r, tag)) if !tag.contains('/') => r,
        _ => repo,
    };
    let repo = repo.trim_start_matches("docker.io/").trim_start_matches("library/");
    if repo == super::program::TEACHING_IMAGE {
        let num = |k: &str, d: f64| env.iter().find(|(n, _)| n == k).and_then(|(_, v)| v.trim().parse::<f64>().ok()).filter(|v| *v >= 0.0).unwrap_or(d);
        return Profile { idle_milli: num("CPU_MILLIS", 1.0), idle_mib: num("MEMORY_MB", 6.0), milli_per_rps: num("CPU_PER_REQUEST", 1.0), leak_mib_per_s: num("LEAK_MB_PER_S", 0.0) };
    }
    match CATALOGUE.iter().find(|(r, ..)| *r == repo) {
        Some((_, cpu, mem, per)) => Profile { idle_milli: *cpu, idle_mib: *mem, milli_per_rps: *per, leak_mib_per_s: 0.0 },
        // an image kubesim does not know: a small long-running process
        None => Profile { idle_milli: 1.0, idle_mib: 10.0, milli_per_rps: 0.5, leak_mib_per_s: 0.0 },
    }
}

impl Profile {
    /// Millicores in use while serving `rps` requests a second.
    pub fn cpu_milli(&self, rps: f64) -> f64 {
        self.idle_milli + self.milli_per_rps * rps.max(0.0)
    }

    /// The working set in bytes, `running_ms` after the container started, serving `rps`
    /// (each request in flight holds a little memory: 64 KiB per request a second).
    pub fn memory_bytes(&self, running_ms: i64, rps: f64) -> i64 {
        let mib = self.idle_mib + self.leak_mib_per_s * running_ms.max(0) as f64 / 1000.0 + rps.max(0.0) / 16.0;
        (mib * 1024.0 * 1024.0) as i64
    }
}

/// What the node itself uses besides its Pods (the kubelet, containerd, the kernel and system
/// daemons): millicores and bytes.
pub const NODE_OVERHEAD_MILLI: f64 = 38.0;
pub const NODE_OVERHEAD_BYTES: i64 = 412 * 1024 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_from_the_catalogue_and_the_teaching_image() {
        assert_eq!(profile("nginx:1.25", &[]).idle_mib, 3.0);
        assert_eq!(profile("docker.io/library/nginx:1.25", &[]).idle_mib, 3.0);
        assert_eq!(profile("registry.k8s.io/coredns/coredns:v1.12.1", &[]).idle_milli, 2.0);
        let env = vec![("CPU_MILLIS".to_string(), "5".to_string()), ("CPU_PER_REQUEST".to_string(), "2".to_string())];
        let p = profile("kubesim/app:1", &env);
        assert_eq!(p.cpu_milli(100.0), 205.0);
        assert_eq!(profile("kubesim/app:1", &[]).cpu_milli(0.0), 1.0);
        assert_eq!(profile("example.com/unknown:1", &[]).idle_milli, 1.0);
    }
}
