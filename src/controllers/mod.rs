//! kube-controller-manager's controllers.

use crate::cluster::Cluster;

/// Installs the controllers of kube-controller-manager into a cluster.
pub fn install(_c: &mut Cluster) {}
