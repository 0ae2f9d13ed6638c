//! Node IPAM: kube-controller-manager's `node-ipam-controller` giving each Node its pod CIDR
//! (`--allocate-node-cidrs`, `--cluster-cidr=10.244.0.0/16`, `--node-cidr-mask-size=24`, as
//! kubeadm and minikube configure it).
//!
//! Real counterparts: `pkg/controller/nodeipam/node_ipam_controller.go` and
//! `pkg/controller/nodeipam/ipam/range_allocator.go` (`AllocateOrOccupyCIDR`,
//! `updateCIDRsAllocation`, `ReleaseCIDR`), with [`cidrset`] for `ipam/cidrset/cidr_set.go` and
//! `k8s.io/component-helpers/node/util.PatchNodeCIDRs` for the request.
//!
//! A Node that registers without `spec.podCIDRs` gets the next free /24 (next-fit), sent as a
//! strategic-merge PATCH of `spec.podCIDR` and `spec.podCIDRs` under the `node-controller` service
//! account (kube-controller-manager starts this controller with that client). A Node that already
//! has one marks it taken; a deleted Node gives its CIDR back. When the range is exhausted the
//! Node gets the `CIDRNotAvailable` event ("Node node-300 status is now: CIDRNotAvailable") and
//! keeps no pod CIDR, so its kubelet cannot give Pods an address.
//!
//! What kubesim simplifies: IPv4 only; the first /24 (`10.244.0.0/24`) is taken from the start by
//! the control-plane node, which kubesim does not simulate as a Node (on minikube or kind it
//! registers first and gets it), so `node-1` gets `10.244.1.0/24`; no service-CIDR filtering
//! (the default ranges do not overlap).

pub mod cidrset;

use crate::api::meta::{self, Resource};
use crate::api::net::Cidr;
use crate::api::request::{EventType, Identity, Method, Request};
use crate::client::{Recorder, Store, WorkQueue};
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::trace::Actor;
use cidrset::CidrSet;
use serde_json::{json, Value};
use std::collections::BTreeMap;

pub const DEFAULT_CLUSTER_CIDR: &str = "10.244.0.0/16";
pub const DEFAULT_NODE_CIDR_MASK_SIZE: u8 = 24;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Worker,
}

impl std::fmt::Display for Timer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("workqueue")
    }
}

type Ctx<'a> = cluster::Ctx<'a, Timer>;
type Input = cluster::Input<Timer>;

pub struct NodeIpamController {
    cluster_cidr: Cidr,
    cidrs: CidrSet,
    nodes: Store,
    /// CIDRs allocated to a node and waiting for the worker's PATCH (`nodeReservedCIDRs`).
    reserved: BTreeMap<String, Cidr>,
    queue: WorkQueue,
    recorder: Recorder,
}

impl NodeIpamController {
    pub fn new(cluster_cidr: Cidr, node_mask: u8) -> NodeIpamController {
        let mut cidrs = CidrSet::new(cluster_cidr, node_mask);
        // the control-plane node's (see the module doc)
        let first = Cidr { base: cluster_cidr.base, prefix: node_mask };
        let _ = cidrs.occupy(&first);
        NodeIpamController {
            cluster_cidr,
            cidrs,
            nodes: Store::default(),
            reserved: BTreeMap::new(),
            queue: WorkQueue::default(),
            recorder: Recorder::new("cidrAllocator", ""),
        }
    }

    pub fn cluster_cidr(&self) -> Cidr {
        self.cluster_cidr
    }

    fn pod_cidrs(node: &Value) -> Vec<Cidr> {
        meta::get_array(node, &["spec", "podCIDRs"]).iter().filter_map(|c| c.as_str().and_then(Cidr::parse)).collect()
    }

    /// `nodeutil.RecordNodeStatusChange`: the Event's object reference has the node's name as uid.
    fn record_node_status_change(&mut self, ctx: &mut Ctx, name: &str, status: &str) {
        let involved = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "uid": name}});
        self.recorder.event(ctx, &involved, None, "Normal", status, &format!("Node {} status is now: {}", name, status));
    }

    /// `AllocateOrOccupyCIDR`.
    fn allocate_or_occupy(&mut self, ctx: &mut Ctx, node: &Value) {
        let name = meta::name(node).to_string();
        if self.reserved.contains_key(&name) {
            return;
        }
        let have = Self::pod_cidrs(node);
        if !have.is_empty() {
            for c in &have {
                let _ = self.cidrs.occupy(c);
            }
            return;
        }
        match self.cidrs.allocate_next() {
            Ok(c) => {
                self.reserved.insert(name.clone(), c);
                self.queue.enqueue(ctx, &name, Timer::Worker);
            }
            Err(_) => self.record_node_status_change(ctx, &name, "CIDRNotAvailable"),
        }
    }

    /// `updateCIDRsAllocation`.
    fn update_cidrs_allocation(&mut self, ctx: &mut Ctx, name: &str) {
        let Some(cidr) = self.reserved.remove(name) else { return };
        let Some(node) = self.nodes.get(name).cloned() else {
            let _ = self.cidrs.release(&cidr);
            return;
        };
        let have = Self::pod_cidrs(&node);
        if have.first() == Some(&cidr) {
            return;
        }
        if !have.is_empty() {
            // the node got a CIDR meanwhile: release the reserved one
            let _ = self.cidrs.release(&cidr);
            return;
        }
        let s = cidr.to_string();
        let body = json!({"spec": {"podCIDR": s, "podCIDRs": [s]}});
        let resp = ctx.request_with(Request::new(Method::Patch, format!("/api/v1/nodes/{}", name), Some(body)));
        if resp.ok() {
            self.nodes.apply(EventType::Modified, &resp.body);
        } else {
            self.record_node_status_change(ctx, name, "CIDRAssignmentFailed");
            let _ = self.cidrs.release(&cidr);
        }
    }
}

impl Component for NodeIpamController {
    type Timer = Timer;

    /// A fresh process occupies the CIDRs the nodes already have (`start`), as upstream's
    /// `occupyCIDRs` does for the nodes it lists.
    fn restarted(&self) -> Option<Self> {
        let mask = self.cidrs.mask_size();
        Some(Self::new(self.cluster_cidr, mask))
    }

    fn actor(&self) -> Actor {
        Actor::NodeIpamController
    }

    fn identity(&self) -> Identity {
        controller_identity("node-controller", "node-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let nodes = ctx.list_and_watch(meta::lookup("nodes").expect("nodes"), "", "", "");
        self.nodes.replace(nodes.clone());
        // occupy first (a restarted controller keeps what nodes have), then allocate
        for n in nodes.iter().filter(|n| !Self::pod_cidrs(n).is_empty()) {
            self.allocate_or_occupy(ctx, n);
        }
        for n in nodes.iter().filter(|n| Self::pod_cidrs(n).is_empty()) {
            self.allocate_or_occupy(ctx, n);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Nodes, event_type, object } => {
                self.nodes.apply_shared(event_type, object.clone());
                match event_type {
                    EventType::Deleted => {
                        for c in Self::pod_cidrs(&object) {
                            let _ = self.cidrs.release(&c);
                        }
                    }
                    _ => self.allocate_or_occupy(ctx, &object),
                }
            }
            Input::Watch { .. } => {}
            Input::Timer(Timer::Worker) => {
                if let Some(k) = self.queue.start_work() {
                    self.update_cidrs_allocation(ctx, &k);
                }
                self.queue.done(ctx, Timer::Worker);
            }
        }
    }
}
