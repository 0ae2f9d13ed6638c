//! The review resources: questions to the authorizer and the authenticator, answered and not
//! stored.
//!
//! Real counterparts: `pkg/registry/authorization/selfsubjectaccessreview/rest.go`,
//! `subjectaccessreview/rest.go`, `localsubjectaccessreview/rest.go`,
//! `selfsubjectrulesreview/rest.go` (the rule resolvers of the authorizer chain) and
//! `pkg/registry/authentication/selfsubjectreview/rest.go`, with
//! `pkg/registry/authorization/util/helpers.go` (`ResourceAttributesFrom`).
//!
//! What kubesim simplifies: field and label selectors in a review's resource attributes are
//! ignored.

use super::authorizer::rbac::PolicyRule;
use super::authorizer::{self, Attributes, Decision, SYSTEM_PRIVILEGED_GROUP};
use super::{bad_request, ApiServer};
use crate::api::meta;
use crate::api::request::{Identity, Response};
use serde_json::{json, Value};

/// The review resources kubesim answers: (group, resource, kind, namespaced), in discovery's
/// order.
pub const REVIEWS: &[(&str, &str, &str, bool)] = &[
    ("authentication.k8s.io", "selfsubjectreviews", "SelfSubjectReview", false),
    ("authorization.k8s.io", "localsubjectaccessreviews", "LocalSubjectAccessReview", true),
    ("authorization.k8s.io", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false),
    ("authorization.k8s.io", "selfsubjectrulesreviews", "SelfSubjectRulesReview", false),
    ("authorization.k8s.io", "subjectaccessreviews", "SubjectAccessReview", false),
];

fn strings(v: &Value, key: &str) -> Vec<String> {
    meta::get_array(v, &[key]).iter().filter_map(Value::as_str).map(str::to_string).collect()
}

/// `ResourceAttributesFrom` / `NonResourceAttributesFrom`.
fn attributes(spec: &Value, user: &str, groups: &[String]) -> Attributes {
    let mut a = Attributes { user: user.into(), groups: groups.to_vec(), ..Attributes::default() };
    if let Some(r) = spec.get("resourceAttributes").filter(|r| r.is_object()) {
        a.resource_request = true;
        a.verb = meta::get_str(r, &["verb"]).into();
        a.namespace = meta::get_str(r, &["namespace"]).into();
        a.api_group = meta::get_str(r, &["group"]).into();
        a.resource = meta::get_str(r, &["resource"]).into();
        a.subresource = meta::get_str(r, &["subresource"]).into();
        a.name = meta::get_str(r, &["name"]).into();
    } else if let Some(n) = spec.get("nonResourceAttributes") {
        a.verb = meta::get_str(n, &["verb"]).into();
        a.path = meta::get_str(n, &["path"]).into();
    }
    a
}

impl ApiServer {
    /// `POST` to a review resource: the review, with its status filled in.
    pub(super) fn review(&mut self, resource: &str, body: Option<&Value>, path_ns: &str, who: &Identity, now_ms: i64) -> Result<Response, Response> {
        let mut obj = body.cloned().filter(Value::is_object).ok_or_else(|| bad_request("the body of the request was in an unknown format".into()))?;
        let spec = obj.get("spec").cloned().unwrap_or(json!({}));
        let kind = meta::get_str(&obj, &["kind"]).to_string();
        let status = match resource {
            "selfsubjectreviews" => {
                let mut info = json!({"username": who.username, "groups": who.groups});
                if !who.uid.is_empty() {
                    info["uid"] = json!(who.uid);
                }
                json!({"userInfo": info})
            }
            "selfsubjectrulesreviews" => self.rules_review(meta::get_str(&spec, &["namespace"]), who),
            _ => {
                let (user, groups) = match resource {
                    "subjectaccessreviews" | "localsubjectaccessreviews" => (meta::get_str(&spec, &["user"]).to_string(), strings(&spec, "groups")),
                    _ => (who.username.clone(), who.groups.clone()),
                };
                if spec.get("resourceAttributes").is_none() && spec.get("nonResourceAttributes").is_none() {
                    return Err(invalid(&kind, "spec.resourceAttributes", "exactly one of nonResourceAttributes or resourceAttributes must be specified"));
                }
                if resource == "subjectaccessreviews" && user.is_empty() && groups.is_empty() {
                    return Err(invalid(&kind, "spec.user", "at least one of user or group must be specified"));
                }
                let mut a = attributes(&spec, &user, &groups);
                if resource == "localsubjectaccessreviews" {
                    a.namespace = path_ns.to_string();
                }
                let d = self.authorize(&a);
                let mut st = json!({"allowed": d.decision == Decision::Allow});
                if d.decision == Decision::Deny {
                    st["denied"] = json!(true);
                }
                if !d.reason.is_empty() {
                    st["reason"] = json!(d.reason);
                }
                st
            }
        };
        obj["status"] = status;
        meta::set(&mut obj, &["metadata", "creationTimestamp"], json!(crate::api::time::rfc3339(now_ms)));
        Ok(Response { code: 201, body: obj })
    }

