#![cfg(not(target_arch = "wasm32"))]
//! Bad input through the whole stack (kubectl → kube-apiserver): a named table of facts §3.3's
//! mistakes and malformed YAML, each asserting kubectl's exact output and that nothing was stored.

use kubesim::kubectl;
use kubesim::sandbox::default_cluster;

const BASE: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx
";

struct Case {
    name: &'static str,
    manifest: String,
    output: &'static str,
}

fn edit(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{}", from);
    BASE.replacen(from, to, 1)
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "selector does not match template labels",
            manifest: edit("      labels:\n        app: web\n", "      labels:\n        app: other\n"),
            output: "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`\n",
        },
        Case {
            name: "selector missing",
            manifest: edit("  selector:\n    matchLabels:\n      app: web\n", ""),
            output: "The Deployment \"web\" is invalid: \n* spec.selector: Required value\n* spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`\n",
        },
        Case {
            name: "empty selector",
            manifest: edit("  selector:\n    matchLabels:\n      app: web\n", "  selector: {}\n"),
            output: "The Deployment \"web\" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment\n",
        },
        Case {
            name: "no containers",
            manifest: edit("      containers:\n      - name: web\n        image: nginx\n", "      containers: []\n"),
            output: "The Deployment \"web\" is invalid: spec.template.spec.containers: Required value\n",
        },
        Case {
            name: "container without image",
            manifest: edit("        image: nginx\n", ""),
            output: "The Deployment \"web\" is invalid: spec.template.spec.containers[0].image: Required value\n",
        },
        Case {
            name: "bad deployment name",
            manifest: edit("  name: web\n", "  name: My_App\n"),
            output: "The Deployment \"My_App\" is invalid: metadata.name: Invalid value: \"My_App\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n",
        },
        Case {
            name: "bad container name",
            manifest: edit("      - name: web\n", "      - name: Web\n"),
            output: "The Deployment \"web\" is invalid: spec.template.spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n",
        },
        Case {
            name: "negative replicas",
            manifest: edit("  replicas: 3\n", "  replicas: -1\n"),
            output: "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n",
        },
        Case {
            name: "restartPolicy Never in template",
            manifest: edit("    spec:\n      containers:\n", "    spec:\n      restartPolicy: Never\n      containers:\n"),
            output: "The Deployment \"web\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"\n",
        },
        Case {
            name: "maxSurge and maxUnavailable both 0",
            manifest: edit("  replicas: 3\n", "  replicas: 3\n  strategy:\n    rollingUpdate:\n      maxSurge: 0\n      maxUnavailable: 0\n"),
            output: "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0\n",
        },
        Case {
            name: "maxUnavailable over 100%",
            manifest: edit("  replicas: 3\n", "  replicas: 3\n  strategy:\n    rollingUpdate:\n      maxUnavailable: 120%\n"),
            output: "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"120%\": must not be greater than 100%\n",
        },
        Case {
            name: "rollingUpdate with Recreate",
            manifest: edit("  replicas: 3\n", "  replicas: 3\n  strategy:\n    type: Recreate\n    rollingUpdate:\n      maxSurge: 1\n"),
            output: "The Deployment \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'\n",
        },
        Case {
            name: "progressDeadlineSeconds not above minReadySeconds",
            manifest: edit("  replicas: 3\n", "  replicas: 3\n  minReadySeconds: 10\n  progressDeadlineSeconds: 5\n"),
            output: "The Deployment \"web\" is invalid: spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds\n",
        },
        Case {
            name: "unknown field (strict decoding)",
            manifest: edit("  replicas: 3\n", "  replica: 3\n"),
            output: "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\"\n",
        },
        Case {
            name: "unknown field inside a container",
            manifest: edit("        image: nginx\n", "        image: nginx\n        imagePolicy: Always\n"),
            output: "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.template.spec.containers[0].imagePolicy\"\n",
        },
        Case {
            name: "wrong kind",
            manifest: edit("kind: Deployment\n", "kind: Deploymnt\n"),
            output: "error: resource mapping not found for name: \"web\" namespace: \"\" from \"STDIN\": no matches for kind \"Deploymnt\" in version \"apps/v1\"\nensure CRDs are installed first\n",
        },
        Case {
            name: "wrong apiVersion",
            manifest: edit("apiVersion: apps/v1\n", "apiVersion: apps/v1beta1\n"),
            output: "error: resource mapping not found for name: \"web\" namespace: \"\" from \"STDIN\": no matches for kind \"Deployment\" in version \"apps/v1beta1\"\nensure CRDs are installed first\n",
        },
        // malformed YAML: messages checked against the real kubectl (go-yaml)
        Case {
            name: "yaml: mapping value inside a plain scalar",
            manifest: edit("  name: web\n", "  name: web: x\n"),
            output: "error: error parsing STDIN: error converting YAML to JSON: yaml: line 4: mapping values are not allowed in this context\n",
        },
        Case {
            name: "yaml: over-indented key",
            manifest: edit("  name: web\n", "  name: web\n    labels: x\n"),
            output: "error: error parsing STDIN: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context\n",
        },
        Case {
            name: "yaml: under-indented key",
            manifest: edit("  name: web\n", "  name: web\n labels: x\n"),
            output: "error: error parsing STDIN: error converting YAML to JSON: yaml: line 4: did not find expected key\n",
        },
        Case {
            name: "yaml: tab indentation",
            manifest: edit("  name: web\n", "\tname: web\n"),
            output: "error: error parsing STDIN: error converting YAML to JSON: yaml: line 4: found character that cannot start any token\n",
        },
        Case {
            name: "yaml: unclosed flow sequence",
            manifest: edit("        image: nginx\n", "        image: nginx\n        args: [a, b\n"),
            output: "error: error parsing STDIN: error converting YAML to JSON: yaml: line 18: did not find expected ',' or ']'\n",
        },
        Case {
            name: "yaml: unclosed quote",
            manifest: edit("        image: nginx\n", "        image: \"nginx\n"),
            output: "error: error parsing STDIN: error converting YAML to JSON: yaml: line 18: found unexpected end of stream\n",
        },
    ]
}

