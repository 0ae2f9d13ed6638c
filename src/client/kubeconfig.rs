//! The kubeconfig kubectl reads: clusters, users, contexts and the current context.
//!
//! Real counterpart: `staging/src/k8s.io/client-go/tools/clientcmd/api` (`Config`, `Cluster`,
//! `AuthInfo`, `Context`) and `clientcmd.ShortenConfig` (what `kubectl config view` hides).
//! kubesim's console has one kubeconfig, as kubeadm writes `admin.conf` and a learner copies it
//! to `~/.kube/config`: cluster `kubernetes` at kube-apiserver's advertised address, user
//! `kubernetes-admin` with a client certificate, context `kubernetes-admin@kubernetes`. What
//! kubesim simplifies: no files (the config is held with the cluster, as kubectl's discovery
//! cache is), no merging of several files, no exec or token credentials (`set-credentials` is
//! not modelled), and certificate data is a fixed placeholder.

use serde_json::{json, Value};

/// Where the console's kubeconfig "is" (messages name the file).
pub const KUBECONFIG_PATH: &str = "/home/learner/.kube/config";

/// A named cluster: where its API server is.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedCluster {
    pub name: String,
    pub server: String,
}

/// A named context: a cluster, a user and a default namespace.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedContext {
    pub name: String,
    pub cluster: String,
    pub user: String,
    pub namespace: Option<String>,
}

/// `clientcmdapi.Config`, as much of it as kubesim's kubectl uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub clusters: Vec<NamedCluster>,
    /// The users (`AuthInfos`), each with a client certificate and key.
    pub users: Vec<String>,
    pub contexts: Vec<NamedContext>,
    pub current_context: String,
}

/// Bound on contexts a learner may create.
pub const MAX_CONTEXTS: usize = 100;

impl Default for Config {
    /// kubeadm's `admin.conf` for the page's cluster.
    fn default() -> Config {
        let server = format!("https://{}:{}", crate::cluster::APISERVER_ADDRESS, crate::cluster::APISERVER_PORT);
        Config {
            clusters: vec![NamedCluster { name: "kubernetes".into(), server }],
            users: vec!["kubernetes-admin".into()],
            contexts: vec![NamedContext { name: "kubernetes-admin@kubernetes".into(), cluster: "kubernetes".into(), user: "kubernetes-admin".into(), namespace: None }],
            current_context: "kubernetes-admin@kubernetes".into(),
        }
    }
}

/// What a credential field shows in `kubectl config view` without `--raw` (`ShortenConfig`).
const DATA_OMITTED: &str = "DATA+OMITTED";
/// The placeholder kubesim shows with `--raw` (there is no real certificate).
const RAW_DATA: &str = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCi4uLgotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";

impl Config {
    /// The context `name`, or the current one.
    pub fn context(&self, name: Option<&str>) -> Option<&NamedContext> {
        let name = name.unwrap_or(&self.current_context);
        self.contexts.iter().find(|c| c.name == name)
    }

    /// The config as `kubectl config view` prints it (`--minify`: only the current context, its
    /// cluster and user; `--raw`: the credentials shown).
    pub fn to_value(&self, minify: bool, raw: bool) -> Value {
        let data = if raw { RAW_DATA } else { DATA_OMITTED };
        let current = self.context(None);
        let keep_ctx = |c: &NamedContext| !minify || Some(c) == current;
        let keep_cluster = |n: &str| !minify || current.is_some_and(|c| c.cluster == n);
        let keep_user = |n: &str| !minify || current.is_some_and(|c| c.user == n);
        let clusters: Vec<Value> = self.clusters.iter().filter(|c| keep_cluster(&c.name)).map(|c| json!({"name": c.name, "cluster": {"server": c.server, "certificate-authority-data": data}})).collect();
        let users: Vec<Value> = self.users.iter().filter(|u| keep_user(u)).map(|u| json!({"name": u, "user": {"client-certificate-data": data, "client-key-data": data}})).collect();
        let contexts: Vec<Value> = self
            .contexts
            .iter()
            .filter(|c| keep_ctx(c))
            .map(|c| {
                let mut ctx = json!({"cluster": c.cluster, "user": c.user});
                if let Some(ns) = &c.namespace {
                    ctx["namespace"] = json!(ns);
                }
                json!({"name": c.name, "context": ctx})
            })
            .collect();
        json!({"kind": "Config", "apiVersion": "v1", "preferences": {}, "clusters": clusters, "users": users, "contexts": contexts, "current-context": self.current_context})
    }

    /// `-o json`: Go's field order (`clientcmdapi/v1.Config`: kind, apiVersion, preferences,
    /// clusters, users, contexts, current-context), 4-space indent.
    pub fn to_json(&self, minify: bool, raw: bool) -> String {
        let v = self.to_value(minify, raw);
        let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let mut s = String::from("{\n    \"kind\": \"Config\",\n    \"apiVersion\": \"v1\",\n    \"preferences\": {},\n");
        let list = |s: &mut String, key: &str, items: &[Value], inner: &str, fields: &[&str]| {
            if items.is_empty() {
                s.push_str(&format!("    {}: [],\n", q(key)));
                return;
            }
            s.push_str(&format!("    {}: [\n", q(key)));
            for (i, it) in items.iter().enumerate() {
                s.push_str(&format!("        {{\n            \"name\": {},\n            {}: {{\n", q(it["name"].as_str().unwrap_or("")), q(inner)));
                let present: Vec<&&str> = fields.iter().filter(|f| it[inner].get(**f).is_some()).collect();
                for (j, f) in present.iter().enumerate() {
                    let comma = if j + 1 < present.len() { "," } else { "" };
                    s.push_str(&format!("                {}: {}{}\n", q(f), q(it[inner][**f].as_str().unwrap_or("")), comma));
                }
                let comma = if i + 1 < items.len() { "," } else { "" };
                s.push_str(&format!("            }}\n        }}{}\n", comma));
            }
            s.push_str("    ],\n");
        };
        let arr = |k: &str| v[k].as_array().cloned().unwrap_or_default();
        list(&mut s, "clusters", &arr("clusters"), "cluster", &["server", "certificate-authority-data"]);
        list(&mut s, "users", &arr("users"), "user", &["client-certificate-data", "client-key-data"]);
        list(&mut s, "contexts", &arr("contexts"), "context", &["cluster", "user", "namespace"]);
        s.push_str(&format!("    \"current-context\": {}\n}}\n", q(&self.current_context)));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_hides_credentials_and_minify_keeps_the_current_context() {
        let mut c = Config::default();
        c.contexts.push(NamedContext { name: "dev".into(), cluster: "kubernetes".into(), user: "kubernetes-admin".into(), namespace: Some("dev".into()) });
        let v = c.to_value(false, false);
        assert_eq!(v["clusters"][0]["cluster"]["certificate-authority-data"], "DATA+OMITTED");
        assert_eq!(v["contexts"].as_array().unwrap().len(), 2);
        let m = c.to_value(true, false);
        assert_eq!(m["contexts"].as_array().unwrap().len(), 1);
        assert_eq!(m["contexts"][0]["name"], "kubernetes-admin@kubernetes");
        let j = c.to_json(false, false);
        assert!(j.starts_with("{\n    \"kind\": \"Config\",\n    \"apiVersion\": \"v1\",\n    \"preferences\": {},\n    \"clusters\": [\n"), "{}", j);
        assert!(serde_json::from_str::<Value>(&j).is_ok(), "{}", j);
    }
}
