//! kube-controller-manager: the controllers kubesim runs.
//!
//! Real counterpart: `cmd/kube-controller-manager` starting the controllers of `pkg/controller/`.
//! Each controller is its own [`Component`](crate::cluster::Component) with its own identity
//! (`--use-service-account-credentials`, as kubeadm configures it), so the audit log shows
//! `system:serviceaccount:kube-system:deployment-controller` and so on.

pub mod cronjob;
pub mod daemon;
pub mod deployment;
pub mod endpoint;
pub mod endpointslice;
pub mod endpointutil;
pub mod expectations;
pub mod garbagecollector;
pub mod job;
pub mod nodeipam;
pub mod namespace;
pub mod nodelifecycle;
pub mod persistentvolume;
pub mod replicaset;
pub mod resourcequota;
pub mod statefulset;
pub mod ttlafterfinished;
pub mod volumeprotection;

use crate::cluster::Cluster;

/// Installs the controllers (and kube-scheduler) into a cluster, in kube-controller-manager's order.
pub fn install(c: &mut Cluster) {
    c.add_component(deployment::DeploymentController::default());
    c.add_component(replicaset::ReplicaSetController::default());
    c.add_component(daemon::DaemonSetsController::default());
    c.add_component(statefulset::StatefulSetController::default());
    c.add_component(job::JobController::default());
    c.add_component(cronjob::CronJobController::default());
    c.add_component(ttlafterfinished::TtlAfterFinishedController::default());
    c.add_component(persistentvolume::PersistentVolumeController::default());
    c.add_component(namespace::NamespaceController::default());
    c.add_component(resourcequota::ResourceQuotaController::default());
    c.add_component(volumeprotection::PvcProtectionController::default());
    c.add_component(volumeprotection::PvProtectionController::default());
    c.add_component(garbagecollector::GarbageCollector::default());
    let (cidr, mask) = (c.config().cluster_cidr, c.config().node_cidr_mask_size);
    c.add_component(nodeipam::NodeIpamController::new(cidr, mask));
    c.add_component(nodelifecycle::NodeLifecycleController::default());
    c.add_component(endpoint::EndpointsController::default());
    c.add_component(endpointslice::EndpointSliceController::default());
    c.add_component(crate::scheduler::Scheduler::default());
}
