//! kube-controller-manager: the controllers kubesim runs.
//!
//! Real counterpart: `cmd/kube-controller-manager` starting the controllers of `pkg/controller/`.
//! Each controller is its own [`Component`](crate::cluster::Component) with its own identity
//! (`--use-service-account-credentials`, as kubeadm configures it), so the audit log shows
//! `system:serviceaccount:kube-system:deployment-controller` and so on.

pub mod clusterroleaggregation;
pub mod controllermanager;
pub mod cronjob;
pub mod daemon;
pub mod deployment;
pub mod disruption;
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
pub mod podautoscaler;
pub mod replicaset;
pub mod resourcequota;
pub mod statefulset;
pub mod rootcacertpublisher;
pub mod serviceaccount;
pub mod ttlafterfinished;
pub mod volumeprotection;

use crate::cluster::{Cluster, Hosted};

/// Installs kube-controller-manager (its leader-election client, then, once it leads, the
/// controllers in its order) and kube-scheduler into a cluster.
pub fn install(c: &mut Cluster) {
    let (cidr, mask) = (c.config().cluster_cidr, c.config().node_cidr_mask_size);
    let controllers: Vec<Box<dyn Hosted>> = vec![
        Box::new(deployment::DeploymentController::default()),
        Box::new(replicaset::ReplicaSetController::default()),
        Box::new(replicaset::ReplicaSetController::new(replicaset::Flavor::REPLICATION_CONTROLLER)),
        Box::new(daemon::DaemonSetsController::default()),
        Box::new(statefulset::StatefulSetController::default()),
        Box::new(job::JobController::default()),
        Box::new(cronjob::CronJobController::default()),
        Box::new(ttlafterfinished::TtlAfterFinishedController::default()),
        Box::new(persistentvolume::PersistentVolumeController::default()),
        Box::new(namespace::NamespaceController::default()),
        Box::new(resourcequota::ResourceQuotaController::default()),
        Box::new(disruption::DisruptionController::default()),
        Box::new(podautoscaler::HorizontalController::default()),
        Box::new(volumeprotection::PvcProtectionController::default()),
        Box::new(volumeprotection::PvProtectionController::default()),
        Box::new(garbagecollector::GarbageCollector::default()),
        Box::new(nodeipam::NodeIpamController::new(cidr, mask)),
        Box::new(nodelifecycle::NodeLifecycleController::default()),
        Box::new(endpoint::EndpointsController::default()),
        Box::new(endpointslice::EndpointSliceController::default()),
        Box::new(rootcacertpublisher::RootCaCertPublisher::default()),
        Box::new(serviceaccount::ServiceAccountsController::default()),
        Box::new(clusterroleaggregation::ClusterRoleAggregationController::default()),
    ];
    c.add_process(controllermanager::ControllerManager::default(), controllers);
    c.add_component(crate::scheduler::Scheduler::default());
}
