#!/usr/bin/env python3
"""genproto: writes src/serve/protobuf/schema.rs, the protobuf field table `kubesim serve` uses to
decode `application/vnd.kubernetes.protobuf` request bodies (see tools/genproto/README.md).

It reads, at one tag of each repository (v0.34.0, Kubernetes v1.34):
  - k8s.io/api and k8s.io/apimachinery `generated.proto` files: messages, field numbers, types,
    `repeated`, `map<string, V>`;
  - the Go `types.go` files of the same packages, for what the .proto does not say: the JSON name
    (`json:"..."` tag), embedded structs serialised inline (`json:",inline"`), pointers (present
    means set: keep `0`, `false`, `""`, `{}`) and `omitempty` on non-pointer numbers and bools.
The roots are the kinds of `RESOURCES` in src/api/meta.rs plus EXTRA_ROOTS below; only the
messages reachable from them are written.

Usage (from the repository root; GIT_DIRs are clones, bare or not, of the two repositories):
    python3 tools/genproto/genproto.py --api GIT_DIR --apimachinery GIT_DIR [--ref v0.34.0] \
        > src/serve/protobuf/schema.rs
"""

import argparse
import re
import subprocess
import sys

# Kinds decoded besides the RESOURCES kubesim serves: (proto package, message, apiVersion or ""
# for "any apiVersion").
EXTRA_ROOTS = [
    ("k8s.io.apimachinery.pkg.apis.meta.v1", "DeleteOptions", ""),  # DELETE bodies
    ("k8s.io.api.policy.v1", "Eviction", "policy/v1"),  # kubectl drain (pods/eviction)
    ("k8s.io.api.autoscaling.v1", "Scale", "autoscaling/v1"),  # PUT …/scale
    # kubectl v1.32's `autoscale` (autoscaling/v1, converted by the API server)
    ("k8s.io.api.autoscaling.v1", "HorizontalPodAutoscaler", "autoscaling/v1"),
    ("k8s.io.api.core.v1", "Binding", "v1"),  # POST pods/NAME/binding
    # typed `kubectl create configmap|secret|serviceaccount`: decoded, so that the API server
    # (not the decoder) answers for them
    ("k8s.io.api.core.v1", "ConfigMap", "v1"),
    ("k8s.io.api.core.v1", "Secret", "v1"),
    ("k8s.io.api.core.v1", "ServiceAccount", "v1"),
    # `kubectl create token` (serviceaccounts/token), `auth can-i`, `auth whoami`
    ("k8s.io.api.authentication.v1", "TokenRequest", "authentication.k8s.io/v1"),
    ("k8s.io.api.authentication.v1", "SelfSubjectReview", "authentication.k8s.io/v1"),
    ("k8s.io.api.authorization.v1", "SelfSubjectAccessReview", "authorization.k8s.io/v1"),
    ("k8s.io.api.authorization.v1", "SubjectAccessReview", "authorization.k8s.io/v1"),
    ("k8s.io.api.authorization.v1", "LocalSubjectAccessReview", "authorization.k8s.io/v1"),
    ("k8s.io.api.authorization.v1", "SelfSubjectRulesReview", "authorization.k8s.io/v1"),
]

# Groups of RESOURCES whose types live outside k8s.io/api (kube-aggregator's APIService,
# apiextensions-apiserver's CustomResourceDefinition): real
# clients send them as JSON (kubectl applies them unstructured), so they have no table here.
NOT_IN_K8S_API = {"apiregistration.k8s.io", "apiextensions.k8s.io"}

# Messages whose JSON is not an object: decoded by hand in src/serve/protobuf.rs.
SPECIAL = {
    "k8s.io.apimachinery.pkg.apis.meta.v1.Time": "Time",
    "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime": "MicroTime",
    "k8s.io.apimachinery.pkg.apis.meta.v1.Duration": "Duration",
    "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1": "Json",
    "k8s.io.apimachinery.pkg.runtime.RawExtension": "Json",
    "k8s.io.apimachinery.pkg.api.resource.Quantity": "Quantity",
    "k8s.io.apimachinery.pkg.util.intstr.IntOrString": "IntOrString",
}

