//! The ServiceAccount controller (`serviceaccount-controller` in kube-controller-manager, whose
//! client is the service account `service-account-controller`).
//!
//! Real counterpart: `pkg/controller/serviceaccount/serviceaccounts_controller.go`
//! (`syncNamespace`): every Active namespace gets the ServiceAccounts listed in its options —
//! kube-controller-manager lists one, `default`, with no secrets (since v1.24 no token Secret is
//! made for it). A namespace added or updated, or its `default` ServiceAccount deleted, syncs
//! the namespace again; `AlreadyExists` and a terminating namespace are not errors.
//!
//! What kubesim simplifies: no work queue (a namespace is synced when its event arrives).

use crate::api::meta::{self, Resource};
use crate::api::request::{EventType, Identity, Method};
use crate::client::Store;
use crate::cluster::{self, Component};
use crate::controllers::deployment::controller_identity;
use crate::controllers::expectations::SyncTimer;
use crate::trace::Actor;
use serde_json::json;

type Ctx<'a> = cluster::Ctx<'a, SyncTimer>;
type Input = cluster::Input<SyncTimer>;

/// `DefaultServiceAccountsControllerOptions`: the ServiceAccounts every namespace gets.
pub const DEFAULT_SERVICE_ACCOUNTS: &[&str] = &["default"];

#[derive(Default)]
pub struct ServiceAccountsController {
    namespaces: Store,
    service_accounts: Store,
}

impl ServiceAccountsController {
    /// `syncNamespace`.
    fn sync_namespace(&mut self, ctx: &mut Ctx, ns: &str) {
        let Some(n) = self.namespaces.get(ns) else { return };
        if meta::is_deleting(n) || meta::get_str(n, &["status", "phase"]) != "Active" {
            return;
        }
        for sa in DEFAULT_SERVICE_ACCOUNTS {
            if self.service_accounts.get(&format!("{}/{}", ns, sa)).is_some() {
                continue;
            }
            let body = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": sa}});
            // AlreadyExists and a terminating namespace are ignored, as upstream does
            let _ = ctx.request(Method::Post, &format!("/api/v1/namespaces/{}/serviceaccounts", ns), Some(body));
        }
    }
}

impl Component for ServiceAccountsController {
    type Timer = SyncTimer;

    fn restarted(&self) -> Option<Self> {
        Some(Self::default())
    }

    fn actor(&self) -> Actor {
        Actor::ServiceAccountController
    }

    fn identity(&self) -> Identity {
        controller_identity("service-account-controller", "service-account-controller")
    }

    fn start(&mut self, ctx: &mut Ctx) {
        let sas = ctx.list_and_watch(meta::lookup("serviceaccounts").expect("serviceaccounts"), "", "", "");
        self.service_accounts.replace(sas);
        let nss = ctx.list_and_watch(meta::lookup("namespaces").expect("namespaces"), "", "", "");
        self.namespaces.replace(nss);
        let names: Vec<String> = self.namespaces.items.values().map(|n| meta::name(n).to_string()).collect();
        for ns in names {
            self.sync_namespace(ctx, &ns);
        }
    }

    fn handle(&mut self, ctx: &mut Ctx, input: Input) {
        match input {
            Input::Watch { resource: Resource::Namespaces, event_type, object } => {
                self.namespaces.apply_shared(event_type, object.clone());
                if event_type != EventType::Deleted {
                    self.sync_namespace(ctx, meta::name(&object));
                }
            }
            Input::Watch { resource: Resource::ServiceAccounts, event_type, object } => {
                self.service_accounts.apply_shared(event_type, object.clone());
                if event_type == EventType::Deleted && DEFAULT_SERVICE_ACCOUNTS.contains(&meta::name(&object)) {
                    self.sync_namespace(ctx, meta::namespace(&object));
                }
            }
            Input::Watch { .. } | Input::Timer(_) => {}
        }
    }
}
