//! The Kubernetes object model as kubesim sees it.
//!
//! Real counterparts: `k8s.io/api` (the Go types), `k8s.io/apimachinery` (ObjectMeta, validation,
//! quantities), `pkg/apis/*/defaults.go` and `validation.go` in kubernetes/kubernetes.
//!
//! kubesim keeps every object as a `serde_json::Value` instead of typed structs: the browser would
//! otherwise download typed bindings for the whole API (see `../shared/toolchain.md`: +1 MB). The
//! shape is still checked field by field, by [`schema`], a compact description of the v1.34 types
//! generated at development time (`tools/genschema`). Defaulting, validation and naming mirror the
//! upstream functions of the same names.
//!
//! Layout:
//! - [`meta`]: resource table (kind ↔ resource ↔ etcd prefix) and small accessors on objects;
//! - [`codec`]: YAML/JSON manifest decoding with kubectl's error messages;
//! - [`schema`]: strict field validation (unknown fields, wrong types);
//! - [`defaults`], [`validation`], [`field`]: defaulting and validation with upstream messages;
//! - [`quantity`]: resource quantities (`100m`, `128Mi`);
//! - [`image`]: container image references (one parser for defaulting, the kubelet and the runtime);
//! - [`names`]: `generateName` suffixes and the upstream random alphabet;
//! - [`time`]: RFC 3339 timestamps on the virtual clock;
//! - [`request`]: the request vocabulary both sides use (`Request`, `Response`, `Identity`, `RequestInfo`, watch `EventType`);
//! - [`regexp`]: the RE2 subset an OpenAPI `pattern` uses;
//! - [`patch`]: merge and strategic merge patch, and the three-way patch kubectl apply computes.

pub mod codec;
pub mod defaults;
pub mod field;
pub mod gojson;
pub mod base64;
#[cfg(not(target_arch = "wasm32"))]
pub mod hpa_conversion;
pub mod image;
pub mod meta;
pub mod names;
pub mod net;
pub mod patch;
pub mod poddisruptionbudget;
pub mod quantity;
pub mod quota;
pub mod regexp;
pub mod request;
pub mod schema;
pub mod time;
pub mod validation;