SCALARS = {
    "string": "Str",
    "bytes": "Bytes",
    "bool": "Bool",
    "int32": "I32",
    "int64": "I64",
    "uint32": "U32",
    "uint64": "U64",
    "float": "F32",
    "double": "F64",
}

# Flags, as src/serve/protobuf.rs defines them.
REP, MAP, INLINE, KEEP = 1, 2, 4, 8


class Source:
    """Files of both repositories at a ref, by Go import path."""

    def __init__(self, api, apimachinery, ref):
        self.repos = [("k8s.io/api/", api), ("k8s.io/apimachinery/", apimachinery)]
        self.ref = ref

    def _split(self, path):
        for prefix, git in self.repos:
            if path.startswith(prefix):
                return git, path[len(prefix):]
        raise SystemExit("genproto: no repository for " + path)

    def read(self, path):
        git, rel = self._split(path)
        return subprocess.run(["git", "-C", git, "show", "%s:%s" % (self.ref, rel)], check=True, capture_output=True, text=True).stdout

    def go_files(self, pkg):
        git, rel = self._split(pkg + "/")
        out = subprocess.run(["git", "-C", git, "ls-tree", "--name-only", self.ref, rel], check=True, capture_output=True, text=True).stdout
        names = [n for n in out.split() if n.endswith(".go") and not n.endswith("_test.go") and "generated" not in n.rsplit("/", 1)[-1]]
        return [self.read(self._prefix(git) + n) for n in names]

    def _prefix(self, git):
        return next(p for p, g in self.repos if g == git)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


FIELD_RE = re.compile(r"^(optional|repeated|required)?\s*(map\s*<\s*([\w.]+)\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*(\d+)\s*(\[[^\]]*\])?\s*;$")


def parse_proto(text):
    """(package, imports, {message: [(label, type, key, value, name, number)]})."""
    text = strip_comments(text)
    package = re.search(r"^\s*package\s+([\w.]+)\s*;", text, re.M).group(1)
    imports = re.findall(r'^\s*import\s+"([^"]+)"\s*;', text, re.M)
    messages = {}
    for m in re.finditer(r"\bmessage\s+(\w+)\s*\{(.*?)\n\}", text, re.S):
        body = m.group(2)
        if re.search(r"\b(message|oneof|enum)\s+\w+\s*\{", body):
            raise SystemExit("genproto: nested message/oneof/enum in %s.%s" % (package, m.group(1)))
        fields = []
        for stmt in body.split(";"):
            stmt = " ".join(stmt.split())
            if not stmt:
                continue
            f = FIELD_RE.match(stmt + ";")
            if not f:
                raise SystemExit("genproto: cannot parse field %r in %s.%s" % (stmt, package, m.group(1)))
            label, typ, key, val, name, num = f.group(1) or "optional", f.group(2), f.group(3), f.group(4), f.group(5), int(f.group(6))
            fields.append((label, typ, key, val, name, num))
        messages[m.group(1)] = fields
    if re.search(r"^\s*enum\s", text, re.M):
        raise SystemExit("genproto: enums are not supported (%s)" % package)
    return package, imports, messages


GO_FIELD_RE = re.compile(r"^\s*(?:(\w+)\s+)?(\S+)\s+`([^`]*)`")


def tag(tags, key):
    m = re.search(r'\b%s:"([^"]*)"' % key, tags)
    return m.group(1) if m else None