    /// `SelfSubjectRulesReview`: the rule resolvers of the chain — `system:masters` may do
    /// everything, the Node authorizer does not enumerate, RBAC lists its rules.
    fn rules_review(&mut self, namespace: &str, who: &Identity) -> Value {
        let everything = || (vec![PolicyRule { verbs: vec!["*".into()], api_groups: vec!["*".into()], resources: vec!["*".into()], ..Default::default() }], vec![PolicyRule { verbs: vec!["*".into()], non_resource_urls: vec!["*".into()], ..Default::default() }]);
        let mut resource_rules = Vec::new();
        let mut non_resource = Vec::new();
        let mut errors: Vec<String> = Vec::new();
        let mut incomplete = false;
        if who.groups.iter().any(|g| g == SYSTEM_PRIVILEGED_GROUP) {
            let (r, n) = everything();
            resource_rules.extend(r);
            non_resource.extend(n);
        }
        if who.username.starts_with("system:node:") && who.groups.iter().any(|g| g == "system:nodes") {
            incomplete = true;
            errors.push("node authorizer does not support user rule resolution".into());
        }
        let policy = self.rbac_policy();
        let (rules, errs) = policy.rules_for(&who.username, &who.groups, namespace);
        if !errs.is_empty() {
            incomplete = true;
            errors.push(authorizer::rbac::aggregate(&errs));
        }
        for r in rules {
            if r.non_resource_urls.is_empty() {
                resource_rules.push(r);
            } else {
                non_resource.push(r);
            }
        }
        let rr: Vec<Value> = resource_rules
            .iter()
            .map(|r| {
                let mut v = json!({"verbs": r.verbs, "apiGroups": r.api_groups, "resources": r.resources});
                if !r.resource_names.is_empty() {
                    v["resourceNames"] = json!(r.resource_names);
                }
                v
            })
            .collect();
        let nr: Vec<Value> = non_resource.iter().map(|r| json!({"verbs": r.verbs, "nonResourceURLs": r.non_resource_urls})).collect();
        let mut st = json!({"resourceRules": rr, "nonResourceRules": nr, "incomplete": incomplete});
        if !errors.is_empty() {
            st["evaluationError"] = json!(authorizer::rbac::aggregate(&errors));
        }
        st
    }
}

fn invalid(kind: &str, field: &str, detail: &str) -> Response {
    let kind = if kind.is_empty() { "SelfSubjectAccessReview" } else { kind };
    let group = "authorization.k8s.io";
    super::err(
        422,
        "Invalid",
        format!("{}.{} \"\" is invalid: {}: Invalid value: \"null\": {}", kind, group, field, detail),
        Some(json!({"group": group, "kind": kind, "causes": [{"reason": "FieldValueInvalid", "message": format!("Invalid value: \"null\": {}", detail), "field": field}]})),
    )
}
