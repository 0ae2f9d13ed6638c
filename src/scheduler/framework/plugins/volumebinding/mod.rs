//! VolumeRestrictions' and VolumeBinding's pre-filters: a Pod whose claims are missing, being deleted or not yet bound is
//! rejected before any node is tried.
//!
//! Real counterpart: `pkg/scheduler/framework/plugins/volumerestrictions` (`PreFilter`: every
//! PersistentVolumeClaim the Pod names must exist — it runs before VolumeBinding, so a missing
//! claim is its verdict) and `plugins/volumebinding` (`PreFilter` → `podHasPVCs` /
//! `GetPodVolumeClaims`: a claim being deleted, or an unbound claim of a class that binds
//! `Immediate`ly, is `UnschedulableAndUnresolvable`).
//!
//! What kubesim simplifies: `WaitForFirstConsumer` classes are not offered (the bootstrap's class
//! binds at once), so the Filter/Reserve/PreBind half of VolumeBinding (choosing a node for an
//! unbound claim, `volume.kubernetes.io/selected-node`) is not modelled; PersistentVolume node
//! affinity and NodeVolumeLimits are not checked.

use crate::api::meta;
use crate::client::Store;
use crate::scheduler::framework::interface::{Code, Status};
use crate::scheduler::framework::types::PodInfo;

pub const NAME: &str = "VolumeBinding";
pub const VOLUME_RESTRICTIONS: &str = "VolumeRestrictions";

/// VolumeRestrictions' then VolumeBinding's `PreFilter`; `None` when the Pod may go on to the
/// node filters.
pub fn pre_filter(pod: &PodInfo, claims: &Store, classes: &Store) -> Option<Status> {
    let names = &pod.claims;
    if names.is_empty() {
        return None;
    }
    let ns = &pod.namespace;
    for n in names {
        if claims.get(&format!("{}/{}", ns, n)).is_none() {
            let msg = format!("persistentvolumeclaim \"{}\" not found", n);
            return Some(Status::new(Code::UnschedulableAndUnresolvable, VOLUME_RESTRICTIONS, &[&msg]));
        }
    }
    let mut unbound_immediate = false;
    for n in names {
        let claim = claims.get(&format!("{}/{}", ns, n))?;
        if meta::is_deleting(claim) {
            let msg = format!("persistentvolumeclaim \"{}\" is being deleted", n);
            return Some(Status::new(Code::UnschedulableAndUnresolvable, NAME, &[&msg]));
        }
        let bound = !meta::get_str(claim, &["spec", "volumeName"]).is_empty();
        if bound && meta::get_str(claim, &["status", "phase"]) == "Lost" {
            let msg = format!("persistentvolumeclaim \"{}\" bound to non-existent persistentvolume \"{}\"", n, meta::get_str(claim, &["spec", "volumeName"]));
            return Some(Status::new(Code::UnschedulableAndUnresolvable, NAME, &[&msg]));
        }
        if !bound {
            let class = meta::storage_class_of(claim);
            let delay = classes.get(class).map(|c| meta::get_str(c, &["volumeBindingMode"]) == "WaitForFirstConsumer").unwrap_or(false);
            if !delay {
                unbound_immediate = true;
            }
        }
    }
    if unbound_immediate {
        return Some(Status::new(Code::UnschedulableAndUnresolvable, NAME, &["pod has unbound immediate PersistentVolumeClaims"]));
    }
    None
}