def parse_go(text):
    """{struct: {proto field number: (go type, json name or None, inline, omitempty)}}."""
    structs = {}
    cur = None
    for line in text.split("\n"):
        s = re.match(r"^type\s+(\w+)\s+struct\s*\{", line)
        if s:
            cur = structs.setdefault(s.group(1), {})
            continue
        if line.startswith("}"):
            cur = None
            continue
        if cur is None:
            continue
        f = GO_FIELD_RE.match(line)
        if not f:
            continue
        gotype, tags = f.group(2), f.group(3)
        pb = tag(tags, "protobuf")
        if not pb or pb == "-":
            continue
        num = int(pb.split(",")[1])
        js = tag(tags, "json")
        parts = js.split(",") if js is not None else []
        name = parts[0] if parts else None
        inline = "inline" in parts[1:]
        cur[num] = (gotype, name, inline, "omitempty" in parts[1:])
    return structs


class Schema:
    def __init__(self, src):
        self.src = src
        self.messages = {}  # full name -> fields
        self.go = {}  # full name -> {num: go field}
        self.loaded = set()

    def load(self, proto_path):
        if proto_path in self.loaded:
            return
        self.loaded.add(proto_path)
        package, imports, messages = parse_proto(self.src.read(proto_path))
        pkg_dir = proto_path.rsplit("/", 1)[0]
        structs = {}
        for text in self.src.go_files(pkg_dir):
            for k, v in parse_go(text).items():
                structs.setdefault(k, {}).update(v)
        for name, fields in messages.items():
            full = package + "." + name
            self.messages[full] = (package, fields)
            self.go[full] = structs.get(name)
        for imp in imports:
            self.load(imp)

    def resolve(self, package, typ):
        if typ.startswith("."):
            return typ[1:]
        return package + "." + typ


def short_name(full):
    """`core.v1.Pod`, `meta.v1.ObjectMeta`: the message's name in decoding errors."""
    for prefix in ("k8s.io.api.", "k8s.io.apimachinery.pkg.apis.", "k8s.io.apimachinery.pkg."):
        if full.startswith(prefix):
            return full[len(prefix):]
    return full


def proto_path(package):
    # k8s.io.api.apps.v1 -> k8s.io/api/apps/v1/generated.proto
    parts = package.split(".")
    return "k8s.io/" + "/".join(parts[2:]) + "/generated.proto"


def package_of(group, version):
    if group == "":
        return "k8s.io.api.core." + version
    return "k8s.io.api.%s.%s" % (group.split(".")[0], version)


