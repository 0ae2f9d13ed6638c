//! `kubectl scale` through the `scale` subresource (`staging/src/k8s.io/kubectl/pkg/cmd/scale`).

use super::*;

pub(super) fn scale(cluster: &mut Cluster, f: &Flags, ns: &str, out: &mut Output) {
    let Some(r) = &f.replicas else {
        return out.err("error: required flag(s) \"replicas\" not set");
    };
    let Ok(replicas) = r.parse::<i64>() else {
        return out.err(&format!("error: invalid argument \"{}\" for \"--replicas\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax", r, r));
    };
    if replicas < 0 {
        return out.err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0");
    }
    let ts = match targets(cluster, &f.positional) {
        Ok(t) => t,
        Err(e) => return out.err(&e),
    };
    for (info, names) in ts {
        if !matches!(info.kind, "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController") {
            out.err(&format!("error: no scaler has been implemented for {{\"{}\" \"{}\"}}", info.group, info.kind));
            continue;
        }
        for n in names {
            let resp = cluster.client_request(
                &kubectl_identity(),
                Request {
                    method: Method::Patch,
                    path: format!("{}/scale", info.object_path(ns, &n)),
                    body: Some(json!({"spec": {"replicas": replicas}})),
                    patch_type: PatchType::Merge,
                },
            );
            if resp.ok() {
                out.out(&format!("{}/{} scaled", info.kubectl_prefix(), n));
            } else {
                out.err(&server_error(&resp, None));
            }
        }
    }
}
