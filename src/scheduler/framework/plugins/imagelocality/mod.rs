//! ImageLocality: nodes that already hold the pod's images score higher, scaled by how widely
//! each image is spread (so one node holding an image does not attract every pod).
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/imagelocality/image_locality.go`
//! (`sumImageScores`, `scaledImageScore`, `calculatePriority`); the number of nodes holding an
//! image comes from the snapshot (`ImageStateSummary.NumNodes`).

use crate::scheduler::framework::interface::MAX_NODE_SCORE;
use crate::scheduler::framework::types::{NodeInfo, PodInfo};
use crate::scheduler::internal::cache::Snapshot;

pub const NAME: &str = "ImageLocality";
const MB: i64 = 1024 * 1024;
const IMAGE_MIN_THRESHOLD: i64 = 23 * MB;
const IMAGE_MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;

/// The sum over init and regular containers of image size × spread (fraction of all nodes having
/// the image), clamped to [23Mi, 1000Mi × containers] and scaled to 0..100.
pub fn score(pod: &PodInfo, ni: &NodeInfo, snapshot: &Snapshot) -> i64 {
    let total = snapshot.num_nodes();
    let mut sum: i64 = 0;
    if total > 0 {
        for image in &pod.images {
            if let Some(size) = ni.image_sizes.get(image) {
                let spread = snapshot.num_nodes_with_image(image) as f64 / total as f64;
                sum = sum.saturating_add((*size as f64 * spread) as i64);
            }
        }
    }
    let max_threshold = IMAGE_MAX_CONTAINER_THRESHOLD.saturating_mul(pod.images.len() as i64);
    let clamped = sum.max(IMAGE_MIN_THRESHOLD).min(max_threshold.max(IMAGE_MIN_THRESHOLD));
    let span = max_threshold - IMAGE_MIN_THRESHOLD;
    if span <= 0 {
        return 0;
    }
    (MAX_NODE_SCORE as i128 * (clamped - IMAGE_MIN_THRESHOLD) as i128 / span as i128) as i64
}

/// Test tables (cases from upstream's tests and hand-checked examples), with the shared
/// fixtures of [`crate::scheduler::framework::testing`].
#[cfg(test)]
mod tests {
    use crate::scheduler::framework::testing::*;

    #[test]
    fn image_locality_table() {
        // One node with a 250Mi image, total 1 node: spread 1.
        struct C {
            name: &'static str,
            size: i64,
            containers: usize,
            want: i64,
        }
        let cases = [
            C { name: "below 23Mi scores 0", size: 10 * MB, containers: 1, want: 0 },
            // (250Mi-23Mi)*100/(1000Mi-23Mi) = 227/977*100 = 23
            C { name: "250Mi one container", size: 250 * MB, containers: 1, want: 23 },
            C { name: "above 1000Mi is capped", size: 2000 * MB, containers: 1, want: 100 },
            // two containers, only one image present: (250-23)/(2000-23) = 11
            C { name: "two containers", size: 250 * MB, containers: 2, want: 11 },
        ];
        for c in &cases {
            let mut n = node("n", "1", "1Gi", 110);
            n["status"]["images"] = json!([{"names": ["app:v1"], "sizeBytes": c.size}]);
            let nodes = vec![ni(n, vec![])];
            let mut containers = vec![json!({"name": "a", "image": "app:v1"})];
            if c.containers == 2 {
                containers.push(json!({"name": "b", "image": "other:v1"}));
            }
            let p = json!({"metadata": {"name": "p"}, "spec": {"containers": containers}});
            assert_eq!(score_image_locality(&p, &nodes[0], &nodes), c.want, "{}", c.name);
        }
    }
}