def resource_roots(meta_rs):
    text = open(meta_rs).read()
    table = text[text.index("pub const RESOURCES"):]
    table = table[: table.index("];")]
    roots = []
    for m in re.finditer(r'kind:\s*"(\w+)",\s*group:\s*"([^"]*)",\s*version:\s*"(\w+)"', table):
        kind, group, version = m.groups()
        if group in NOT_IN_K8S_API:
            continue
        api_version = version if group == "" else group + "/" + version
        roots.append((package_of(group, version), kind, api_version))
    if not roots:
        raise SystemExit("genproto: no RESOURCES rows found in " + meta_rs)
    return roots


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--api", required=True, help="git dir of github.com/kubernetes/api")
    ap.add_argument("--apimachinery", required=True, help="git dir of github.com/kubernetes/apimachinery")
    ap.add_argument("--ref", default="v0.34.0", help="tag or commit in both repositories (default v0.34.0)")
    ap.add_argument("--meta", default="src/api/meta.rs", help="the file holding RESOURCES")
    args = ap.parse_args()

    src = Source(args.api, args.apimachinery, args.ref)
    schema = Schema(src)
    roots = resource_roots(args.meta) + EXTRA_ROOTS
    for package, _, _ in roots:
        schema.load(proto_path(package))

    # reachable messages, breadth first from the roots
    order, seen = [], set()
    queue = [package + "." + kind for package, kind, _ in roots]
    while queue:
        full = queue.pop(0)
        if full in seen or full in SPECIAL:
            continue
        if full not in schema.messages:
            raise SystemExit("genproto: message %s not found" % full)
        seen.add(full)
        order.append(full)
        package, fields = schema.messages[full]
        for label, typ, key, val, name, num in fields:
            t = val if key else typ
            if t not in SCALARS:
                queue.append(schema.resolve(package, t))
    order.sort()
    index = {full: i for i, full in enumerate(order)}
    if len(order) > 65535:
        raise SystemExit("genproto: too many messages for u16 indices")

    warnings = []

    def ty(package, t):
        if t in SCALARS:
            return SCALARS[t]
        full = schema.resolve(package, t)
        if full in SPECIAL:
            return SPECIAL[full]
        return "Msg(%d)" % index[full]

    lines = []
    for full in order:
        package, fields = schema.messages[full]
        go = schema.go.get(full)
        if go is None:
            warnings.append("no Go struct for %s: JSON names from the .proto, no inline/pointer information" % full)
            go = {}
        out = []
        for label, typ, key, val, name, num in fields:
            gotype, json_name, inline, omitempty = go.get(num, (None, None, False, False))
            if gotype is None and go:
                warnings.append("%s field %d (%s) has no Go field" % (full, num, name))
            if json_name == "-":
                continue  # not part of the JSON form
            if json_name and json_name != name:
                warnings.append("%s.%s: JSON name %s differs from the proto name" % (full, name, json_name))
            jname = json_name or name
            flags = 0
            if key:
                if key != "string":
                    raise SystemExit("genproto: map key %s in %s.%s" % (key, full, name))
                flags |= MAP
                t = ty(package, val)
            else:
                t = ty(package, typ)
                if label == "repeated":
                    flags |= REP
            if inline:
                flags |= INLINE
                jname = ""
            if not (flags & (REP | MAP)) and gotype is not None:
                pointer = gotype.startswith("*")
                # what Go's JSON encoder writes even when zero: numbers, bools and IntOrString
                # (a struct) without omitempty
                zero_written = t in ("Bool", "I32", "I64", "U32", "U64", "F32", "F64", "IntOrString")
                if pointer or (zero_written and not omitempty):
                    flags |= KEEP
            out.append('F(%d, "%s", %s, %d)' % (num, jname, t, flags))
        lines.append('    /* %d */ M("%s", &[%s]),' % (index[full], short_name(full), ", ".join(out)))

    kinds = []
    for package, kind, api_version in roots:
        kinds.append('    ("%s", "%s", %d),' % (api_version, kind, index[package + "." + kind]))

    for w in warnings:
        print("genproto: warning: " + w, file=sys.stderr)

    print("""//! GENERATED by tools/genproto/genproto.py from k8s.io/api and k8s.io/apimachinery at %s
//! (`generated.proto` and the Go `types.go` tags). DO NOT EDIT: regenerate from the repository
//! root (GIT_DIRs: clones of github.com/kubernetes/api and github.com/kubernetes/apimachinery) with
//!
//! ```text
//! python3 tools/genproto/genproto.py --api GIT_DIR --apimachinery GIT_DIR > src/serve/protobuf/schema.rs
//! ```
//!
//! (see tools/genproto/README.md). %d messages, reachable from the kinds of `RESOURCES`
//! (src/api/meta.rs) and the extra roots listed in the generator.
//!
//! `F(number, JSON name ("" when inline), type, flags)`; flags: 1 repeated, 2 `map<string, type>`,
//! 4 inline (embedded struct), 8 keep zero values (a Go pointer, or a number, bool or
//! IntOrString without `omitempty`).

use super::{Field as F, Message as M, Ty::*};

/// (apiVersion ("" = any), kind, message index) of the kinds decoded.
pub(super) static KINDS: &[(&str, &str, u16)] = &[
%s
];

pub(super) static MESSAGES: &[M] = &[
%s
];""" % (args.ref, len(order), "\n".join(kinds), "\n".join(lines)))


if __name__ == "__main__":
    main()
