//! The container runtime: a containerd-like CRI implementation with a built-in image registry.
//!
//! Real counterparts: the CRI API (`k8s.io/cri-api/pkg/apis/runtime/v1`: RuntimeService
//! `RunPodSandbox`, `CreateContainer`, `StartContainer`, `StopContainer`, `RemovePodSandbox`;
//! ImageService `PullImage`, `ImageStatus`) as containerd 2.x serves it, and a container registry
//! (Docker Hub) behind it.
//!
//! kubesim's runtime does not run anything: it answers the kubelet's CRI calls with plausible
//! durations (pulls take time proportional to the image size) and the error a registry gives for
//! a tag that does not exist of an image the catalogue knows (`nginx:1.99`). An image the
//! catalogue does not know is pulled with a size and digest derived from its name, and runs as a
//! long-running process ([`program`]). Every call is recorded in the trace by the kubelet's [`Ctx`](crate::cluster::Ctx).

use std::collections::BTreeMap;
use crate::sim::sort::CompactSort;

pub mod cni;
pub mod exec;
pub mod nettools;
pub mod program;
pub mod usage;
pub use program::Behavior;

/// A well-known image: repository (normalized), tag, compressed size in bytes.
pub struct KnownImage {
    pub repo: &'static str,
    pub tags: &'static [(&'static str, i64)],
}

/// The built-in registry. Sizes are the compressed linux/amd64 sizes Docker Hub reports (rounded).
pub const REGISTRY: &[KnownImage] = &[
    // nginx 1.28 (the stable line since 2025): size approximate
    KnownImage { repo: "docker.io/library/nginx", tags: &[("1.14.2", 44_710_204), ("1.16.1", 51_033_547), ("1.25", 70_544_635), ("1.27", 72_955_450), ("1.28", 72_581_214), ("1.29", 72_225_394), ("stable", 72_955_450), ("alpine", 21_540_184), ("latest", 72_225_394)] },
    KnownImage { repo: "docker.io/library/busybox", tags: &[("1.36", 2_155_024), ("1.37", 2_162_110), ("latest", 2_162_110)] },
    KnownImage { repo: "docker.io/library/redis", tags: &[("6.2", 40_171_553), ("7", 45_337_290), ("7.2", 45_337_290), ("alpine", 17_233_210), ("latest", 49_111_530)] },
    KnownImage { repo: "docker.io/library/httpd", tags: &[("2.4", 58_402_218), ("latest", 58_402_218)] },
    KnownImage { repo: "docker.io/library/alpine", tags: &[("3.20", 3_626_496), ("3.22", 3_799_552), ("latest", 3_799_552)] },
    KnownImage { repo: "docker.io/library/ubuntu", tags: &[("22.04", 29_535_004), ("24.04", 29_752_931), ("latest", 29_752_931)] },
    KnownImage { repo: "docker.io/library/postgres", tags: &[("16", 158_441_009), ("17", 159_922_384), ("latest", 159_922_384)] },
    KnownImage { repo: "docker.io/library/mysql", tags: &[("8.0", 171_328_011), ("8.4", 175_123_402), ("latest", 246_003_112)] },
    KnownImage { repo: "docker.io/library/python", tags: &[("3.12", 389_710_401), ("3.12-slim", 45_120_991), ("3.13-slim", 44_998_112), ("latest", 391_224_003)] },
    KnownImage { repo: "docker.io/library/node", tags: &[("20", 388_118_204), ("22", 397_601_090), ("22-alpine", 50_512_803), ("latest", 399_020_114)] },
    KnownImage { repo: "docker.io/library/memcached", tags: &[("1.6", 32_604_183), ("latest", 32_604_183)] },
    KnownImage { repo: "docker.io/library/traefik", tags: &[("v3.1", 48_203_400), ("latest", 49_002_101)] },
    KnownImage { repo: "registry.k8s.io/coredns/coredns", tags: &[("v1.12.1", 21_833_240)] },
    // the metrics-server addon (size approximate)
    KnownImage { repo: "registry.k8s.io/metrics-server/metrics-server", tags: &[("v0.8.0", 19_740_213)] },
    // the ingress addon's controller (size approximate)
    KnownImage { repo: "registry.k8s.io/ingress-nginx/controller", tags: &[("v1.13.0", 107_412_336)] },
    // the Kubernetes docs' DaemonSet example (size approximate)
    KnownImage { repo: "quay.io/fluentd_elasticsearch/fluentd", tags: &[("v4.2.0", 131_572_030), ("v5.0.1", 140_339_574)] },
    // the Kubernetes docs' StatefulSet example (size approximate)
    KnownImage { repo: "registry.k8s.io/nginx-slim", tags: &[("0.21", 19_812_347), ("0.24", 20_114_562)] },
    KnownImage { repo: "registry.k8s.io/pause", tags: &[("3.10", 320_368), ("3.10.1", 320_368)] },
    KnownImage { repo: "registry.k8s.io/echoserver", tags: &[("1.10", 46_236_720)] },
    KnownImage { repo: "gcr.io/google-samples/hello-app", tags: &[("1.0", 11_366_245), ("2.0", 11_366_245)] },
    KnownImage { repo: "registry.k8s.io/e2e-test-images/agnhost", tags: &[("2.53", 51_254_102)] },
    // kubesim's teaching image (runtime/program.rs `TeachingApp`): its behaviour is set by env
    KnownImage { repo: "docker.io/kubesim/app", tags: &[("1", 7_340_032), ("2", 7_340_544), ("3", 7_341_056), ("latest", 7_341_056)] },
];