#[test]
fn mistakes_get_kubectls_exact_output_and_store_nothing() {
    let mut failures = Vec::new();
    for c in cases() {
        let mut cluster = default_cluster(1);
        let keys_before = cluster.view().etcd_keys("/registry/");
        let rev_before = cluster.view().etcd_revision();
        let args: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
        let out = kubectl::run(&mut cluster, &args, Some(&c.manifest), &|_| None);
        if out.combined() != c.output {
            failures.push(format!("{}:\n  want: {:?}\n  got:  {:?}", c.name, c.output, out.combined()));
        }
        if out.code == 0 {
            failures.push(format!("{}: exit code 0", c.name));
        }
        if cluster.view().etcd_keys("/registry/") != keys_before || cluster.view().etcd_revision() != rev_before {
            failures.push(format!("{}: etcd changed", c.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn huge_and_hostile_input_is_refused_without_panicking() {
    let mut cluster = default_cluster(1);
    let args: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
    let huge = "a: ".to_string() + &"x".repeat(4 * 1024 * 1024);
    let out = kubectl::run(&mut cluster, &args, Some(&huge), &|_| None);
    assert!(out.stderr.contains("over kubesim's limit"), "{}", out.stderr);
    let deep = "a:\n".to_string() + &(1..100).map(|i| format!("{}b:\n", "  ".repeat(i))).collect::<String>();
    let out = kubectl::run(&mut cluster, &args, Some(&deep), &|_| None);
    assert_eq!(out.code, 1);
    for junk in ["", "---\n---\n", "[]", "42", "kind: [", "{\"kind\": 1}", "\u{0}\u{1}"] {
        let out = kubectl::run(&mut cluster, &args, Some(junk), &|_| None);
        assert_eq!(out.code, 1, "{:?} -> {:?}", junk, out);
    }
}
