//! The ClusterRole aggregation controller (`clusterrole-aggregation-controller`).
//!
//! Real counterpart: `pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go`
//! (`syncClusterRole`): a ClusterRole with an `aggregationRule` gets, as its rules, the rules of
//! every ClusterRole its selectors match (in name order, each rule once); any ClusterRole change
//! queues every aggregated role again. An unchanged result is not written.
//!
//! What kubesim simplifies: no work queue (the roles are synced when an event arrives); the
//! write is a PUT of the whole role (upstream applies the rules with server-side apply).

use crate::api::meta::{self, Resource};
use crate::api::request::{Identity, Method};
use crate::apiserver::authorizer::rbac::{aggregate_rules, PolicyRule};
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::trace::Actor;
use serde_json::Value;

type Ctx<'a> = cluster::Ctx<'a, SyncTimer>;
type Input = cluster::Input<SyncTimer>;

#[derive(Default)]
pub struct ClusterRoleAggregationController {
    roles: Store,
}

impl ClusterRoleAggregationController {
    /// `syncClusterRole` for every aggregated role.
    fn sync_all(&mut self, ctx: &mut Ctx) {
        let all: Vec<Value> = self.roles.items.values().map(|r| Value::clone(r)).collect();
        for role in all.iter().filter(|r| meta::get(r, &["aggregationRule"]).map(|a| !a.is_null()).unwrap_or(false)) {
            let name = meta::name(role);
            let selectors = meta::get_array(role, &["aggregationRule", "clusterRoleSelectors"]).to_vec();
            let want: Vec<Value> = aggregate_rules(&selectors, &all, name).iter().map(PolicyRule::to_json).collect();
            let have: Vec<Value> = meta::get_array(role, &["rules"]).iter().map(|r| PolicyRule::from_json(r).to_json()).collect();
            if want == have {
                continue;
            }
            let mut updated = role.clone();
            updated["rules"] = Value::Array(want);
            let resp = ctx.request(Method::Put, &format!("/apis/rbac.authorization.k8s.io/v1/clusterroles/{}", name), Some(updated.clone()));
            if resp.ok() {
                self.roles.apply(crate::api::request::EventType::Modified, &resp.body);
            }
        }
    }
}

impl Component for ClusterRoleAggregationController {
    type Timer = SyncTimer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::ClusterRoleAggregationController
    }

    fn identity(&self) -> Identity {
        controller_identity("clusterrole-aggregation-controller", "clusterrole-aggregation-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let roles = ctx.list_and_watch(meta::lookup("clusterroles").expect("clusterroles"), "", "", "");
        self.roles.replace(roles);
        self.sync_all(ctx);
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        if let Input::Watch { resource: Resource::ClusterRoles, event_type, object } = input {
            self.roles.apply_shared(event_type, object);
            self.sync_all(ctx);
        }
    }
}