pub use crate::api::image::{parse_image, ImageRef};

/// FNV-1a 64 followed by a SplitMix64 finalizer — stable, well-mixed fake digests and IDs.
pub fn fnv64(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// A stable fake `sha256:` digest for a repository and tag.
pub fn digest_for(repo: &str, tag: &str) -> String {
    let mut s = String::from("sha256:");
    for i in 0..4 {
        s.push_str(&format!("{:016x}", fnv64(&format!("{}:{}#{}", repo, tag, i))));
    }
    s
}

/// The registry's answer to a pull.
pub fn resolve(r: &ImageRef) -> Result<(i64, String), String> {
    let full = r.full();
    let Some(img) = REGISTRY.iter().find(|i| i.repo == r.repo) else {
        // an image the catalogue does not know is pulled as the registry would serve it: a
        // size between 5 and 200 MB and a digest, both derived from its name (what it does when
        // it runs, kubesim does not know: runtime/program.rs runs it as a long-running process)
        if let Some(d) = &r.digest {
            return Ok((unknown_image_size(&r.repo, d), d.clone()));
        }
        return Ok((unknown_image_size(&r.repo, &r.tag), digest_for(&r.repo, &r.tag)));
    };
    if let Some(d) = &r.digest {
        // digests: accept those we would have produced for a known tag
        if let Some((t, size)) = img.tags.iter().find(|(t, _)| digest_for(img.repo, t) == *d) {
            let _ = t;
            return Ok((*size, d.clone()));
        }
        return Err(format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{}\": failed to resolve reference \"{}\": {}: not found",
            full, full, full
        ));
    }
    match img.tags.iter().find(|(t, _)| *t == r.tag) {
        Some((_, size)) => Ok((*size, digest_for(img.repo, &r.tag))),
        None => Err(format!(
            "rpc error: code = NotFound desc = failed to pull and unpack image \"{}\": failed to resolve reference \"{}\": {}: not found",
            full, full, full
        )),
    }
}

/// Whether the catalogue knows the image's repository (and so what its tags and programs are).
pub fn is_known(image: &str) -> bool {
    parse_image(image).map(|r| REGISTRY.iter().any(|i| i.repo == r.repo)).unwrap_or(false)
}

/// A plausible compressed size for an image the catalogue does not know: 5 to 200 MB, stable
/// for its name.
fn unknown_image_size(repo: &str, tag: &str) -> i64 {
    5_000_000 + (fnv64(&format!("{}:{}", repo, tag)) % 195_000_000) as i64
}

/// A pulled image in a node's content store.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredImage {
    pub digest: String,
    pub size: i64,
    pub names: Vec<String>,
}

/// One node's runtime state: its image store and counters for IDs.
#[derive(Clone, Debug, Default)]
pub struct Runtime {
    /// `repo:tag` → image
    pub images: BTreeMap<String, StoredImage>,
    next_id: u64,
    /// The CNI plugin's address allocator over the node's pod CIDR.
    pub cni: cni::HostLocal,
}

impl Runtime {
    /// `ImageStatus`: is the image present?
    pub fn image_status(&self, r: &ImageRef) -> Option<&StoredImage> {
        self.images.get(&r.full())
    }

    /// Records a completed pull in the content store.
    pub fn store_image(&mut self, r: &ImageRef, size: i64, digest: &str) {
        let by_digest = format!("{}@{}", r.repo, digest);
        let e = self.images.entry(r.full()).or_insert_with(|| StoredImage { digest: digest.to_string(), size, names: vec![] });
        for n in [by_digest, r.full()] {
            if !e.names.contains(&n) {
                e.names.push(n);
            }
        }
    }

    /// A new 64-hex container or sandbox id.
    pub fn new_id(&mut self, node: &str) -> String {
        self.next_id += 1;
        let mut s = String::new();
        for i in 0..4 {
            s.push_str(&format!("{:016x}", fnv64(&format!("{}/{}/{}", node, self.next_id, i))));
        }
        s
    }

    /// `node.status.images` as the kubelet reports it (largest first, like upstream's sort).
    pub fn node_images(&self) -> Vec<serde_json::Value> {
        let mut v: Vec<&StoredImage> = self.images.values().collect();
        v.csort_by(|a, b| b.size.cmp(&a.size).then(a.names.cmp(&b.names)));
        v.dedup_by(|a, b| a.digest == b.digest);
        v.iter().map(|i| serde_json::json!({"names": i.names, "sizeBytes": i.size})).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_errors() {
        let missing_tag = resolve(&parse_image("nginx:1.99").unwrap()).unwrap_err();
        assert_eq!(missing_tag, "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.99\": failed to resolve reference \"docker.io/library/nginx:1.99\": docker.io/library/nginx:1.99: not found");
        assert_eq!(resolve(&parse_image("nginx:1.14.2").unwrap()).unwrap().0, 44_710_204);
        assert_eq!(resolve(&parse_image("nginx:1.28").unwrap()).unwrap().0, 72_581_214);
        // an image the catalogue does not know is pulled: the docs' memory example
        let (size, digest) = resolve(&parse_image("polinux/stress").unwrap()).unwrap();
        assert!((5_000_000..200_000_000).contains(&size), "{}", size);
        assert_eq!(digest, digest_for("docker.io/polinux/stress", "latest"));
        assert_eq!(resolve(&parse_image("polinux/stress").unwrap()).unwrap().0, size, "stable");
        assert!(is_known("nginx:1.99") && !is_known("polinux/stress"));
    }
}
