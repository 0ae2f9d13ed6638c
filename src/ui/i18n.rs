//! The page's one translation table: every UI string and every narration template, in English and
//! Korean. Templates use `{name}` placeholders; `{name|이/가}` appends the Korean particle that fits
//! the value (with or without a final consonant).

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Ko,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
        }
    }
    pub fn from_code(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "ko" => Some(Lang::Ko),
            _ => None,
        }
    }
    /// The default for a browser language tag (`navigator.language`): Korean for `ko…`.
    pub fn from_browser(tag: &str) -> Lang {
        if tag.to_ascii_lowercase().starts_with("ko") {
            Lang::Ko
        } else {
            Lang::En
        }
    }
}

/// A span of cluster time for the page's sentences, in seconds with one decimal: "2.9 s",
/// "2.9초" (ms below a second: "350 ms", "350밀리초" would read oddly, so "0.4초").
pub fn duration(lang: Lang, ms: i64) -> String {
    let secs = ms as f64 / 1000.0;
    match lang {
        Lang::En => format!("{:.1} s", secs),
        Lang::Ko => format!("{:.1}초", secs),
    }
}

/// The text for `key`, or the key itself when it is missing (the unit tests make sure none is).
pub fn tr(lang: Lang, key: &str) -> &'static str {
    match TABLE.binary_search_by(|(k, _, _)| (*k).cmp(key)) {
        Ok(i) => match lang {
            Lang::En => TABLE[i].1,
            Lang::Ko => TABLE[i].2,
        },
        Err(_) => {
            // leak-free fallback: a missing key shows as itself (tests forbid this)
            match TABLE.iter().find(|(k, _, _)| *k == key) {
                Some(e) => e.1,
                None => "?",
            }
        }
    }
}

/// Whether a word ends in a final consonant (받침) as a Korean reader says it, for choosing
/// particles (은/는, 이/가, 을/를, 과/와). The one rule for every noun phrase the page fills in:
/// - Hangul: its final consonant;
/// - digits: by their Korean reading (영 일 이 삼 사 오 육 칠 팔 구; 10 십, 100 백, 1000 천 all
///   end in 0, which has one);
/// - a Latin segment that reads as letters (it holds a digit, has no vowel, or is one or two
///   letters: a pod-hash suffix `6jcph`, `db`, `pvc`): the last letter's name (엘 엠 엔 알 have one);
/// - a Latin word, by its usual Korean loanword reading: `-ng`, `-m`, `-n`, `-l` (롤, 노드의 kubelet
///   → 쿠블릿), a vowel (or a doubled letter after one) before `-t`, `-p`, `-b`, `-k` (셋, 앱, 웹, 북), `-ck` (스택), and a silent `e`
///   after a vowel and `m`/`n`/`l` (네임, 존, 롤) have one; `-ment`, `-nt`, `-rk`, `-s`, `-x`, `-r`,
///   `-d` and vowels do not (디플로이먼트, 네트워크, 레디스, 엔진엑스, 서버).
pub fn has_batchim(word: &str) -> bool {
    let trimmed = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    let Some(c) = trimmed.chars().last() else {
        return false;
    };
    match c {
        '가'..='힣' => !(c as u32 - 0xAC00).is_multiple_of(28),
        '0' | '1' | '3' | '6' | '7' | '8' => true,
        '2' | '4' | '5' | '9' => false,
        c if c.is_ascii_alphabetic() => {
            // the last segment: what follows the last separator
            let seg: String = trimmed.rsplit(|ch: char| !ch.is_ascii_alphanumeric()).next().unwrap_or("").to_ascii_lowercase();
            let vowel = |ch: char| "aeiouy".contains(ch);
            let spelled = seg.chars().any(|ch| ch.is_ascii_digit()) || !seg.chars().any(vowel) || seg.len() <= 2;
            let last = c.to_ascii_lowercase();
            if spelled {
                return matches!(last, 'l' | 'm' | 'n' | 'r');
            }
            let b = seg.as_bytes();
            let before = |k: usize| -> char {
                if b.len() > k {
                    b[b.len() - 1 - k] as char
                } else {
                    ' '
                }
            };
            match last {
                'g' => before(1) == 'n',
                'm' | 'n' | 'l' => true,
                // a vowel before it, or a doubled letter after one (app 앱, mitt 밋)
                't' | 'p' | 'b' => (vowel(before(1)) || (before(1) == last && vowel(before(2)))) && !seg.ends_with("ment"),
                'k' => before(1) == 'c' || vowel(before(1)),
                'e' => matches!(before(1), 'm' | 'n' | 'l') && vowel(before(2)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Fills `{name}` and `{name|A/B}` placeholders. Unknown placeholders are left as they are.
pub fn fill(template: &str, vars: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let Some(j) = after.find('}') else {
            out.push_str(&rest[i..]);
            return out;
        };
        let inner = &after[..j];
        let (name, particle) = match inner.split_once('|') {
            Some((n, p)) => (n, Some(p)),
            None => (inner, None),
        };
        match vars.iter().find(|(k, _)| *k == name) {
            Some((_, v)) => {
                out.push_str(v);
                if let Some(p) = particle {
                    let (a, b) = p.split_once('/').unwrap_or((p, p));
                    out.push_str(if has_batchim(v) { a } else { b });
                }
            }
            None => {
                out.push('{');
                out.push_str(inner);
                out.push('}');
            }
        }
        rest = &after[j + 1..];
    }
    out.push_str(rest);
    out
}

/// (key, English, Korean), sorted by key (a unit test checks the order).
pub static TABLE: &[(&str, &str, &str)] = &[
    ("actor.apiextensions", "kube-apiserver's CustomResourceDefinition controllers", "kube-apiserver의 CustomResourceDefinition 컨트롤러"),
    ("actor.available", "kube-apiserver's APIService availability controller", "kube-apiserver의 APIService 가용성 컨트롤러"),
    ("actor.cjc", "the CronJob controller", "크론잡 컨트롤러"),
    ("actor.coredns", "CoreDNS", "CoreDNS"),
    ("actor.craggr", "the ClusterRole aggregation controller", "ClusterRole 집계 컨트롤러"),
    ("actor.dc", "the deployment controller", "디플로이먼트 컨트롤러"),
    ("actor.disruption", "the disruption controller", "디스럽션 컨트롤러"),
    ("actor.dsc", "the DaemonSet controller", "데몬셋 컨트롤러"),
    ("actor.epc", "the endpoints controller", "엔드포인트 컨트롤러"),
    ("actor.epsc", "the EndpointSlice controller", "엔드포인트슬라이스 컨트롤러"),
    ("actor.gc", "the garbage collector", "가비지 컬렉터"),
    ("actor.hpa", "the HorizontalPodAutoscaler controller", "HPA 컨트롤러"),
    ("actor.ipam", "the node IPAM controller", "노드 IPAM 컨트롤러"),
    ("actor.jc", "the Job controller", "잡 컨트롤러"),
    ("actor.kcm", "kube-controller-manager", "kube-controller-manager"),
    ("actor.kubelet", "the kubelet on {node}", "{node}의 kubelet"),
    ("actor.nlc", "the node lifecycle controller", "노드 라이프사이클 컨트롤러"),
    ("actor.nsc", "the namespace controller", "네임스페이스 컨트롤러"),
    ("actor.prov", "the storage provisioner", "스토리지 프로비저너"),
    ("actor.proxy", "kube-proxy on {node}", "{node}의 kube-proxy"),
    ("actor.pvc", "the PersistentVolume controller", "퍼시스턴트볼륨 컨트롤러"),
    ("actor.pvcprot", "the PVC protection controller", "PVC 보호 컨트롤러"),
    ("actor.pvprot", "the PV protection controller", "PV 보호 컨트롤러"),
    ("actor.rcc", "the replication controller manager", "레플리케이션 컨트롤러 매니저"),
    ("actor.rootca", "the root CA publisher", "루트 CA 게시자(root-ca-cert-publisher)"),
    ("actor.rqc", "the resource quota controller", "리소스쿼터 컨트롤러"),
    ("actor.rsc", "the replicaset controller", "레플리카셋 컨트롤러"),
    ("actor.runtime", "containerd on {node}", "{node}의 containerd"),
    ("actor.sactl", "the ServiceAccount controller", "ServiceAccount 컨트롤러"),
    ("actor.sched", "the scheduler", "스케줄러"),
    ("actor.stsc", "the StatefulSet controller", "스테이트풀셋 컨트롤러"),
    ("actor.ttl", "the TTL-after-finished controller", "TTL-after-finished 컨트롤러"),
    ("actor.website_operator", "the website operator (a custom controller)", "웹사이트 오퍼레이터(커스텀 컨트롤러)"),
    ("app.tagline", "A Kubernetes v1.34 control plane, simulated step by step in your browser", "브라우저에서 한 단계씩 시뮬레이션하는 쿠버네티스 v1.34 컨트롤 플레인"),
    ("audit.all", "all", "전체"),
    ("audit.code", "code", "코드"),
    ("audit.dropped", "The {n} oldest audit events are no longer kept: kube-apiserver keeps at most {events} events or {mib} MiB of them, the newest.", "가장 오래된 감사 이벤트 {n}개는 더 이상 보관되지 않습니다. kube-apiserver는 최근 이벤트를 최대 {events}개 또는 {mib} MiB까지만 보관합니다."),
    ("audit.empty", "No audit events yet. kube-apiserver logs each request at the level its audit policy gives it (some not at all).", "아직 감사(audit) 이벤트가 없습니다. kube-apiserver는 감사 정책이 정한 레벨로 요청을 하나씩 기록합니다(기록하지 않는 요청도 있습니다)."),
    ("audit.filters", "Filter the audit log", "감사 로그 필터"),
    ("audit.kind", "kind", "kind"),
    ("audit.level", "level", "레벨"),
    ("audit.name", "name", "이름"),
    ("audit.newest", "The newest {n} of {total} matching events.", "조건에 맞는 이벤트 {total}개 중 최근 {n}개입니다."),
    ("audit.nomatch", "No audit event matches these filters.", "이 필터에 맞는 감사 이벤트가 없습니다."),
    ("audit.policy", "Audit policy (EKS)", "감사 정책 (EKS)"),
    ("audit.policy_note", "kube-apiserver checks the rules in order; the first that matches gives the request its level. None: not logged. Metadata: who did what, when. Request: also the request body (requestObject). RequestResponse: also the response body (responseObject).", "kube-apiserver는 규칙을 순서대로 확인하고, 처음 맞는 규칙이 요청의 레벨을 정합니다. None: 기록하지 않음. Metadata: 누가, 무엇을, 언제. Request: 요청 본문(requestObject)까지. RequestResponse: 응답 본문(responseObject)까지."),
    ("audit.query", "CloudWatch Logs Insights query", "CloudWatch Logs Insights 쿼리"),
    ("audit.query_more", "The table shows the first {n} of {total} rows.", "표에는 {total}개 행 중 처음 {n}개만 보입니다."),
    ("audit.query_none", "No records matched.", "일치하는 레코드가 없습니다."),
    ("audit.query_note", "As on EKS: the audit log is the log group's kube-apiserver-audit stream. Commands: fields, filter (=, !=, <, >, like /regex/, like \"text\", in [...], and, or, not), sort … asc|desc, limit, display. Ctrl+Enter runs the query over the log up to the current step.", "EKS에서처럼 감사 로그는 로그 그룹의 kube-apiserver-audit 스트림입니다. 명령: fields, filter (=, !=, <, >, like /정규식/, like \"문자열\", in [...], and, or, not), sort … asc|desc, limit, display. Ctrl+Enter를 누르면 현재 단계까지의 로그에서 쿼리를 실행합니다."),
    ("audit.query_run", "Run query", "쿼리 실행"),
    ("audit.query_stale", "These results are the log up to step {step}; run the query again for the current step.", "이 결과는 {step}단계까지의 로그입니다. 현재 단계의 결과를 보려면 쿼리를 다시 실행하세요."),
    ("audit.query_summary", "Showing {shown} of {matched} records matched; {scanned} records scanned (the log up to step {step}).", "일치한 레코드 {matched}개 중 {shown}개 표시, 레코드 {scanned}개 검색({step}단계까지의 로그)."),
    ("audit.resource", "resource", "리소스"),
    ("audit.uri", "requestURI", "requestURI"),
    ("audit.user", "user", "user"),
    ("audit.useragent", "userAgent", "userAgent"),
    ("audit.verb", "verb", "verb"),
    ("ch.client", "kubectl → kube-apiserver → etcd", "kubectl → kube-apiserver → etcd"),
    ("ch.controller", "{actor} acts", "{actor|이/가} 동작합니다"),
    ("ch.dc", "The deployment controller manages the ReplicaSets", "디플로이먼트 컨트롤러가 레플리카셋을 만들고 조정합니다"),
    ("ch.fault", "A fault, and the recovery", "장애와 복구"),
    ("ch.kubelet", "The kubelets run the containers", "kubelet이 컨테이너를 실행합니다"),
    ("ch.net", "A request on the data path", "데이터 경로를 지나는 요청"),
    ("ch.rsc", "The replicaset controller creates or deletes Pods", "레플리카셋 컨트롤러가 파드를 만들거나 지웁니다"),
    ("ch.sched", "The scheduler binds Pods to nodes", "스케줄러가 파드를 노드에 바인딩합니다"),
    ("ch.status", "Status flows back to the API server", "상태가 API 서버로 돌아갑니다"),
    ("chip.image", "image {image}", "이미지 {image}"),
    ("chip.owner", "{owner} (pod-template-hash {hash})", "{owner} (pod-template-hash {hash})"),
    ("console.clear", "Clear", "지우기"),
    ("console.hint", "Same interpreter as `kubesim run`: kubectl get/describe/scale/delete/apply -f - (reads the editor), diff -f -, patch, wait, debug, port-forward, proxy, cp, kustomize, config, set image, rollout, logs, annotate, top, autoscale (kubectl help lists them all), sim … commands (sim load SERVICE --rps N sends traffic), and a small shell: curl localhost:PORT reaches port-forward and proxy, which run as jobs (jobs, kill %1); cat, ls, mkdir read and write the console's files (a script in the editor can write them with cat <<EOF > FILE). Commands run at the end of the timeline; ↑/↓ for history.", "`kubesim run`과 같은 인터프리터입니다: kubectl get/describe/scale/delete/apply -f - (편집기 내용을 읽음), diff -f -, patch, wait, debug, port-forward, proxy, cp, kustomize, config, set image, rollout, logs, annotate, top, autoscale (kubectl help에 전부 나옴), sim … 명령 (sim load 서비스 --rps N으로 트래픽을 보냄), 그리고 작은 셸: curl localhost:포트는 작업(job)으로 실행되는 port-forward와 proxy에 연결되고 (jobs, kill %1), cat, ls, mkdir는 콘솔의 파일을 읽고 씁니다 (편집기의 스크립트에서 cat <<EOF > 파일로 쓸 수 있음). 명령은 타임라인의 끝에서 실행되며 ↑/↓로 기록을 불러옵니다."),
    ("console.images", "Images: servers (nginx, httpd, redis, postgres…) run until stopped; busybox, alpine and ubuntu with no command exit at once; command/args run as a small shell script (sleep, echo, exit, touch, rm, while, until). The teaching image kubesim/app:1, :2, :3 serves HTTP on 8080 and reads its env: READY_AFTER=N (/ready 503 for N s), HEALTHY_FOR=N (/healthz 500 after N s), EXIT_AFTER=N with EXIT_CODE=C (and FAILURES=K: only the first K runs in a Pod fail), LEAK_MB_PER_S=N (OOMKilled over its memory limit), CPU_MILLIS, MEMORY_MB and CPU_PER_REQUEST (what kubectl top shows, and how CPU follows sim load).", "이미지: 서버 이미지(nginx, httpd, redis, postgres…)는 멈출 때까지 실행됩니다. 명령이 없는 busybox, alpine, ubuntu는 바로 종료됩니다. command/args는 작은 셸 스크립트로 실행됩니다(sleep, echo, exit, touch, rm, while, until). 교육용 이미지 kubesim/app:1, :2, :3은 8080 포트에서 HTTP를 제공하며 env를 읽습니다: READY_AFTER=N(N초 동안 /ready가 503), HEALTHY_FOR=N(N초 뒤 /healthz가 500), EXIT_AFTER=N과 EXIT_CODE=C(FAILURES=K면 파드 안에서 처음 K번만 실패), LEAK_MB_PER_S=N(메모리 제한을 넘으면 OOMKilled), CPU_MILLIS, MEMORY_MB, CPU_PER_REQUEST(kubectl top에 보이는 사용량, sim load에 따라 늘어나는 CPU)."),
    ("console.label", "kubectl console input", "kubectl 콘솔 입력"),
    ("console.placeholder", "kubectl get pods -o wide", "kubectl get pods -o wide"),
    ("console.run", "Run", "실행"),
    ("console.title", "Console", "콘솔"),
    ("ctl.back", "Step back", "이전 단계"),
    ("ctl.chapter", "Chapter {n} of {total}: {title}", "{total}장 중 {n}장: {title}"),
    ("ctl.end", "Go to the end", "끝으로"),
    ("ctl.fwd", "Step forward", "다음 단계"),
    ("ctl.jump", "Jump to", "이동"),
    ("ctl.jump.chapter", "chapter", "장"),
    ("ctl.jump.etcd", "etcd write", "etcd 쓰기"),
    ("ctl.jump.event", "Event", "이벤트"),
    ("ctl.jump.next", "Next", "다음"),
    ("ctl.jump.prev", "Previous", "이전"),
    ("ctl.jump.story", "story step", "이야기 단계"),
    ("ctl.keys", "Space: play/pause · ←/→: step", "Space: 재생/일시정지 · ←/→: 단계 이동"),
    ("ctl.level", "Level of detail", "자세히 보기 수준"),
    ("ctl.level.all", "Every message ({n})", "모든 메시지 ({n})"),
    ("ctl.level.story", "Story ({n} steps)", "이야기 ({n}단계)"),
    ("ctl.pause", "Pause", "일시정지"),
    ("ctl.play", "Play", "재생"),
    ("ctl.pos.all", "Message {n} of {total}", "메시지 {total}개 중 {n}번째"),
    ("ctl.pos.end", "The outcome · message {n} of {total}", "결과 · 메시지 {total}개 중 {n}번째"),
    ("ctl.pos.story", "Story step {k} of {stories} · message {n} of {total}", "이야기 {stories}단계 중 {k}단계 · 메시지 {total}개 중 {n}번째"),
    ("ctl.round", "Round {n} of {total}", "{total}라운드 중 {n}라운드"),
    ("ctl.speed", "Speed", "속도"),
    ("ctl.start", "Go to the start", "처음으로"),
    ("ctl.step", "Step {n} / {total}", "단계 {n} / {total}"),
    ("ctl.timeline", "Timeline: step {n} of {total}", "타임라인: {total}단계 중 {n}단계"),
    ("diagram.cut_off", "✂ network cut", "✂ 네트워크 단절"),
    ("diagram.kcm", "kube-controller-manager", "kube-controller-manager"),
    ("diagram.label", "Diagram of the control plane and the nodes; the current message travels along its edge.", "컨트롤 플레인과 노드의 다이어그램. 현재 메시지가 해당 연결선을 따라 이동합니다."),
    ("diagram.more", "+{n} more", "외 {n}개"),
    ("diagram.no_services", "no Services yet: kubectl expose …", "아직 서비스 없음: kubectl expose …"),
    ("diagram.notready", "NotReady", "NotReady"),
    ("diagram.queue", "scheduling queue", "스케줄링 큐"),
    ("diagram.ready", "Ready", "Ready"),
    ("diagram.services", "Services", "서비스"),
    ("diagram.unregistered", "not registered", "미등록"),
    ("editor.apply", "Apply", "적용"),
    ("editor.applying", "Running…", "실행 중…"),
    ("editor.cancel", "Cancel", "취소"),
    ("editor.cancel_edit", "Cancel", "취소"),
    ("editor.editing", "Editing: {cmd} — change the YAML, then save (kubectl sends only what changed)", "편집 중: {cmd} — YAML을 고친 뒤 저장하세요 (kubectl은 바뀐 부분만 보냅니다)"),
    ("editor.error_at", "line {line}, column {col}", "{line}행 {col}열"),
    ("editor.failed", "kubectl apply failed", "kubectl apply 실패"),
    ("editor.hide", "Hide the manifest", "매니페스트 숨기기"),
    ("editor.hint", "Apply runs `kubectl apply -f -` on the simulated cluster and lets it settle; the timeline then plays every message.", "적용은 시뮬레이션 클러스터에 `kubectl apply -f -`를 실행하고 안정될 때까지 진행합니다. 그다음 타임라인이 모든 메시지를 재생합니다."),
    ("editor.label", "Manifest editor (YAML, or a script of kubectl and sim lines)", "매니페스트 편집기 (YAML 또는 kubectl·sim 명령 스크립트)"),
    ("editor.output", "kubectl printed", "kubectl 출력"),
    ("editor.preset", "Preset", "예제"),
    ("editor.progress", "Simulation in progress", "시뮬레이션 진행 중"),
    ("editor.rate", " ({n} messages/s)", " (초당 메시지 {n}개)"),
    ("editor.reset", "Reset cluster", "클러스터 초기화"),
    ("editor.reset_title", "Start again from a fresh cluster (3 nodes), keeping the editor", "편집기 내용은 그대로 두고 새 클러스터(노드 3개)에서 다시 시작"),
    ("editor.save_edit", "Save (kubectl edit)", "저장 (kubectl edit)"),
    ("editor.settling", "Simulating… {steps} messages, {time} of cluster time{rate}. The new steps join the timeline as they come; the console takes commands and runs them after.", "시뮬레이션 중… 메시지 {steps}개, 클러스터 시간 {time}{rate}. 새 단계는 나오는 대로 타임라인에 붙고, 콘솔에 입력한 명령은 끝난 뒤에 실행됩니다."),
    ("editor.show", "Show the manifest", "매니페스트 보기"),
    ("editor.title", "Manifest", "매니페스트"),
    ("embed.open", "Open the full sandbox", "전체 샌드박스 열기"),
    ("etcd.changed", "What revision {rev} changed", "리비전 {rev}에서 바뀐 내용"),
    ("etcd.created", "(new key)", "(새 키)"),
    ("etcd.keys", "Keys at revision {rev}", "리비전 {rev}의 키"),
    ("etcd.meta", "create_revision {c} · mod_revision {m} · version {v}", "create_revision {c} · mod_revision {m} · version {v}"),
    ("etcd.more", "… {n} more {res}: show all", "… {res} {n}개 더: 모두 보기"),
    ("etcd.none", "Select a key.", "키를 선택하세요."),
    ("etcd.value", "Value of {key} at revision {rev}", "리비전 {rev}에서 {key}의 값"),
    ("events.empty", "No events yet.", "아직 이벤트가 없습니다."),
    ("events.list", "List order (get events)", "목록 순서 (get events)"),
    ("events.order", "Order of the Events", "이벤트 순서"),
    ("events.watch", "Watch order (get events --watch)", "watch 순서 (get events --watch)"),
    ("events.watch_note", "As a `kubectl get events --watch` started before the timeline prints them: one line per Event as it is stored (again when its count changes), oldest first, each as old as it was when it arrived. The list is sorted by name, so the ReplicaSet's Events come before the Deployment's.", "타임라인 전에 시작한 `kubectl get events --watch`가 출력하는 대로: 이벤트가 저장될 때마다 한 줄씩(횟수가 바뀌면 다시) 오래된 것부터, 도착했을 때의 나이로 보여 줍니다. 목록은 이름순으로 정렬되므로 레플리카셋의 이벤트가 디플로이먼트의 이벤트보다 먼저 나옵니다."),
    ("lang.label", "Language", "언어"),
    ("legend.cri", "CRI call", "CRI 호출"),
    ("legend.etcd", "etcd write", "etcd 쓰기"),
    ("legend.net", "network hop", "네트워크 홉"),
    ("legend.request", "request", "요청"),
    ("legend.response", "response", "응답"),
    ("legend.watch", "watch event", "watch 이벤트"),
    ("limit.link", "This run is too large for a link ({size}, over {max}): the address bar no longer follows it, and Share cannot make a link.", "이 실행은 링크에 담기에 너무 큽니다({size}, 한도 {max}): 주소 표시줄이 더는 따라가지 않고, 공유로 링크를 만들 수 없습니다."),
    ("limit.store", "The editor's text is too large to keep in this browser ({size}, over {max}): a reload brings back the last text that fitted.", "편집기 내용이 이 브라우저에 저장하기에 너무 큽니다({size}, 한도 {max}): 새로 고침하면 한도 안에 들던 마지막 내용이 돌아옵니다."),
    ("link.malformed", "This link could not be opened: its field “{field}” {why}. The page started without it.", "이 링크를 열 수 없습니다: “{field}” 필드가 {why}. 링크 없이 페이지를 시작했습니다."),
    ("link.too_large", "This link could not be opened: it is {size}, over the {max} a kubesim link may carry. The page started without it.", "이 링크를 열 수 없습니다: 크기가 {size}로, kubesim 링크가 담을 수 있는 {max}를 넘습니다. 링크 없이 페이지를 시작했습니다."),
    ("link.why.base64", "is not valid base64url (damaged or cut off)", "올바른 base64url이 아닙니다(손상되었거나 잘렸습니다)"),
    ("link.why.field", "is unknown to this version of kubesim", "이 버전의 kubesim이 모르는 필드입니다"),
    ("link.why.lang", "is not a language of the page (en, ko)", "페이지의 언어(en, ko)가 아닙니다"),
    ("link.why.number", "is not a number", "숫자가 아닙니다"),
    ("link.why.speed", "is not one of the speeds 0.25 to 8", "0.25~8 중 하나의 속도가 아닙니다"),
    ("link.why.utf8", "is not UTF-8 text (damaged or cut off)", "UTF-8 텍스트가 아닙니다(손상되었거나 잘렸습니다)"),
    ("n.authz.masters", "{user} is in system:masters, which is allowed everything", "{user|은/는} 모든 것이 허용되는 system:masters 그룹에 속함"),
    ("n.authz.node", "the Node authorizer allows a kubelet what its node's Pods need", "Node 인가자는 kubelet에게 그 노드의 파드에 필요한 것만 허용"),
    ("n.authz.none", "answered before the authorizers decided", "인가자가 판단하기 전에 응답됨"),
    ("n.authz.rbac", "RBAC: allowed by {rule}", "RBAC: {rule}에 의해 허용"),
    ("n.before", "The cluster is idle: three nodes are registered, and every controller, the scheduler and each kubelet have listed their resources and are watching them through kube-apiserver. Press play or step forward.", "클러스터는 대기 상태입니다. 노드 세 개가 등록되어 있고, 컨트롤러와 스케줄러, 각 kubelet은 kube-apiserver를 통해 맡은 리소스를 list 한 뒤 watch하고 있습니다. 재생하거나 다음 단계로 넘어가 보세요."),
    ("n.cri.create", "CreateContainer: containerd on {node} creates the container {container} from the image, inside the Pod's sandbox.", "CreateContainer: {node}의 containerd가 이미지로 {container} 컨테이너를 파드 샌드박스 안에 만듭니다."),
    ("n.cri.create_done", "containerd created the container {container}. The kubelet records a Created event and asks the runtime to start it.", "containerd가 {container} 컨테이너를 만들었습니다. kubelet은 Created 이벤트를 기록하고 런타임에 컨테이너 시작을 요청합니다."),
    ("n.cri.died", "The kubelet's PLEG (pod lifecycle event generator) relists the containers and finds {container} dead with exit code {code}: an Error. The kubelet reports it as the container's state.terminated; the next pod sync restarts it if restartPolicy allows, after the crash-loop back-off (10 s, doubling to 5 minutes).", "kubelet의 PLEG(파드 라이프사이클 이벤트 생성기)가 컨테이너 목록을 다시 확인하다가 {container} 컨테이너가 종료 코드 {code}(으)로 죽은 것(Error)을 발견합니다. kubelet은 이를 컨테이너의 state.terminated로 보고하고, restartPolicy가 허락하면 다음 파드 동기화에서 크래시 루프 백오프(10초에서 시작해 두 배씩, 최대 5분)를 거쳐 재시작합니다."),
    ("n.cri.died_ok", "The kubelet's PLEG (pod lifecycle event generator) relists the containers and finds {container} finished with exit code 0 (Completed). Under a Deployment the restartPolicy is Always: a container that ends, even successfully, is restarted, and one that keeps ending lands in CrashLoopBackOff.", "kubelet의 PLEG(파드 라이프사이클 이벤트 생성기)가 컨테이너 목록을 다시 확인하다가 {container} 컨테이너가 종료 코드 0(Completed)으로 끝난 것을 발견합니다. 디플로이먼트의 restartPolicy는 Always라서, 정상 종료한 컨테이너도 재시작되며 계속 끝나면 CrashLoopBackOff에 빠집니다."),
    ("n.cri.exec", "ExecSync: the kubelet on {node} runs a command inside a running container ({detail}). A preStop hook runs before the container gets SIGTERM, and its time counts against the grace period.", "ExecSync: {node}의 kubelet이 실행 중인 컨테이너 안에서 명령을 실행합니다 ({detail}). preStop 훅은 컨테이너가 SIGTERM을 받기 전에 실행되며, 그 시간은 grace period에서 차감됩니다."),
    ("n.cri.generic", "{From} → {to}: CRI call {call} {detail}.", "{from} → {to}: CRI 호출 {call} {detail}."),
    ("n.cri.pull", "The image is not on {node} yet (imagePullPolicy IfNotPresent), so the kubelet asks containerd to pull {image} from the registry. A node pulls one image at a time by default (serializeImagePulls); a Pulling event has been recorded.", "이미지가 아직 {node}에 없으므로(imagePullPolicy IfNotPresent) kubelet이 containerd에 레지스트리에서 {image} 이미지를 받아오라고(PullImage) 요청합니다. 기본적으로 노드는 이미지를 한 번에 하나씩 받으며(serializeImagePulls), Pulling 이벤트가 기록되었습니다."),
    ("n.cri.pull_done", "containerd finished the pull; the tag resolved to the digest {digest}. The kubelet records a Pulled event and goes on to create the container.", "containerd가 이미지 풀을 마쳤고, 태그는 다이제스트 {digest}(으)로 확인되었습니다. kubelet은 Pulled 이벤트를 기록하고 컨테이너 생성으로 넘어갑니다."),
    ("n.cri.pull_error", "The pull failed: the registry has no such tag. The container stays Waiting with reason ErrImagePull, and the kubelet will retry with an exponential back-off (10s, 20s, 40s… up to 5 minutes), shown as ImagePullBackOff.", "이미지 풀이 실패했습니다: 레지스트리에 그런 태그가 없습니다. 컨테이너는 ErrImagePull 사유로 Waiting 상태에 머물고, kubelet은 지수 백오프(10초, 20초, 40초… 최대 5분)로 재시도하며 이 상태가 ImagePullBackOff로 보입니다."),
    ("n.cri.remove", "RemovePodSandbox: containerd on {node} releases the Pod's sandbox and its network namespace.", "RemovePodSandbox: {node}의 containerd가 파드 샌드박스와 네트워크 네임스페이스를 해제합니다."),
    ("n.cri.sandbox", "The kubelet on {node} calls the container runtime over CRI: RunPodSandbox creates the Pod's sandbox, the pause container that holds its network namespace and the Pod IP. The app containers will join it.", "{node}의 kubelet이 CRI로 컨테이너 런타임을 호출합니다. RunPodSandbox는 파드의 샌드박스, 즉 네트워크 네임스페이스와 파드 IP를 가진 pause 컨테이너를 만들고, 애플리케이션 컨테이너들이 여기에 합류합니다."),
    ("n.cri.sandbox_done", "containerd on {node} reports the sandbox is ready. The kubelet now makes sure the image is present before it creates the container.", "{node}의 containerd가 샌드박스 준비 완료를 알립니다. kubelet은 컨테이너를 만들기 전에 이미지가 있는지 확인합니다."),
    ("n.cri.start", "StartContainer: containerd on {node} starts the process of the container {container}.", "StartContainer: {node}의 containerd가 {container} 컨테이너의 프로세스를 시작합니다."),
    ("n.cri.start_done", "The container {container} is running. The kubelet records a Started event; its next status update reports the Pod Running and, without a readiness probe, Ready.", "{container} 컨테이너가 실행 중입니다. kubelet은 Started 이벤트를 기록하고, 다음 상태 업데이트에서 파드를 Running으로, readiness probe가 없으므로 Ready로 보고합니다."),
    ("n.cri.stop", "StopContainer: the kubelet on {node} stops {container} (SIGTERM, then SIGKILL if the grace period runs out).", "StopContainer: {node}의 kubelet이 {container} 컨테이너를 멈춥니다 (SIGTERM, grace period가 지나면 SIGKILL)."),
    ("n.cri.stop_done", "containerd on {node} reports the containers {container} stopped.", "{node}의 containerd가 {container} 컨테이너가 멈췄다고 알립니다."),
    ("n.cri.stop_none", "The kubelet on {node} has no running container of this Pod to stop (it was deleted before any started): it goes on to the Pod's sandbox.", "{node}의 kubelet에게는 멈출 이 파드의 실행 중인 컨테이너가 없습니다 (시작되기 전에 삭제됨): 파드의 샌드박스 정리로 넘어갑니다."),
    ("n.etcd.create", "kube-apiserver writes the new {kind} to etcd under the key {key}. etcd's revision becomes {rev}, and this number is the object's resourceVersion. Only the API server talks to etcd; every other component goes through the API server.", "kube-apiserver가 새 {kind|을/를} etcd의 {key} 키에 씁니다. etcd 리비전은 {rev|이/가} 되고, 이 숫자가 객체의 resourceVersion입니다. etcd와 직접 통신하는 것은 API 서버뿐이며, 다른 구성요소는 모두 API 서버를 거칩니다."),
    ("n.etcd.delete", "kube-apiserver deletes the key {key} from etcd (revision {rev}). Everyone watching {kind} objects will receive a DELETED event.", "kube-apiserver가 etcd에서 {key} 키를 삭제합니다 (리비전 {rev}). {kind|을/를} watch하는 구성요소들은 DELETED 이벤트를 받게 됩니다."),
    ("n.etcd.expire", "The etcd lease of {kind} {name} ran out (kube-apiserver's --event-ttl: one hour after its last write). etcd deletes the key {key} (revision {rev}) and everyone watching {kind} objects receives a DELETED event.", "{kind} {name}의 etcd 리스가 만료되었습니다 (kube-apiserver의 --event-ttl: 마지막 기록 후 1시간). etcd가 {key} 키를 삭제하고 (리비전 {rev}) {kind|을/를} watch하는 구성요소들은 DELETED 이벤트를 받습니다."),
    ("n.etcd.update", "kube-apiserver stores the updated {kind} {name} in etcd at {key} (revision {rev}; version {version} of this key). The etcd tab shows exactly which fields changed.", "kube-apiserver가 변경된 {kind} {name|을/를} etcd의 {key}에 저장합니다 (리비전 {rev}, 이 키의 version {version}). 어떤 필드가 바뀌었는지는 etcd 탭에서 볼 수 있습니다."),
    ("n.fault", "A fault: {from} crashed and a fresh process started. Its watches closed and the {lost} inputs queued for it were lost (its work queue starts empty); the new process lists every object again and watches from there, and its controllers resync, so no change is lost, only delayed. A restarted component recovers this way in Kubernetes too.", "장애 주입: {from|이/가} 죽고 새 프로세스가 시작되었습니다. watch 연결이 끊기고 대기 중이던 입력 {lost}개가 사라졌습니다(작업 큐가 빈 채로 시작합니다). 새 프로세스는 모든 객체를 다시 list하고 그 시점부터 watch하며 컨트롤러가 다시 동기화하므로, 변경은 사라지지 않고 늦어질 뿐입니다. 쿠버네티스에서 재시작한 구성요소도 이렇게 회복합니다."),
    ("n.fault.apiserver", "A fault: kube-apiserver restarted. Every watch connection closed ({lost} events in flight were lost) and its new watch cache starts at etcd's current revision, so every reflector that resumes from an older resourceVersion gets 410 Gone and lists again. etcd kept every object: nothing is lost, the informers catch up.", "장애 주입: kube-apiserver가 재시작했습니다. 모든 watch 연결이 끊기고(전달 중이던 이벤트 {lost}개 유실) 새 watch 캐시는 etcd의 현재 revision에서 시작하므로, 더 오래된 resourceVersion에서 이어 보려는 reflector는 모두 410 Gone을 받고 다시 list합니다. etcd는 모든 객체를 그대로 갖고 있어서 잃는 것은 없고, 인포머는 따라잡습니다."),
    ("n.fault.heal", "The network heals: {node} reaches the control plane again. Its kubelet and kube-proxy watch again from the last resourceVersion they saw and catch up on what they missed (a Pod deleted meanwhile is stopped now); the kubelet renews its Lease and reports the node Ready, and the node lifecycle controller removes the unreachable taint.", "네트워크가 복구되었습니다: {node|이/가} 다시 컨트롤 플레인에 닿습니다. kubelet과 kube-proxy는 마지막으로 본 resourceVersion부터 다시 watch하며 놓친 변경을 따라잡고(그사이 삭제된 파드는 이제 멈춥니다), kubelet이 Lease를 갱신하고 노드를 Ready로 보고하면 노드 라이프사이클 컨트롤러가 unreachable taint를 지웁니다."),
    ("n.fault.kcm", "A fault: kube-controller-manager crashed, and with it all its controllers ({lost} queued inputs lost); a fresh process started. Before it runs any controller it must win the Lease kube-system/kube-controller-manager, which the dead process still holds: it reads the Lease and waits until the record has stayed the same for the lease duration (15 s), then takes it over. Until then no Deployment, ReplicaSet or node is reconciled.", "장애 주입: kube-controller-manager가 모든 컨트롤러와 함께 죽었고(대기 중이던 입력 {lost}개 유실) 새 프로세스가 시작되었습니다. 새 프로세스는 컨트롤러를 실행하기 전에 kube-system/kube-controller-manager Lease를 얻어야 하는데, 죽은 프로세스가 아직 쥐고 있습니다. Lease를 읽고 그 기록이 리스 기간(15초) 동안 그대로인 것을 확인한 뒤에야 넘겨받습니다. 그때까지는 어떤 디플로이먼트, 레플리카셋, 노드도 조정되지 않습니다."),
    ("n.fault.kubelet", "A fault: the kubelet on {node} restarted. containerd keeps the containers running: the new kubelet registers again (the Node exists already), lists the Pods bound to it, finds their containers and leaves them running, so no restart is counted. A container with a readiness probe is reported not ready until the probe passes again.", "장애 주입: {node}의 kubelet이 재시작했습니다. 컨테이너는 containerd가 계속 실행합니다. 새 kubelet은 다시 등록하고(노드는 이미 있습니다) 자기에게 바인딩된 파드를 list해 그 컨테이너를 찾아 그대로 둡니다. 그래서 재시작 횟수는 늘지 않습니다. readiness 프로브가 있는 컨테이너는 프로브가 다시 성공할 때까지 준비되지 않은 것으로 보고됩니다."),
    ("n.fault.lease_lost", "{From} could not renew its Lease within the renew deadline (10 s), so it gave up leadership and exited (\"leaderelection lost\") rather than risk two leaders acting at once. kubelet starts its container again; the new process has to win the Lease like any other candidate.", "{from|은/는} 갱신 기한(10초) 안에 Lease를 갱신하지 못해 리더 자리를 내려놓고 종료했습니다(\"leaderelection lost\"). 두 리더가 동시에 움직일 위험을 피하려는 것입니다. kubelet이 컨테이너를 다시 시작하고, 새 프로세스는 다른 후보처럼 Lease를 얻어야 합니다."),
    ("n.fault.partition", "A fault: {node}'s network to the control plane is cut. The kubelet and its containers keep running, but its requests fail and its watches are gone: its Lease is not renewed, so after 50 s the node lifecycle controller marks the node Unknown and taints it unreachable, and 300 s later evicts its Pods, which then stay Terminating because the kubelet cannot hear of it. Unlike a stopped kubelet, the containers still run and are still probed.", "장애 주입: {node|과/와} 컨트롤 플레인 사이의 네트워크가 끊겼습니다. kubelet과 컨테이너는 계속 돌지만 요청은 실패하고 watch도 끊깁니다. Lease가 갱신되지 않으므로 50초 뒤 노드 라이프사이클 컨트롤러가 노드를 Unknown으로 표시하고 unreachable taint를 붙이며, 300초 뒤 파드를 축출합니다. kubelet이 그 소식을 듣지 못하므로 파드는 Terminating으로 남습니다. 멈춘 kubelet과 달리 컨테이너는 여전히 실행되고 프로브도 계속됩니다."),
    ("n.fault.sched", "A fault: kube-scheduler crashed and a fresh process started ({lost} queued inputs lost). It lists and watches again at once, but schedules nothing until it wins the Lease kube-system/kube-scheduler, which the dead process still holds: it waits until the record it read has stayed the same for the lease duration (15 s). New Pods stay Pending meanwhile.", "장애 주입: kube-scheduler가 죽고 새 프로세스가 시작되었습니다(대기 중이던 입력 {lost}개 유실). 곧바로 다시 list와 watch를 하지만, 죽은 프로세스가 아직 쥐고 있는 kube-system/kube-scheduler Lease를 얻기 전에는 아무것도 스케줄링하지 않습니다. 읽은 기록이 리스 기간(15초) 동안 그대로이면 넘겨받습니다. 그동안 새 파드는 Pending으로 남습니다."),
    ("n.fault.unreachable", "{From} cannot reach kube-apiserver: {what}. The request fails on the node's side; nothing reaches the API server, nothing is written.", "{from|이/가} kube-apiserver에 닿지 못합니다: {what}. 요청은 노드 쪽에서 실패하며 API 서버에는 아무것도 도착하지 않고 기록되지도 않습니다."),
    ("n.fault.unreachable_node", "kube-apiserver cannot reach the kubelet's port 10250 to proxy the log request: {what}. The node is cut off from the control plane, so kubectl logs fails, although the container still runs and still writes its log.", "kube-apiserver가 로그 요청을 프록시하려고 kubelet의 10250 포트에 닿지 못합니다: {what}. 노드가 컨트롤 플레인과 끊겨 kubectl logs는 실패하지만, 컨테이너는 여전히 실행되며 로그를 계속 씁니다."),
    ("n.fault.watch_drop", "A fault: {from}'s watch connections dropped and {lost} events in flight were lost. Each reflector watches again from the last resourceVersion it saw: kube-apiserver replays what it missed, or, if that history was compacted, answers 410 Gone and the reflector lists again, so the informer ends up with every change.", "장애 주입: {from}의 watch 연결이 끊겨 전달 중이던 이벤트 {lost}개가 사라졌습니다. 각 reflector는 마지막으로 본 resourceVersion부터 다시 watch합니다. kube-apiserver가 놓친 변경을 다시 보내 주거나, 그 기록이 compaction으로 지워졌으면 410 Gone으로 답하고 reflector가 다시 list하므로, 인포머는 결국 모든 변경을 받습니다."),
    ("n.net", "[{from} → {to}: {what}]", "[{from} → {to}: {what}]"),
    ("n.net.answer", "The container answers; the reply goes back the same way (conntrack undoes the DNAT).", "컨테이너가 응답하고, 응답은 같은 길로 돌아갑니다 (conntrack이 DNAT를 되돌립니다)."),
    ("n.net.cni_add", "Inside RunPodSandbox, containerd calls the CNI plugin: the bridge plugin plugs the Pod's eth0 into cni0 and host-local hands out the next free address of this node's podCIDR. That address becomes status.podIP.", "RunPodSandbox 안에서 containerd가 CNI 플러그인을 부릅니다: bridge 플러그인이 파드의 eth0를 cni0에 연결하고, host-local이 이 노드 podCIDR에서 다음 빈 주소를 줍니다. 이 주소가 status.podIP가 됩니다."),
    ("n.net.cni_del", "Inside StopPodSandbox, the CNI plugin tears the Pod's network down and host-local releases its address for reuse.", "StopPodSandbox 안에서 CNI 플러그인이 파드의 네트워크를 걷어 내고, host-local이 주소를 반납해 다시 쓸 수 있게 합니다."),
    ("n.net.dns_answer", "CoreDNS answers from what its kubernetes plugin watched through the API server: a Service's ClusterIP, or for a headless Service its ready Pods' addresses.", "CoreDNS가 kubernetes 플러그인이 API 서버를 통해 watch한 내용으로 답합니다: 서비스의 ClusterIP, 헤드리스 서비스라면 준비된 파드들의 주소."),
    ("n.net.dns_no_rule", "The Pod's resolver asks 10.96.0.10, but this node has no rule for it: there is no kube-dns Service, so no CoreDNS. The query goes nowhere and the lookup times out (try sim addon coredns).", "파드의 리졸버가 10.96.0.10에 묻지만 이 노드에는 그 규칙이 없습니다: kube-dns 서비스, 즉 CoreDNS가 없습니다. 질의는 갈 곳이 없고 조회는 시간 초과로 끝납니다 (sim addon coredns를 실행해 보세요)."),
    ("n.net.dns_no_server", "The Pod's /etc/resolv.conf has no nameserver (dnsPolicy: None without dnsConfig.nameservers): nothing can be resolved.", "파드의 /etc/resolv.conf에 nameserver가 없습니다 (dnsConfig.nameservers 없는 dnsPolicy: None): 아무것도 풀 수 없습니다."),
    ("n.net.dns_nxdomain", "No such name here (NXDOMAIN): the resolver tries the next candidate of its search list, if any.", "그런 이름이 없습니다 (NXDOMAIN): 리졸버는 검색 목록의 다음 후보가 있으면 그것을 시도합니다."),
    ("n.net.dns_query", "The resolver sends an A query. With ndots:5 a short name is tried with each search domain in turn: <ns>.svc.cluster.local, svc.cluster.local, cluster.local, then as it is.", "리졸버가 A 질의를 보냅니다. ndots:5이므로 짧은 이름은 검색 도메인을 차례로 붙여 봅니다: <ns>.svc.cluster.local, svc.cluster.local, cluster.local, 마지막으로 이름 그대로."),
    ("n.net.dns_reject", "kube-dns exists but has no ready endpoint (no CoreDNS Pod is Ready), so kube-proxy's rule REJECTs the query and name resolution fails.", "kube-dns는 있지만 준비된 엔드포인트가 없습니다 (Ready인 CoreDNS 파드가 없음). kube-proxy 규칙이 질의를 REJECT하고 이름 풀이는 실패합니다."),
    ("n.net.dns_rule", "The name needs resolving first. /etc/resolv.conf says nameserver 10.96.0.10: the kube-dns Service. kube-proxy's rules DNAT that ClusterIP to one CoreDNS Pod, chosen at random like any Service.", "먼저 이름을 풀어야 합니다. /etc/resolv.conf의 nameserver 10.96.0.10은 kube-dns 서비스입니다. kube-proxy 규칙이 이 ClusterIP를 다른 서비스와 똑같이 무작위로 고른 CoreDNS 파드 하나로 DNAT합니다."),
    ("n.net.host_port", "The node's port 80 belongs to a Pod: its container asks for hostPort 80, so the CNI portmap plugin DNATs what arrives at the node's address to that Pod — here ingress-nginx's controller, as minikube's ingress addon runs it.", "노드의 80번 포트는 파드의 것입니다: 컨테이너가 hostPort 80을 요청했기 때문에 CNI portmap 플러그인이 노드 주소로 들어온 것을 그 파드로 DNAT합니다 — 여기서는 minikube의 ingress 애드온처럼 실행된 ingress-nginx 컨트롤러입니다."),
    ("n.net.hosts_file", "The machine outside the cluster finds the Ingress's host in its /etc/hosts, at the Ingress's ADDRESS (the line a tutorial has you add: echo \"$(minikube ip) hello-world.example\" | sudo tee -a /etc/hosts).", "클러스터 밖의 머신이 /etc/hosts에서 Ingress의 호스트를 찾습니다. 주소는 Ingress의 ADDRESS입니다 (튜토리얼이 추가하라고 하는 줄: echo \"$(minikube ip) hello-world.example\" | sudo tee -a /etc/hosts)."),
    ("n.net.ingress_no_endpoints", "nginx found the rule, but the upstream has no ready endpoint (no Ready Pod behind the Service), so ingress-nginx's balancer answers 503 Service Temporarily Unavailable (or 502 when the chosen Pod did not answer).", "nginx가 규칙을 찾았지만 upstream에 준비된 엔드포인트가 없습니다 (서비스 뒤에 Ready인 파드가 없음). 그래서 ingress-nginx의 밸런서가 503 Service Temporarily Unavailable로 답합니다 (고른 파드가 응답하지 않으면 502)."),
    ("n.net.ingress_not_found", "No Ingress rule matches this Host and path: ingress-nginx's default server answers 404 Not Found. Check the host (the Host header, or curl's --resolve) and the path type: Prefix matches whole path elements, Exact only the path itself.", "이 Host와 경로에 맞는 Ingress 규칙이 없습니다: ingress-nginx의 기본 서버가 404 Not Found로 답합니다. 호스트(Host 헤더나 curl의 --resolve)와 pathType을 확인하세요: Prefix는 경로 요소 단위로, Exact는 경로 그대로만 맞춥니다."),
    ("n.net.ingress_redirect", "The Ingress has a TLS section for this host, so ingress-nginx redirects plain HTTP to HTTPS (ssl-redirect): 308 Permanent Redirect.", "Ingress에 이 호스트의 TLS 섹션이 있어서 ingress-nginx가 평문 HTTP를 HTTPS로 돌려보냅니다 (ssl-redirect): 308 Permanent Redirect."),
    ("n.net.ingress_route", "nginx inside the ingress-nginx controller Pod picks the server for the Host header, the location for the path (Exact first, then the longest Prefix) and the next endpoint of the upstream, round robin. It sends the request straight to that Pod's IP: an Ingress controller balances over the Service's endpoints, not through its ClusterIP.", "ingress-nginx 컨트롤러 파드 안의 nginx가 Host 헤더로 server를, 경로로 location을 (Exact 먼저, 그다음 가장 긴 Prefix) 고르고 upstream의 다음 엔드포인트를 라운드 로빈으로 고릅니다. 요청은 그 파드 IP로 바로 갑니다: Ingress 컨트롤러는 서비스의 ClusterIP를 거치지 않고 엔드포인트들 사이에서 분산합니다."),
    ("n.net.local_port", "curl connects to a port on the learner's own machine, where kubectl listens ({to}): from here the request goes through kube-apiserver with kubectl's credentials, not through Services and iptables.", "curl이 학습자 자신의 컴퓨터 포트에 연결합니다. 그 포트에서는 kubectl이 기다리고 있습니다 ({to}): 여기서부터 요청은 서비스와 iptables가 아니라 kubectl의 자격 증명으로 kube-apiserver를 거쳐 갑니다."),
    ("n.net.no_route", "There is no route to this address in the cluster: the client waits until it times out.", "클러스터 안에 이 주소로 가는 경로가 없습니다: 클라이언트는 시간 초과까지 기다립니다."),
    ("n.net.no_rule", "No rule matches this ClusterIP and port: no Service has it, so the packet is dropped and the client waits until it times out.", "이 ClusterIP와 포트에 맞는 규칙이 없습니다: 그런 서비스가 없으니 패킷은 버려지고 클라이언트는 시간 초과까지 기다립니다."),
    ("n.net.node_resolver", "This Pod uses the node's resolver (dnsPolicy Default or hostNetwork), which knows nothing of cluster names.", "이 파드는 노드의 리졸버를 씁니다 (dnsPolicy Default 또는 hostNetwork). 노드의 리졸버는 클러스터 이름을 모릅니다."),
    ("n.net.nothing_listens", "The Pod is there but no container listens on that port: the connection is reset. Check the Service's targetPort against the container's port.", "파드는 있지만 그 포트에서 듣는 컨테이너가 없습니다: 연결이 리셋됩니다. 서비스의 targetPort와 컨테이너 포트를 확인하세요."),
    ("n.net.policy_accept", "The Pod at one end is isolated by a NetworkPolicy, and one of its rules allows this connection (its peer and port match): kube-network-policies, kindnet's policy agent on the node, lets the first packet through.", "한쪽 파드가 NetworkPolicy로 격리되어 있지만, 그 규칙 하나가 이 연결을 허용합니다 (피어와 포트가 맞음): 노드의 kindnet 정책 에이전트인 kube-network-policies가 첫 패킷을 통과시킵니다."),
    ("n.net.policy_drop", "Dropped: a NetworkPolicy selects this Pod for this direction, so it is isolated, and no rule of any policy selecting it allows this peer and port. kube-network-policies drops the packet silently; the client waits until it times out. Policies only add allowed traffic: add a rule that matches this client.", "버려졌습니다: NetworkPolicy가 이 방향으로 이 파드를 선택해 격리했고, 이 파드를 선택한 어떤 정책의 규칙도 이 피어와 포트를 허용하지 않습니다. kube-network-policies는 패킷을 조용히 버리고, 클라이언트는 시간 초과까지 기다립니다. 정책은 허용만 더합니다: 이 클라이언트에 맞는 규칙을 추가하세요."),
    ("n.net.port_forward", "The port-forward tunnel: kubectl sends the connection as a stream over its one upgraded connection to kube-apiserver (POST pods/NAME/portforward), kube-apiserver passes it to the kubelet's streaming server, and the container runtime connects to the port inside the Pod's network namespace — no Service, no iptables rule and no NetworkPolicy on the way.", "port-forward 터널: kubectl은 kube-apiserver와 맺은 하나의 업그레이드된 연결(POST pods/NAME/portforward) 위로 이 연결을 스트림으로 보내고, kube-apiserver는 그것을 kubelet의 스트리밍 서버로 넘기며, 컨테이너 런타임이 파드의 네트워크 네임스페이스 안에서 그 포트에 연결합니다 — 서비스도, iptables 규칙도, NetworkPolicy도 거치지 않습니다."),
    ("n.net.reject", "The Service has no ready endpoints, so kube-proxy wrote a REJECT rule for it: the connection is refused at once. Check the Service's selector against the Pods' labels, and whether the Pods are Ready.", "서비스에 준비된 엔드포인트가 없어서 kube-proxy가 REJECT 규칙을 써 두었습니다: 연결이 즉시 거부됩니다. 서비스 셀렉터와 파드 레이블이 맞는지, 파드가 Ready인지 확인하세요."),
    ("n.net.request", "A request leaves {from}. Nothing here goes through kube-apiserver: names, rules and Pods are the node's kernel and the Pods' own business, programmed earlier through the API.", "{from}에서 요청이 나갑니다. 여기서부터는 kube-apiserver를 거치지 않습니다: 이름 풀이, 규칙, 파드는 노드 커널과 파드들의 일이고, 미리 API를 통해 설정되어 있습니다."),
    ("n.net.rule", "The node's kernel walks kube-proxy's iptables rules: KUBE-SERVICES matches the ClusterIP (or KUBE-NODEPORTS the node port), KUBE-SVC picks one endpoint with its statistic probabilities, KUBE-SEP DNATs to that Pod's IP.", "노드 커널이 kube-proxy의 iptables 규칙을 따라갑니다: KUBE-SERVICES가 ClusterIP를 (또는 KUBE-NODEPORTS가 노드 포트를) 맞추고, KUBE-SVC가 statistic 확률로 엔드포인트 하나를 고르고, KUBE-SEP가 그 파드 IP로 DNAT합니다."),
    ("n.net.tls_failed", "The TLS connection fails: either the client does not trust the certificate (no CA it knows signed it; curl -k skips the check), or the other end speaks plain HTTP where TLS was expected.", "TLS 연결이 실패합니다: 클라이언트가 인증서를 신뢰하지 않거나(클라이언트가 아는 CA가 서명하지 않음; curl -k는 검사를 건너뜀), 상대가 TLS를 기대한 곳에서 평문 HTTP로 말합니다."),
    ("n.net.tls_handshake", "TLS handshake: nginx picks the certificate by the server name the client sent (SNI) — the Secret named in the Ingress's TLS section, or its own self-signed fake certificate when there is none.", "TLS 핸드셰이크: nginx가 클라이언트가 보낸 서버 이름(SNI)으로 인증서를 고릅니다 — Ingress의 TLS 섹션이 가리키는 Secret, 없으면 자체 서명한 가짜 인증서."),
    ("n.net.to_pod", "After DNAT the packet is routed to the Pod's IP, across nodes if need be (the Pod network is flat), and reaches the container listening on the port.", "DNAT 뒤 패킷은 파드 IP로 라우팅되어 (파드 네트워크는 평평해서 필요하면 노드를 건너) 그 포트에서 듣고 있는 컨테이너에 닿습니다."),
    ("n.req.aggregated", "kube-apiserver's aggregation layer hands {path} to metrics-server: the APIService v1beta1.metrics.k8s.io names its Service, so the request is proxied to the metrics-server Pod, which answers from the samples it keeps in memory (nothing about metrics is stored in etcd).", "kube-apiserver의 애그리게이션 계층이 {path} 요청을 metrics-server에 넘깁니다: APIService v1beta1.metrics.k8s.io가 그 서비스를 가리키므로 요청은 metrics-server 파드로 프록시되고, metrics-server는 메모리에 가진 샘플로 답합니다 (메트릭은 etcd에 저장되지 않습니다)."),
    ("n.req.apiserver.logs", "kube-apiserver proxies the log request to the kubelet on {node} (HTTPS to port 10250, {path}). Container logs never go through etcd: the kubelet reads them from the node and sends them back.", "kube-apiserver가 로그 요청을 {node}의 kubelet으로 프록시합니다 (10250 포트로 HTTPS, {path}). 컨테이너 로그는 etcd를 거치지 않습니다: kubelet이 노드에서 로그를 읽어 돌려보냅니다."),
    ("n.req.available.gone", "Inside kube-apiserver, the aggregation layer's availability controller tries to write APIService {name}'s status (PUT {path}), but nothing is written: the APIService was deleted before its sync ran.", "kube-apiserver 안의 애그리게이션 가용성 컨트롤러가 APIService {name}의 상태를 쓰려 하지만 (PUT {path}) 아무것도 쓰이지 않습니다: 동기화 전에 APIService가 삭제되었습니다."),
    ("n.req.available.status", "Inside kube-apiserver, the aggregation layer's availability controller writes APIService {name}'s status (PUT {path}): Available={status} ({reason}). Its Service must have a ready endpoint before kube-apiserver proxies the group to it; until then requests for it get 503.", "kube-apiserver 안의 애그리게이션 가용성 컨트롤러가 APIService {name}의 상태를 씁니다 (PUT {path}): Available={status} ({reason}). 서비스에 준비된 엔드포인트가 있어야 kube-apiserver가 그 그룹을 프록시하며, 그 전까지 요청은 503을 받습니다."),
    ("n.req.cjc.create_job", "A schedule time has come: the CronJob controller creates Job {name} from the jobTemplate. The number in its name is the scheduled time in minutes since 1970, so the same run is never created twice.", "스케줄 시각이 되어 크론잡 컨트롤러가 jobTemplate으로 {name} 잡을 생성합니다. 이름의 숫자는 1970년부터 센 예정 시각(분)이라서 같은 실행이 두 번 만들어지지 않습니다."),
    ("n.req.cjc.delete_job", "The CronJob controller deletes Job {name}: more finished Jobs than successfulJobsHistoryLimit / failedJobsHistoryLimit keep, or concurrencyPolicy Replace.", "크론잡 컨트롤러가 {name} 잡을 삭제합니다: 끝난 잡이 successfulJobsHistoryLimit / failedJobsHistoryLimit보다 많거나, concurrencyPolicy가 Replace입니다."),
    ("n.req.cjc.status", "The CronJob controller writes status: the Jobs still running (active), lastScheduleTime and lastSuccessfulTime. Then it sets a timer for the next schedule time.", "크론잡 컨트롤러가 status를 씁니다: 실행 중인 잡(active), lastScheduleTime, lastSuccessfulTime. 그리고 다음 스케줄 시각에 타이머를 겁니다."),
    ("n.req.crd.deletecollection", "Inside kube-apiserver, the CRD finalizer deletes the {resource} of namespace {ns} in one DELETE of the collection: a CRD's objects go before the CRD does.", "kube-apiserver 안의 CRD 파이널라이저가 {ns} 네임스페이스의 {resource}를 컬렉션 DELETE 한 번으로 삭제합니다: CRD의 객체가 CRD보다 먼저 사라집니다."),
    ("n.req.crd.established", "Inside kube-apiserver, the establishing controller marks CRD {name} Established (PUT {path}): from now on the API server serves its custom resources, and kubectl finds the new kind through discovery.", "kube-apiserver 안의 establishing 컨트롤러가 CRD {name}을 Established로 표시합니다 (PUT {path}): 이제 API 서버가 그 커스텀 리소스를 제공하고, kubectl이 디스커버리로 새 종류를 찾습니다."),
    ("n.req.crd.finalized", "Inside kube-apiserver, the CRD finalizer found no custom resource left and removes its customresourcecleanup finalizer from CRD {name} (PUT {path}): with no finalizer left, the CRD is deleted.", "kube-apiserver 안의 CRD 파이널라이저가 남은 커스텀 리소스가 없음을 확인하고 CRD {name}에서 customresourcecleanup 파이널라이저를 제거합니다 (PUT {path}): 파이널라이저가 없으니 CRD가 삭제됩니다."),
    ("n.req.crd.names", "Inside kube-apiserver, the naming controller checks CRD {name}'s names against the other CRDs of its group and writes them as accepted (PUT {path}): NamesAccepted, and Established=False until the establishing controller runs.", "kube-apiserver 안의 naming 컨트롤러가 CRD {name}의 이름을 같은 그룹의 다른 CRD와 비교해 수락된 이름으로 씁니다 (PUT {path}): NamesAccepted, 그리고 establishing 컨트롤러가 돌 때까지 Established=False."),
    ("n.req.crd.terminating", "Inside kube-apiserver, the CRD finalizer marks CRD {name} Terminating (PUT {path}): CustomResource deletion is in progress, and no new object of the kind may be created.", "kube-apiserver 안의 CRD 파이널라이저가 CRD {name}을 Terminating으로 표시합니다 (PUT {path}): 커스텀 리소스 삭제가 진행 중이며, 이 종류의 새 객체는 만들 수 없습니다."),
    ("n.req.dc.create_rs", "The deployment controller's syncDeployment finds no ReplicaSet whose pod template matches the Deployment, so it creates ReplicaSet {name} (replicas {want}, ownerReference → Deployment {owner}). The suffix {hash} is the pod-template-hash, a hash of the pod template, also added to the selector and to the Pods' labels so that ReplicaSets of different revisions never share Pods.", "디플로이먼트 컨트롤러의 syncDeployment가 파드 템플릿이 일치하는 레플리카셋을 찾지 못해 {name} 레플리카셋을 만듭니다 (replicas {want}, ownerReference → {owner} 디플로이먼트). 이름 끝의 {hash}는 파드 템플릿의 해시인 pod-template-hash로, 셀렉터와 파드 레이블에도 붙어서 리비전이 다른 레플리카셋끼리 파드를 공유하지 않게 합니다."),
    ("n.req.dc.revision", "The deployment controller found ReplicaSet {name} whose template already matches the Deployment's (ignoring pod-template-hash): a rollback reuses the old ReplicaSet, same name and hash. It raises its revision from {was} to {rev} and appends {was} to its revision-history annotation.", "디플로이먼트 컨트롤러가 템플릿이 디플로이먼트와 이미 같은(pod-template-hash 제외) 레플리카셋 {name|을/를} 찾았습니다. 롤백은 예전 레플리카셋을 이름과 해시 그대로 재사용합니다. 리비전을 {was}에서 {rev}(으)로 올리고, revision-history 어노테이션에 {was|을/를} 덧붙입니다."),
    ("n.req.dc.scale_rs", "The deployment controller sets spec.replicas of ReplicaSet {name} to {want}. It never creates Pods itself: it only scales ReplicaSets (during a rollout, the new one up and the old one down).", "디플로이먼트 컨트롤러가 {name} 레플리카셋의 spec.replicas를 {want}개로 조정합니다. 디플로이먼트 컨트롤러는 파드를 직접 만들지 않고 레플리카셋의 개수만 조절합니다 (롤아웃 중에는 새 레플리카셋을 늘리고 이전 레플리카셋을 줄입니다)."),
    ("n.req.dc.status", "The deployment controller writes the Deployment's status subresource: observedGeneration, replicas, the updated/ready/available counts and the Progressing and Available conditions. These are the numbers `kubectl get deployment` shows.", "디플로이먼트 컨트롤러가 디플로이먼트의 status 서브리소스를 갱신합니다: observedGeneration, replicas, updated/ready/available 개수, 그리고 Progressing·Available 컨디션입니다. `kubectl get deployment`에 보이는 숫자가 바로 이것입니다."),
    ("n.req.delete", "{From} deletes {kind} {name}.", "{from|이/가} {kind} {name|을/를} 삭제합니다."),
    ("n.req.disruption.status", "The disruption controller writes budget {name}'s status: how many selected Pods are healthy (Ready), how many must stay healthy, and so how many disruptions are allowed now. The eviction subresource reads disruptionsAllowed and takes one per eviction.", "디스럽션 컨트롤러가 {name} 버짓의 status를 씁니다: 고른 파드 중 몇 개가 정상(Ready)인지, 몇 개가 정상으로 남아야 하는지, 그래서 지금 몇 번의 중단이 허용되는지. eviction 서브리소스는 disruptionsAllowed를 읽고 축출할 때마다 하나씩 씁니다."),
    ("n.req.dsc.create_pod", "syncDaemonSet → manage: node {node} should run a Pod of DaemonSet {owner} and has none, so the DaemonSet controller creates {name}. It is pinned to the node by a required node affinity (metadata.name In [{node}]) and carries the daemon tolerations (not-ready, unreachable, disk-pressure, …); the default scheduler still binds it.", "syncDaemonSet → manage: {node}에는 {owner} 데몬셋의 파드가 있어야 하는데 없으므로, 데몬셋 컨트롤러가 {name} 파드를 생성합니다. 필수 노드 어피니티(metadata.name In [{node}])로 이 노드에 고정되고 데몬 톨러레이션(not-ready, unreachable, disk-pressure 등)을 가집니다. 바인딩은 여전히 기본 스케줄러가 합니다."),
    ("n.req.dsc.delete_pod", "The DaemonSet controller deletes Pod {name}: its node may no longer run it (a NoExecute taint it does not tolerate, a label that no longer matches), or a rolling update replaces it with the new template, at most maxUnavailable nodes at a time.", "데몬셋 컨트롤러가 {name} 파드를 삭제합니다: 노드가 더 이상 이 파드를 돌릴 수 없거나(견디지 못하는 NoExecute 테인트, 더 이상 맞지 않는 레이블) 롤링 업데이트가 새 템플릿으로 바꾸는 중입니다(한 번에 최대 maxUnavailable개 노드)."),
    ("n.req.dsc.revision", "The DaemonSet controller records the Pod template as a ControllerRevision (named after the DaemonSet plus the template's hash; data is the patch that restores it). The hash becomes the Pods' controller-revision-hash label, which tells old Pods from new.", "데몬셋 컨트롤러가 파드 템플릿을 ControllerRevision으로 기록합니다 (이름은 데몬셋 이름과 템플릿 해시, data는 템플릿을 되돌리는 패치). 이 해시가 파드의 controller-revision-hash 레이블이 되어 옛 파드와 새 파드를 구분합니다."),
    ("n.req.dsc.status", "The DaemonSet controller writes status: desiredNumberScheduled (nodes that should run a Pod), currentNumberScheduled, numberReady, updatedNumberScheduled and numberAvailable. kubectl rollout status daemonset reads these.", "데몬셋 컨트롤러가 status를 씁니다: desiredNumberScheduled(파드가 있어야 할 노드 수), currentNumberScheduled, numberReady, updatedNumberScheduled, numberAvailable. kubectl rollout status daemonset이 이 값을 읽습니다."),
    ("n.req.event", "{From} records an Event: {reason} for {object} (\"{msg}\"). Events are ordinary API objects, stored in etcd like everything else; `kubectl get events` lists them.", "{from|이/가} 이벤트를 기록합니다: {object}에 대한 {reason} (\"{msg}\"). 이벤트도 etcd에 저장되는 평범한 API 객체이며, `kubectl get events`로 조회합니다."),
    ("n.req.event_refused", "{From} tries to record an Event in namespace {ns}, but kube-apiserver refuses it ({code}): nothing is stored. (In a namespace being deleted, new objects are forbidden.)", "{from|이/가} {ns} 네임스페이스에 이벤트를 기록하려 하지만 kube-apiserver가 거부합니다({code}): 아무것도 저장되지 않습니다. (삭제 중인 네임스페이스에는 새 객체를 만들 수 없습니다.)"),
    ("n.req.gc.delete", "The garbage collector's dependency graph shows that {kind} {name} belongs to an owner that no longer exists, so it deletes it. Cascading deletion is done by the garbage collector, not by kubectl.", "가비지 컬렉터의 의존성 그래프를 보면 {kind} {name}의 소유자가 더 이상 없으므로 이를 삭제합니다. 연쇄 삭제(cascading deletion)는 kubectl이 아니라 가비지 컬렉터가 수행합니다."),
    ("n.req.generic", "{From} sends {verb} {path} to kube-apiserver.", "{from|이/가} kube-apiserver에 {verb} {path} 요청을 보냅니다."),
    ("n.req.get", "{From} reads {kind} {name} from kube-apiserver.", "{from|이/가} kube-apiserver에서 {kind} {name|을/를} 읽습니다."),
    ("n.req.hpa.metrics", "The HorizontalPodAutoscaler controller asks for the Pods' resource metrics (GET {path}): the metrics.k8s.io API that metrics-server serves through kube-apiserver's aggregation layer.", "HPA 컨트롤러가 파드들의 리소스 메트릭을 요청합니다 (GET {path}): metrics-server가 kube-apiserver의 애그리게이션 계층을 통해 제공하는 metrics.k8s.io API입니다."),
    ("n.req.hpa.read_scale", "Every 15 s the HorizontalPodAutoscaler controller reads its target's scale subresource (GET {path}): the current replica count and the label selector of its Pods.", "HPA 컨트롤러는 15초마다 대상의 scale 서브리소스를 읽습니다 (GET {path}): 현재 레플리카 수와 파드들의 레이블 셀렉터입니다."),
    ("n.req.hpa.scale", "The HorizontalPodAutoscaler controller writes {name}'s scale subresource (PUT {path}): it computed desired = ceil(current replicas × current utilization ÷ target) from the Pods' CPU and their requests, limited by minReplicas/maxReplicas, the scale-up rate and the stabilization window. The Deployment controller does the rest.", "HPA 컨트롤러가 {name}의 scale 서브리소스를 씁니다 (PUT {path}): 파드들의 CPU 사용량과 요청량으로 원하는 수 = ceil(현재 레플리카 × 현재 사용률 ÷ 목표)를 계산하고, minReplicas/maxReplicas, 스케일 업 속도, 안정화 기간으로 제한했습니다. 나머지는 디플로이먼트 컨트롤러가 합니다."),
    ("n.req.hpa.status", "The HorizontalPodAutoscaler controller writes {name}'s status (PUT {path}): current and desired replicas, the metric it read (TARGETS in kubectl get hpa) and its conditions AbleToScale, ScalingActive and ScalingLimited.", "HPA 컨트롤러가 {name}의 상태를 씁니다 (PUT {path}): 현재·원하는 레플리카 수, 읽은 메트릭 (kubectl get hpa의 TARGETS), 그리고 AbleToScale, ScalingActive, ScalingLimited 컨디션입니다."),
    ("n.req.ingress.node", "ingress-nginx reads node {name} (GET {path}): the address of the node its controller Pod runs on is what it will publish as the Ingresses' ADDRESS.", "ingress-nginx가 노드 {name}를 읽습니다 (GET {path}): 컨트롤러 파드가 도는 노드의 주소를 Ingress들의 ADDRESS로 내보냅니다."),
    ("n.req.ingress.pods", "ingress-nginx's status loop (at start, then every 60 s) lists its own controller Pods (GET {path}): only Running and Ready ones count.", "ingress-nginx의 상태 루프가 (시작할 때, 그다음 60초마다) 자기 컨트롤러 파드들을 나열합니다 (GET {path}): Running이고 Ready인 것만 셉니다."),
    ("n.req.ingress.status", "ingress-nginx writes Ingress {name}'s status (PUT {path}): loadBalancer.ingress = {address}, the ADDRESS kubectl get ingress shows.", "ingress-nginx가 Ingress {name}의 상태를 씁니다 (PUT {path}): loadBalancer.ingress = {address}. kubectl get ingress의 ADDRESS가 이것입니다."),
    ("n.req.ipam.cidr", "The node IPAM controller in kube-controller-manager gives Node {name} its own slice of the cluster's Pod network: spec.podCIDR {cidr}. The kubelet on that node learns it through its Node watch, and the CNI plugin hands out Pod IPs from it (.1 is the bridge's gateway, so Pods start at .2).", "kube-controller-manager의 노드 IPAM 컨트롤러가 {name}에 클러스터 파드 네트워크의 한 조각을 줍니다: spec.podCIDR {cidr}. 그 노드의 kubelet은 Node watch로 이를 알게 되고, CNI 플러그인이 여기서 파드 IP를 나눠 줍니다 (.1은 브리지의 게이트웨이이므로 파드는 .2부터 시작합니다)."),
    ("n.req.jc.create_pod", "syncJob → manageJob: Job {owner} has fewer active Pods than min(parallelism, completions − succeeded), so the Job controller creates {name} (generateName {owner}-, labelled with the Job's name and uid). After a failure it waits the back-off first: 10 s, 20 s, 40 s…", "syncJob → manageJob: {owner} 잡의 활성 파드가 min(parallelism, completions − succeeded)보다 적어서 잡 컨트롤러가 {name} 파드를 생성합니다 (generateName {owner}-, 잡 이름과 uid 레이블). 실패 뒤에는 백오프(10초, 20초, 40초…)만큼 먼저 기다립니다."),
    ("n.req.jc.delete_pod", "The Job controller deletes Pod {name}: the Job is finishing (its success or failure criteria are met) or has more active Pods than it wants.", "잡 컨트롤러가 {name} 파드를 삭제합니다: 잡이 끝나는 중이거나(성공 또는 실패 조건 충족) 원하는 것보다 활성 파드가 많습니다."),
    ("n.req.jc.status", "The Job controller writes status: active, ready, succeeded and failed Pods, startTime, and the conditions — SuccessCriteriaMet then Complete (with completionTime), or FailureTarget then Failed (BackoffLimitExceeded, DeadlineExceeded).", "잡 컨트롤러가 status를 씁니다: 활성·준비·성공·실패 파드 수, startTime, 그리고 조건 — SuccessCriteriaMet 다음 Complete(completionTime과 함께), 또는 FailureTarget 다음 Failed(BackoffLimitExceeded, DeadlineExceeded)."),
    ("n.req.kubectl.create", "kubectl sends the {kind} manifest to kube-apiserver as an HTTP POST to {path}. The API server authenticates the user {user}, authorizes the request ({authz}), runs admission (defaulting) and validates the object strictly before it stores anything.", "kubectl이 {kind} 매니페스트를 {path}에 HTTP POST로 보냅니다. API 서버는 사용자 {user|을/를} 인증하고, 요청을 인가하고({authz}), 어드미션(기본값 채우기)을 거쳐 객체를 엄격하게 검증한 뒤에야 저장합니다."),
    ("n.req.kubectl.delete", "kubectl asks kube-apiserver to DELETE {kind} {name}. With the default background propagation the object goes away at once, and the garbage collector later deletes its dependents (the objects whose ownerReference points to it).", "kubectl이 kube-apiserver에 {kind} {name}의 삭제(DELETE)를 요청합니다. 기본값인 background 전파 정책에서는 객체가 바로 삭제되고, 이 객체를 ownerReference로 가리키는 종속 객체들은 이후 가비지 컬렉터가 삭제합니다."),
    ("n.req.kubectl.denied", "kubectl sends {verb} {path} as the user {user}. kube-apiserver authenticates the user, then asks its authorizers (Node, then RBAC) whether {user} may do this: no Role or ClusterRole bound to the user allows it, so the request stops here — before admission, and nothing reaches etcd.", "kubectl이 사용자 {user}(으)로 {verb} {path|을/를} 보냅니다. kube-apiserver는 사용자를 인증한 뒤 인가자(Node, 그다음 RBAC)에게 {user|이/가} 이 일을 해도 되는지 묻습니다: 사용자에게 묶인 Role이나 ClusterRole 중 이를 허용하는 것이 없어 요청은 여기서 멈춥니다 — 어드미션 전이라 etcd에는 아무것도 닿지 않습니다."),
    ("n.req.kubectl.evict", "kubectl drain asks kube-apiserver to evict Pod {name} (POST {path}). The eviction subresource finds the PodDisruptionBudget that selects the Pod: if it allows a disruption, the API server takes one (disruptionsAllowed − 1), marks the Pod DisruptionTarget and deletes it gracefully; if not, it answers 429 Too Many Requests and drain tries again in 5 s.", "kubectl drain이 kube-apiserver에 {name} 파드를 축출해 달라고 요청합니다 (POST {path}). eviction 서브리소스는 이 파드를 고르는 PodDisruptionBudget을 찾습니다: 중단을 허용하면 API 서버가 하나를 쓰고(disruptionsAllowed − 1) 파드에 DisruptionTarget을 표시한 뒤 정상 종료로 삭제합니다; 허용하지 않으면 429 Too Many Requests로 답하고 drain은 5초 뒤 다시 시도합니다."),
    ("n.req.kubectl.get", "kubectl reads {kind} {name} with an HTTP GET. Reads also go through kube-apiserver, which authenticates the user {user}, authorizes the read ({authz}) and answers from etcd; nothing else talks to etcd directly.", "kubectl이 HTTP GET으로 {kind} {name|을/를} 읽습니다. 읽기 요청도 kube-apiserver를 거치며, API 서버가 사용자 {user|을/를} 인증하고 읽기를 인가한 뒤({authz}) etcd의 데이터로 응답합니다. 그 밖에 etcd에 직접 접근하는 구성요소는 없습니다."),
    ("n.req.kubectl.get_apply", "kubectl apply first asks kube-apiserver for {kind} {name} (HTTP GET). Client-side apply needs the live object to compute a patch against its last-applied-configuration annotation; if the object does not exist yet, kubectl will create it.", "kubectl apply는 먼저 kube-apiserver에 {kind} {name|을/를} 요청합니다 (HTTP GET). 클라이언트 사이드 apply는 last-applied-configuration 어노테이션과 비교해 패치를 계산하려면 현재 객체가 필요하고, 객체가 아직 없으면 새로 생성합니다."),
    ("n.req.kubectl.list", "kubectl lists {resource} with an HTTP GET on the collection {path}. kube-apiserver authenticates the user {user}, authorizes the request ({authz}) and answers from etcd.", "kubectl이 컬렉션 {path}에 HTTP GET을 보내 {resource} 목록을 가져옵니다. kube-apiserver가 사용자 {user|을/를} 인증하고 요청을 인가한 뒤({authz}) etcd의 데이터로 응답합니다."),
    ("n.req.kubectl.logs", "kubectl logs asks kube-apiserver for the log subresource of Pod {name} ({path}). The API server does not store logs; it will ask the kubelet of the Pod's node.", "kubectl logs가 kube-apiserver에 {name} 파드의 log 서브리소스를 요청합니다 ({path}). API 서버는 로그를 저장하지 않으므로 파드가 있는 노드의 kubelet에게 물어봅니다."),
    ("n.req.kubectl.other", "kubectl sends {verb} {path} to kube-apiserver.", "kubectl이 kube-apiserver에 {verb} {path} 요청을 보냅니다."),
    ("n.req.kubectl.patch", "kubectl sends a three-way merge patch for {kind} {name}: the difference between the last-applied configuration, your new manifest and the live object. Only the changed fields travel; if the spec changes, the API server bumps metadata.generation.", "kubectl이 {kind} {name}에 대한 3-way 머지 패치를 보냅니다. 마지막으로 적용한 설정, 새 매니페스트, 현재 객체 사이의 차이만 전송되며, spec이 바뀌면 API 서버가 metadata.generation을 올립니다."),
    ("n.req.kubectl.patch_fields", "kubectl sends a PATCH for {kind} {name} with only the fields it changes.", "kubectl이 {kind} {name}에 바꿀 필드만 담은 PATCH를 보냅니다."),
    ("n.req.kubectl.pause", "kubectl rollout pause patches {kind} {name} with spec.paused=true. While paused, the deployment controller still scales, but starts no new rollout: template changes wait until resume.", "kubectl rollout pause가 {kind} {name}에 spec.paused=true 패치를 보냅니다. 일시 중지된 동안 디플로이먼트 컨트롤러는 스케일링은 하지만 새 롤아웃은 시작하지 않으며, 템플릿 변경은 resume할 때까지 기다립니다."),
    ("n.req.kubectl.restart", "kubectl rollout restart writes the annotation kubectl.kubernetes.io/restartedAt (the time now) into the pod template of {kind} {name}. Nothing else changes, but a changed template is a new revision: every Pod is replaced, within maxSurge and maxUnavailable.", "kubectl rollout restart가 {kind} {name}의 파드 템플릿에 kubectl.kubernetes.io/restartedAt 어노테이션(현재 시각)을 씁니다. 다른 것은 바뀌지 않지만 템플릿이 바뀌었으니 새 리비전이 되어, 모든 파드가 maxSurge와 maxUnavailable 범위 안에서 교체됩니다."),
    ("n.req.kubectl.resume", "kubectl rollout resume removes spec.paused from {kind} {name}. The deployment controller marks Progressing as DeploymentResumed and rolls out whatever template changes waited.", "kubectl rollout resume이 {kind} {name}에서 spec.paused를 지웁니다. 디플로이먼트 컨트롤러는 Progressing 컨디션을 DeploymentResumed로 바꾸고, 기다리던 템플릿 변경을 롤아웃합니다."),
    ("n.req.kubectl.scale", "kubectl scale writes the scale subresource of {kind} {name}: only spec.replicas changes. The controllers notice the new number through their watches and do the rest.", "kubectl scale은 {kind} {name}의 scale 서브리소스에 씁니다. spec.replicas만 바뀌고, 나머지는 watch로 변경을 알아챈 컨트롤러들이 처리합니다."),
    ("n.req.kubectl.set_image", "kubectl set image sends a strategic merge patch for {kind} {name} that names only the changed container and its new image. A new pod template means a new pod-template-hash: the deployment controller will create a new ReplicaSet and roll the Pods over.", "kubectl set image가 {kind} {name}에 바뀐 컨테이너와 새 이미지만 담은 전략적 머지 패치(strategic merge patch)를 보냅니다. 파드 템플릿이 바뀌면 pod-template-hash도 바뀌므로, 디플로이먼트 컨트롤러가 새 레플리카셋을 만들고 파드를 차례로 교체합니다."),
    ("n.req.kubectl.undo", "kubectl rollout undo is done by kubectl itself: it found the ReplicaSet of the previous revision and now sends a JSON patch that replaces {kind} {name}'s spec.template with that ReplicaSet's template (without its pod-template-hash label). To the controller this is just another template change.", "kubectl rollout undo는 kubectl이 직접 처리합니다. 이전 리비전의 레플리카셋을 찾아, {kind} {name}의 spec.template을 그 레플리카셋의 템플릿(pod-template-hash 레이블 제외)으로 바꾸는 JSON 패치를 보냅니다. 컨트롤러에게는 또 하나의 템플릿 변경일 뿐입니다."),
    ("n.req.kubelet.delete", "The containers of Pod {name} have stopped, so the kubelet on {node} confirms the deletion with a DELETE with grace period 0. Only now does the API server remove the Pod from etcd.", "{name} 파드의 컨테이너가 모두 멈췄으므로 {node}의 kubelet이 grace period 0으로 DELETE를 보내 삭제를 확정합니다. 이제야 API 서버가 etcd에서 파드를 지웁니다."),
    ("n.req.kubelet.lease", "The kubelet on {node} renews its Lease in the kube-node-lease namespace: the node's heartbeat, every 10 s. The node lifecycle controller watches these Leases; a node silent for 50 s is marked unreachable.", "{node}의 kubelet이 kube-node-lease 네임스페이스의 Lease를 갱신합니다. 10초마다 보내는 노드의 하트비트입니다. 노드 라이프사이클 컨트롤러가 이 Lease를 watch하며, 50초 동안 소식이 없는 노드는 unreachable로 표시됩니다."),
    ("n.req.kubelet.node", "The kubelet on {node} reports its node status (a heartbeat): conditions such as Ready, plus capacity and allocatable.", "{node}의 kubelet이 노드 상태(하트비트)를 보고합니다: Ready 같은 컨디션과 capacity, allocatable입니다."),
    ("n.req.kubelet.register", "The kubelet on {node} registers its Node object with the API server: capacity, allocatable and labels. The scheduler will see the node through its node informer.", "{node}의 kubelet이 용량(capacity), 할당 가능량(allocatable), 레이블을 담은 Node 객체를 API 서버에 등록합니다. 스케줄러는 노드 인포머로 이 노드를 보게 됩니다."),
    ("n.req.kubelet.status", "The kubelet's status manager on {node} patches the status of Pod {name}: {summary}. This is how the control plane learns what happens on the node; the replicaset controller and kubectl read it from here.", "{node}의 kubelet 상태 관리자(status manager)가 {name} 파드의 status를 패치합니다: {summary}. 노드에서 일어난 일은 이렇게 컨트롤 플레인에 전달되고, 레플리카셋 컨트롤러와 kubectl은 이 값을 읽습니다."),
    ("n.req.kubelet.token", "The kubelet's token manager on {node} asks kube-apiserver for a token of ServiceAccount {name} (the serviceaccounts/token subresource), bound to the Pod it is about to start: the kube-api-access volume's token file will hold it, and the token stops working when the Pod is deleted.", "{node}의 kubelet의 토큰 관리자가 kube-apiserver에 ServiceAccount {name}의 토큰을 요청합니다 (serviceaccounts/token 서브리소스). 곧 시작할 파드에 묶인 토큰으로, kube-api-access 볼륨의 token 파일에 들어가며 파드가 지워지면 더는 쓸 수 없습니다."),
    ("n.req.le.create", "{From} creates the Lease {name} in kube-system with itself as holderIdentity: there was no Lease, so this process is the leader now and starts its work. From here on it renews the Lease every 2 s.", "{from|이/가} kube-system에 자기를 holderIdentity로 한 Lease {name|을/를} 만듭니다. Lease가 없었으므로 이 프로세스가 이제 리더이고 일을 시작합니다. 이제부터 2초마다 Lease를 갱신합니다."),
    ("n.req.le.get", "{From} reads the Lease {name} to see who leads. A process that does not lead waits until the record it read has stayed the same for leaseDurationSeconds (15 s), counted on its own clock, and tries again every 2 to 4.4 s.", "{from|이/가} 누가 리더인지 보려고 Lease {name|을/를} 읽습니다. 리더가 아닌 프로세스는 읽은 기록이 leaseDurationSeconds(15초) 동안 그대로일 때까지(자기 시계로 셉니다) 기다리며 2~4.4초마다 다시 시도합니다."),
    ("n.req.le.renew", "{From} renews its leader Lease {name} (renewTime now): it does so every 2 s, and as long as it does, no other instance takes over.", "{from|이/가} 리더 Lease {name|을/를} 갱신합니다(renewTime을 지금으로). 2초마다 갱신하며, 갱신이 이어지는 동안에는 다른 인스턴스가 넘겨받지 않습니다."),
    ("n.req.le.take", "{From} takes over the Lease {name}: the holder it saw stopped renewing for the whole lease duration, so it writes itself as holderIdentity, with acquireTime now and leaseTransitions {transitions}. This process leads now and starts its work.", "{from|이/가} Lease {name|을/를} 넘겨받습니다. 전에 본 홀더가 리스 기간 내내 갱신하지 않았으므로 자기를 holderIdentity로, acquireTime을 지금으로, leaseTransitions를 {transitions}로 씁니다. 이제 이 프로세스가 리더이고 일을 시작합니다."),
    ("n.req.list", "{From} LISTs {resource} from kube-apiserver: an informer fills its local cache with a LIST before it starts watching.", "{from|이/가} kube-apiserver에서 {resource} 목록을 LIST 합니다. 인포머는 watch를 시작하기 전에 LIST로 로컬 캐시를 채웁니다."),
    ("n.req.metrics.scrape", "metrics-server scrapes the kubelet on {node}: GET https://NODE-IP:10250/metrics/resource. The kubelet reports each running container's CPU counter and memory working set; CPU usage is the rate between two scrapes 15 s apart, so a new Pod has no metrics until it has been scraped twice.", "metrics-server가 {node}의 kubelet에서 지표를 수집합니다: GET https://노드-IP:10250/metrics/resource. kubelet은 실행 중인 각 컨테이너의 CPU 누적 사용량과 메모리 워킹셋을 알려 줍니다. CPU 사용량은 15초 간격 두 번의 수집 사이의 증가율이므로, 새 파드는 두 번 수집되기 전까지 메트릭이 없습니다."),
    ("n.req.nlc.evict", "The Pod's node has carried the NoExecute taint node.kubernetes.io/unreachable for longer than the Pod tolerates it (300 s by default), so the node lifecycle controller's taint eviction deletes Pod {name}; its ReplicaSet will create a replacement on a healthy node.", "파드가 있는 노드가 파드의 허용 시간(기본 300초)보다 오래 NoExecute 테인트 node.kubernetes.io/unreachable을 달고 있어서, 노드 라이프사이클 컨트롤러의 테인트 축출 기능이 {name} 파드를 삭제합니다. 레플리카셋이 건강한 노드에 대체 파드를 만들 것입니다."),
    ("n.req.nlc.pod_notready", "The node lifecycle controller marks Pod {name} not Ready (MarkPodsNotReady): its node stopped sending heartbeats, so nothing vouches for the Pod any more. Services stop sending it traffic.", "노드 라이프사이클 컨트롤러가 {name} 파드를 Ready가 아닌 상태로 표시합니다(MarkPodsNotReady). 노드가 하트비트를 멈춰 이 파드를 보증해 줄 곳이 없기 때문이며, 서비스도 더 이상 이 파드로 트래픽을 보내지 않습니다."),
    ("n.req.nlc.taint", "The node lifecycle controller updates the taints of Node {name}: node.kubernetes.io/unreachable with effect NoSchedule (no new Pods) and NoExecute (running Pods are evicted once their toleration runs out), or removes them when the node is back.", "노드 라이프사이클 컨트롤러가 {name}의 테인트를 갱신합니다: node.kubernetes.io/unreachable 테인트를 NoSchedule(새 파드 금지)과 NoExecute(허용 시간이 지나면 실행 중인 파드 축출) 효과로 추가하거나, 노드가 돌아오면 제거합니다."),
    ("n.req.nlc.unknown", "Node {name} has not renewed its Lease for longer than the grace period (50 s), so the node lifecycle controller sets all its conditions to Unknown: \"Kubelet stopped posting node status.\"", "{name|이/가} 유예 기간(50초)보다 오래 Lease를 갱신하지 않아서, 노드 라이프사이클 컨트롤러가 모든 컨디션을 Unknown으로 바꿉니다: \"Kubelet stopped posting node status.\""),
    ("n.req.nsc.deletecollection", "The namespace controller empties terminating namespace {ns}: one DELETE of the whole {resource} collection (Pods first; every other kind once no Pod is left), then a LIST to see what remains.", "네임스페이스 컨트롤러가 종료 중인 {ns} 네임스페이스를 비웁니다: {resource} 컬렉션 전체를 한 번의 DELETE로 지우고(파드 먼저, 파드가 남지 않으면 나머지 종류), LIST로 무엇이 남았는지 봅니다."),
    ("n.req.nsc.finalize", "Namespace {name} is empty: the namespace controller removes its `kubernetes` finalizer with PUT …/finalize, and with no finalizer left the API server deletes the namespace.", "{name} 네임스페이스가 비었습니다: 네임스페이스 컨트롤러가 PUT …/finalize로 `kubernetes` 파이널라이저를 지우고, 파이널라이저가 남지 않았으므로 API 서버가 네임스페이스를 삭제합니다."),
    ("n.req.nsc.status", "The namespace controller writes namespace {name}'s conditions: NamespaceContentRemaining says what is still there (for example pods waiting out their grace period), NamespaceFinalizersRemaining which finalizers hold objects.", "네임스페이스 컨트롤러가 {name} 네임스페이스의 조건을 씁니다: NamespaceContentRemaining은 아직 남은 것(예: 유예 시간을 기다리는 파드)을, NamespaceFinalizersRemaining은 어떤 파이널라이저가 객체를 붙잡고 있는지를 알려 줍니다."),
    ("n.req.prov.create", "The storage provisioner (k8s.io/minikube-hostpath) makes the volume for a claim marked for it: PersistentVolume {name} (pvc-<claim uid>), a hostPath with the claim's size and access modes, the class's reclaim policy, and a claimRef to the claim so that the PersistentVolume controller binds them.", "스토리지 프로비저너(k8s.io/minikube-hostpath)가 자기에게 표시된 클레임의 볼륨을 만듭니다: 퍼시스턴트볼륨 {name}(pvc-<클레임 uid>), 클레임의 크기와 접근 모드를 가진 hostPath, 스토리지클래스의 reclaim 정책, 그리고 퍼시스턴트볼륨 컨트롤러가 둘을 묶도록 클레임을 가리키는 claimRef."),
    ("n.req.prov.delete", "Volume {name} is Released and its reclaim policy is Delete: the storage provisioner that made it deletes it (and its directory).", "{name} 볼륨이 Released이고 reclaim 정책이 Delete이므로, 볼륨을 만든 스토리지 프로비저너가 볼륨(과 그 디렉터리)을 지웁니다."),
    ("n.req.pvc.bind_claim", "bind, third write: the PersistentVolume controller sets the claim's spec.volumeName to {volume} with pv.kubernetes.io/bind-completed. The volume was written first (its claimRef and phase), so a crash in between never leaves a claim pointing at a volume that does not point back.", "bind의 세 번째 쓰기: 퍼시스턴트볼륨 컨트롤러가 클레임의 spec.volumeName을 {volume|으로/로} 정하고 pv.kubernetes.io/bind-completed를 답니다. 볼륨(claimRef와 phase)을 먼저 썼으므로, 중간에 멈춰도 클레임만 볼륨을 가리키는 일은 없습니다."),
    ("n.req.pvc.claim_status", "The PersistentVolume controller writes claim {name}'s status: phase, and once bound the access modes and capacity of its volume. Now Pods using the claim can be scheduled.", "퍼시스턴트볼륨 컨트롤러가 {name} 클레임의 status를 씁니다: phase, 그리고 바인딩되면 볼륨의 접근 모드와 용량. 이제 이 클레임을 쓰는 파드가 스케줄될 수 있습니다."),
    ("n.req.pvc.claimref", "bind, first write: the PersistentVolume controller points volume {name}'s claimRef at the claim (pv.kubernetes.io/bound-by-controller: yes).", "bind의 첫 쓰기: 퍼시스턴트볼륨 컨트롤러가 {name} 볼륨의 claimRef가 클레임을 가리키게 합니다 (pv.kubernetes.io/bound-by-controller: yes)."),
    ("n.req.pvc.mark", "No PersistentVolume fits claim {name}, and its StorageClass names an external provisioner, so the PersistentVolume controller does not create storage itself: it annotates the claim volume.kubernetes.io/storage-provisioner for that provisioner and records ExternalProvisioning.", "{name} 클레임에 맞는 퍼시스턴트볼륨이 없고 스토리지클래스가 외부 프로비저너를 가리키므로, 퍼시스턴트볼륨 컨트롤러는 직접 스토리지를 만들지 않습니다: 클레임에 그 프로비저너의 volume.kubernetes.io/storage-provisioner 어노테이션을 달고 ExternalProvisioning 이벤트를 남깁니다."),
    ("n.req.pvc.volume_phase", "The PersistentVolume controller sets volume {name}'s phase to {phase} (Available: free; Bound: claimed; Released: its claim is gone and the reclaim policy decides).", "퍼시스턴트볼륨 컨트롤러가 {name} 볼륨의 phase를 {phase|으로/로} 바꿉니다 (Available: 비어 있음, Bound: 클레임에 묶임, Released: 클레임이 사라져 reclaim 정책이 결정함)."),
    ("n.req.pvcprot.release", "Claim {name} is being deleted and no Pod uses it any more, so the PVC protection controller removes its kubernetes.io/pvc-protection finalizer: now the API server can delete it. (While a Pod used it, it stayed Terminating.)", "{name} 클레임이 삭제 중이고 이제 쓰는 파드가 없으므로, PVC 보호 컨트롤러가 kubernetes.io/pvc-protection 파이널라이저를 지웁니다: 이제 API 서버가 클레임을 지울 수 있습니다. (파드가 쓰는 동안에는 Terminating으로 남아 있었습니다.)"),
    ("n.req.pvprot.release", "Volume {name} is being deleted and is no longer Bound, so the PV protection controller removes its kubernetes.io/pv-protection finalizer and the API server deletes it.", "{name} 볼륨이 삭제 중이고 더 이상 Bound가 아니므로, PV 보호 컨트롤러가 kubernetes.io/pv-protection 파이널라이저를 지우고 API 서버가 볼륨을 지웁니다."),
    ("n.req.rqc.status", "The resource quota controller writes quota {name}'s status: hard copied from spec.hard, used recounted from the namespace's objects. The API server's ResourceQuota admission charges new objects against this used; the controller gives back the usage of objects that are gone.", "리소스쿼터 컨트롤러가 {name} 쿼터의 status를 씁니다: hard는 spec.hard에서 복사하고, used는 네임스페이스의 객체를 다시 세어 채웁니다. API 서버의 ResourceQuota 어드미션이 새 객체를 이 used에 더하고, 컨트롤러는 사라진 객체의 사용량을 돌려줍니다."),
    ("n.req.rsc.create_pod", "syncReplicaSet → manageReplicas: ReplicaSet {owner} wants {want} replicas but owns fewer Pods, so the replicaset controller creates Pod {name} from the pod template (generateName {owner}- plus a random suffix, an ownerReference to the ReplicaSet). The Pod has no node yet: spec.nodeName is empty.", "syncReplicaSet → manageReplicas: {owner} 레플리카셋은 레플리카 {want}개를 원하지만 소유한 파드가 부족하므로, 레플리카셋 컨트롤러가 파드 템플릿으로 {name} 파드를 생성합니다 (generateName {owner}- 뒤에 무작위 접미사, 레플리카셋을 가리키는 ownerReference). 이 파드에는 아직 노드가 없습니다: spec.nodeName이 비어 있습니다."),
    ("n.req.rsc.delete_pod", "The ReplicaSet has more Pods than spec.replicas, so the replicaset controller deletes Pod {name}. It ranks the candidates: unscheduled before scheduled, not ready before ready, newer before older.", "레플리카셋의 파드 수가 spec.replicas보다 많아서 레플리카셋 컨트롤러가 {name} 파드를 삭제합니다. 삭제 후보는 순위로 고릅니다: 스케줄되지 않은 파드, 준비되지 않은 파드, 더 최근 파드가 먼저입니다."),
    ("n.req.rsc.status", "The replicaset controller updates the ReplicaSet's status (replicas, readyReplicas, availableReplicas) from the Pods in its informer cache. The deployment controller watches ReplicaSets and will pick this up.", "레플리카셋 컨트롤러가 인포머 캐시의 파드들을 세어 레플리카셋의 status(replicas, readyReplicas, availableReplicas)를 갱신합니다. 레플리카셋을 watch하는 디플로이먼트 컨트롤러가 이 변경을 받게 됩니다."),
    ("n.req.sched.bind", "The scheduler ran its filter plugins (NodeResourcesFit, NodeAffinity, TaintToleration…) on every node and scored the nodes that passed: {node} won. It POSTs a Binding to the Pod's binding subresource, and the API server sets spec.nodeName. The scheduler never talks to the kubelet: the kubelet learns about the Pod through its own watch.", "스케줄러가 모든 노드에 필터 플러그인(NodeResourcesFit, NodeAffinity, TaintToleration…)을 실행하고 통과한 노드에 점수를 매겨 {node|을/를} 골랐습니다. 파드의 binding 서브리소스에 바인딩(Binding)을 POST 하면 API 서버가 spec.nodeName을 채웁니다. 스케줄러는 kubelet과 직접 통신하지 않으며, kubelet은 자신의 watch로 이 파드를 알게 됩니다."),
    ("n.req.sched.bind_tie", "The scheduler ran its filter plugins on every node and scored those that passed: {tied} tied at the best total score, {score}. kube-scheduler's selectHost breaks a tie at random (reservoir sampling over the tied nodes; kubesim's randomness comes from the seed), and this time it drew {node}. It POSTs a Binding to the Pod's binding subresource, and the API server sets spec.nodeName.", "스케줄러가 모든 노드에 필터 플러그인을 실행하고 통과한 노드에 점수를 매겼습니다: {tied|이/가} 최고 총점 {score}점으로 동점입니다. kube-scheduler의 selectHost는 동점을 무작위로 가릅니다(동점 노드에 대한 저수지 샘플링; kubesim의 무작위성은 시드에서 나옵니다). 이번에는 {node|이/가} 뽑혔습니다. 스케줄러는 파드의 binding 서브리소스에 Binding을 POST하고, API 서버가 spec.nodeName을 설정합니다."),
    ("n.req.sched.disruption", "DefaultPreemption chose Pod {name} as a victim: kube-scheduler first marks it with the condition DisruptionTarget (reason PreemptionByScheduler), so whoever watches it knows why it is about to go.", "DefaultPreemption이 {name} 파드를 희생양으로 골랐습니다: kube-scheduler가 먼저 DisruptionTarget 조건(reason PreemptionByScheduler)을 달아, 이 파드를 지켜보는 쪽이 왜 사라지는지 알 수 있게 합니다."),
    ("n.req.sched.nominate", "kube-scheduler writes PodScheduled=False on {name} together with status.nominatedNodeName: {nominated}: the Pod will get that node once its victims are gone (kubectl get pods -o wide shows it under NOMINATED NODE).", "kube-scheduler가 {name}에 PodScheduled=False와 함께 status.nominatedNodeName: {nominated|을/를} 씁니다: 희생 파드가 사라지면 이 파드가 그 노드를 받습니다 (kubectl get pods -o wide의 NOMINATED NODE 열)."),
    ("n.req.sched.preempt", "Preemption: no node has room for a higher-priority Pod, but evicting lower-priority Pods on one node would make it. kube-scheduler deletes victim {name} (with its own grace period) and records Preempted on it.", "선점(preemption): 더 높은 우선순위 파드를 둘 노드가 없지만, 한 노드에서 낮은 우선순위 파드를 내보내면 자리가 납니다. kube-scheduler가 희생 파드 {name|을/를} 삭제하고(파드 자신의 유예 시간으로) Preempted 이벤트를 남깁니다."),
    ("n.req.sched.unschedulable", "No node passed the filters, so the scheduler patches the Pod's status with the condition PodScheduled=False, reason Unschedulable (the Scheduler tab shows each plugin's verdict). The Pod waits in the unschedulable queue until a change in the cluster (a new node, a deleted Pod) may make it fit.", "필터를 통과한 노드가 없어서 스케줄러가 파드 status에 PodScheduled=False(reason Unschedulable) 컨디션을 기록합니다 (플러그인별 판정은 Scheduler 탭에서 볼 수 있습니다). 파드는 노드 추가나 파드 삭제처럼 클러스터가 바뀔 때까지 unschedulable 큐에서 기다립니다."),
    ("n.req.stsc.claim_owner", "The StatefulSet controller updates the owner references of claim {name} as persistentVolumeClaimRetentionPolicy says: owned by the StatefulSet (whenDeleted: Delete) or by a Pod being scaled away (whenScaled: Delete), so the garbage collector deletes the claim with its owner.", "스테이트풀셋 컨트롤러가 persistentVolumeClaimRetentionPolicy에 따라 {name} 클레임의 ownerReferences를 고칩니다: 스테이트풀셋(whenDeleted: Delete)이나 스케일 다운으로 없어질 파드(whenScaled: Delete)가 주인이 되면, 가비지 컬렉터가 주인과 함께 클레임을 지웁니다."),
    ("n.req.stsc.create_claim", "Before the Pod, the StatefulSet controller creates its PersistentVolumeClaim {name} from volumeClaimTemplates (named template-set-ordinal, labelled with the selector). The claim outlives the Pod: whichever Pod holds this ordinal gets this volume.", "스테이트풀셋 컨트롤러가 파드보다 먼저 volumeClaimTemplates로 퍼시스턴트볼륨클레임 {name|을/를} 만듭니다 (이름은 템플릿-셋-순번, 레이블은 셀렉터의 것). 클레임은 파드보다 오래 남습니다: 이 순번의 파드는 언제나 이 볼륨을 받습니다."),
    ("n.req.stsc.create_pod", "syncStatefulSet → processReplica: StatefulSet {owner} has no Pod at this ordinal, so the StatefulSet controller creates {name} — a fixed name, not generateName — with hostname {name}, the labels statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index, and a volume for each of its claims. With podManagementPolicy OrderedReady nothing more happens until this Pod is Running and Ready.", "syncStatefulSet → processReplica: {owner} 스테이트풀셋에 이 순번의 파드가 없어서 스테이트풀셋 컨트롤러가 {name|을/를} 만듭니다. generateName이 아닌 고정된 이름이고, hostname은 {name}, statefulset.kubernetes.io/pod-name과 apps.kubernetes.io/pod-index 레이블, 클레임마다 볼륨이 붙습니다. podManagementPolicy가 OrderedReady이면 이 파드가 Running이고 Ready가 될 때까지 다음 파드를 만들지 않습니다."),
    ("n.req.stsc.delete_pod", "The StatefulSet controller deletes Pod {name}: the set was scaled down (the highest ordinal goes first, one at a time with OrderedReady), or a rolling update replaces it (from the highest ordinal down to the partition). Its PersistentVolumeClaims stay (whenScaled: Retain), so the Pod that comes back with this name gets the same volumes.", "스테이트풀셋 컨트롤러가 {name} 파드를 삭제합니다: 스케일 다운이면 가장 높은 순번부터(OrderedReady면 하나씩), 롤링 업데이트면 가장 높은 순번부터 partition까지 차례로 바꿉니다. 파드의 퍼시스턴트볼륨클레임은 남으므로(whenScaled: Retain) 같은 이름으로 다시 생기는 파드가 같은 볼륨을 받습니다."),
    ("n.req.stsc.revision", "The StatefulSet controller records the Pod template as a ControllerRevision named after the set and an FNV hash of the template. Each Pod's controller-revision-hash label holds the name of the revision it was made from; status.currentRevision and updateRevision tell a rolling update where it is.", "스테이트풀셋 컨트롤러가 파드 템플릿을 ControllerRevision으로 기록합니다 (이름은 셋 이름과 템플릿의 FNV 해시). 각 파드의 controller-revision-hash 레이블은 파드를 만든 리비전의 이름이고, status.currentRevision과 updateRevision이 롤링 업데이트의 진행을 알려 줍니다."),
    ("n.req.stsc.status", "The StatefulSet controller writes status: replicas, readyReplicas, currentReplicas, updatedReplicas, availableReplicas and the current and update revisions. kubectl rollout status statefulset reads these.", "스테이트풀셋 컨트롤러가 status를 씁니다: replicas, readyReplicas, currentReplicas, updatedReplicas, availableReplicas와 현재·업데이트 리비전. kubectl rollout status statefulset이 이것을 읽습니다."),
    ("n.req.ttl.delete", "Job {name} finished ttlSecondsAfterFinished seconds ago, so the TTL-after-finished controller deletes it (foreground: its Pods go first).", "{name} 잡이 끝난 지 ttlSecondsAfterFinished초가 지나서 TTL-after-finished 컨트롤러가 잡을 삭제합니다 (포그라운드: 파드가 먼저 지워짐)."),
    ("n.req.watch", "{From} opens a WATCH on {resource} from resourceVersion {rv}. From now on kube-apiserver streams every change as ADDED, MODIFIED or DELETED events: the list-and-watch of an informer.", "{from|이/가} resourceVersion {rv}부터 {resource}에 대한 WATCH를 엽니다. 이제부터 kube-apiserver는 모든 변경을 ADDED, MODIFIED, DELETED 이벤트로 보내 줍니다. 인포머의 list-and-watch입니다."),
    ("n.resp.accepted", "kube-apiserver answers 202 Accepted to {to}: the deletion is accepted but not finished — the object stays, marked with a deletionTimestamp, until its finalizers are removed or its grace period ends.", "kube-apiserver가 {to}에게 202 Accepted로 응답합니다: 삭제는 받아들여졌지만 끝나지 않았습니다 — 객체는 deletionTimestamp가 찍힌 채, 파이널라이저가 지워지거나 유예 기간이 끝날 때까지 남습니다."),
    ("n.resp.aggregated", "metrics-server answers {code}; kube-apiserver relays the answer to the client as if it were its own API.", "metrics-server가 {code}로 답하고, kube-apiserver는 그 답을 자기 API인 것처럼 클라이언트에 전달합니다."),
    ("n.resp.answered", "kube-apiserver answers {code} to {to}: nothing is stored — {req} asks the API server a question (a review of who may do what, or who I am), it does not create an object.", "kube-apiserver가 {to}에게 {code}(으)로 응답합니다: 저장되는 것은 없습니다 — {req|은/는} 객체를 만드는 것이 아니라 API 서버에 묻는 질문(누가 무엇을 해도 되는지, 나는 누구인지)입니다."),
    ("n.resp.conflict", "kube-apiserver answers 409 Conflict: the update was based on an outdated resourceVersion (optimistic concurrency, enforced by an etcd transaction). {To} will read the latest version and try again.", "kube-apiserver가 409 Conflict로 응답합니다: 오래된 resourceVersion을 기준으로 한 업데이트였기 때문입니다 (etcd 트랜잭션으로 보장되는 낙관적 동시성 제어). {to|은/는} 최신 버전을 다시 읽고 재시도합니다."),
    ("n.resp.created", "kube-apiserver answers {code} Created to {to}: {kind} {name} is stored in etcd at revision {rev}, which becomes its resourceVersion. Everyone watching this kind of object will be told.", "kube-apiserver가 {to}에게 {code} Created로 응답합니다: {kind} {name|이/가} etcd 리비전 {rev}에 저장되었고, 이 값이 resourceVersion이 됩니다. 이 종류의 객체를 watch하는 구성요소들에게 곧 알림이 갑니다."),
    ("n.resp.deleted", "kube-apiserver answers {code} OK to {to}: the deletion is recorded in etcd (revision {rev}).", "kube-apiserver가 {to}에게 {code} OK로 응답합니다: 삭제가 etcd에 기록되었습니다 (리비전 {rev})."),
    ("n.resp.error", "kube-apiserver answers {code} {reason} to {to}.", "kube-apiserver가 {to}에게 {code} {reason}(으)로 응답합니다."),
    ("n.resp.evicted", "kube-apiserver answers {code} to {to}: the eviction is allowed, so Pod {name} is deleted (etcd revision {rev}): its graceful termination begins, or with a grace period of 0 it is gone at once.", "kube-apiserver가 {to}에게 {code}로 응답합니다: 축출이 허용되어 파드 {name}가 삭제됩니다 (etcd 리비전 {rev}): 정상 종료가 시작되거나, 유예 기간이 0이면 바로 사라집니다."),
    ("n.resp.forbidden", "kube-apiserver answers 403 Forbidden to {to}: its authorizers (Node, then RBAC) found no rule that lets {user} do {req}, so the request stops before admission and nothing reaches etcd. A Role or ClusterRole granting it, bound to the user by a RoleBinding or ClusterRoleBinding, would let it through.", "kube-apiserver가 {to}에게 403 Forbidden으로 응답합니다: 인가자(Node, 그다음 RBAC)가 {user}에게 {req|을/를} 허용하는 규칙을 찾지 못해, 요청은 어드미션 전에 멈추고 etcd에는 아무것도 닿지 않습니다. 이를 허용하는 Role이나 ClusterRole을 RoleBinding이나 ClusterRoleBinding으로 사용자에게 묶어 주면 통과합니다."),
    ("n.resp.internal", "kube-apiserver answers 500 Internal Server Error to {to}: etcd did not answer in time (\"etcdserver: request timed out\"), so nothing was written. A controller records the failure, puts the key back into its work queue with the rate limiter's back-off (5 ms, 10 ms, 20 ms…) and tries again.", "kube-apiserver가 {to}에게 500 Internal Server Error로 응답합니다: etcd가 제때 답하지 않아(\"etcdserver: request timed out\") 아무것도 기록되지 않았습니다. 컨트롤러는 실패를 기록하고, 레이트 리미터의 백오프(5ms, 10ms, 20ms…) 뒤에 키를 워크 큐에 다시 넣어 재시도합니다."),
    ("n.resp.invalid", "kube-apiserver answers 422 Invalid: validation rejected the object and nothing was written to etcd. The editor shows kubectl's message at the offending line.", "kube-apiserver가 422 Invalid로 응답합니다: 검증에서 객체가 거부되어 etcd에는 아무것도 기록되지 않았습니다. 편집기에서 해당 줄에 kubectl의 메시지가 표시됩니다."),
    ("n.resp.kubelet.logs", "The kubelet on {node} sends the container's log back to kube-apiserver (200), which passes it on to kubectl as plain text.", "{node}의 kubelet이 컨테이너 로그를 kube-apiserver에 돌려보내고(200), API 서버는 이를 일반 텍스트로 kubectl에 전달합니다."),
    ("n.resp.kubelet.logs_error", "The kubelet on {node} has no log to give ({code}): the container has not started yet, or there is no previous run. kube-apiserver passes the kubelet's message on to kubectl.", "{node}의 kubelet이 돌려줄 로그가 없습니다({code}): 컨테이너가 아직 시작되지 않았거나 이전 실행이 없습니다. kube-apiserver는 kubelet의 메시지를 kubectl에 그대로 전달합니다."),
    ("n.resp.metrics.scrape", "The kubelet on {node} answers with its node's and containers' samples; metrics-server keeps the last two of each.", "{node}의 kubelet이 노드와 컨테이너들의 샘플로 답합니다; metrics-server는 각각 마지막 두 개를 보관합니다."),
    ("n.resp.metrics.scrape_failed", "The scrape of {node} fails: its kubelet does not answer. metrics-server has no new sample for that node and its Pods.", "{node} 수집이 실패합니다: kubelet이 응답하지 않습니다. metrics-server는 그 노드와 파드들의 새 샘플을 얻지 못합니다."),
    ("n.resp.notfound", "kube-apiserver answers 404 NotFound to {to}: {req} found nothing.", "kube-apiserver가 {to}에게 404 NotFound로 응답합니다: {req}에 해당하는 것이 없습니다."),
    ("n.resp.notfound_apply", "kube-apiserver answers 404 NotFound: {kind} {name} does not exist yet. So kubectl apply will create it with a POST, keeping your manifest in the last-applied-configuration annotation.", "kube-apiserver가 404 NotFound로 응답합니다: {kind} {name|은/는} 아직 없습니다. 그래서 kubectl apply는 매니페스트를 last-applied-configuration 어노테이션에 담아 POST로 생성합니다."),
    ("n.resp.read", "kube-apiserver answers {code} OK to {to} with the result of {req}.", "kube-apiserver가 {to}에게 {code} OK와 함께 {req}의 결과를 돌려줍니다."),
    ("n.resp.throttled", "kube-apiserver answers 429 Too Many Requests with Retry-After: 1: API Priority and Fairness has no seat for the request now. client-go's REST client waits the second it was told and sends the same request again (up to 10 times); its caller only sees the final answer.", "kube-apiserver가 Retry-After: 1과 함께 429 Too Many Requests로 응답합니다: API Priority and Fairness에 지금 요청을 받을 자리가 없습니다. client-go의 REST 클라이언트는 들은 대로 1초를 기다렸다가 같은 요청을 다시 보냅니다(최대 10번); 호출한 쪽은 마지막 응답만 봅니다."),
    ("n.resp.timeout", "kube-apiserver answers 504 Timeout to {to}: the request did not complete within its deadline. The client gets the error; a controller retries with back-off, kubectl reports it.", "kube-apiserver가 {to}에게 504 Timeout으로 응답합니다: 요청이 제한 시간 안에 끝나지 않았습니다. 클라이언트가 오류를 받습니다; 컨트롤러는 백오프 뒤에 재시도하고, kubectl은 오류를 출력합니다."),
    ("n.resp.token", "kube-apiserver answers {code} to {to} with a signed token for ServiceAccount {name}: nothing is stored in etcd — a TokenRequest is answered, not kept.", "kube-apiserver가 {to}에게 {code}(으)로 ServiceAccount {name}의 서명된 토큰을 돌려줍니다: etcd에 저장되는 것은 없습니다 — TokenRequest는 답을 받을 뿐 보관되지 않습니다."),
    ("n.resp.updated", "kube-apiserver answers {code} OK to {to}: the change is stored (revision {rev}).", "kube-apiserver가 {to}에게 {code} OK로 응답합니다: 변경이 저장되었습니다 (리비전 {rev})."),
    ("n.resp.watch", "kube-apiserver accepts the watch ({code}); the connection stays open and events will flow to {to}.", "kube-apiserver가 watch를 수락합니다 ({code}). 연결이 유지되며 이벤트가 {to}에게 흘러갑니다."),
    ("n.start", "Press Apply to send the manifest to the cluster. Every message between the components then plays here, one step at a time: kubectl's request, the API server's writes to etcd, the watch events that wake the controllers, the scheduler's binding and the kubelet's calls to the container runtime.", "적용을 누르면 매니페스트가 클러스터로 전송됩니다. 그러면 구성요소 사이의 모든 메시지가 여기에서 한 단계씩 재생됩니다: kubectl의 요청, API 서버의 etcd 쓰기, 컨트롤러를 깨우는 watch 이벤트, 스케줄러의 바인딩, 그리고 kubelet의 컨테이너 런타임 호출까지."),
    ("n.timer", "A timer fires inside {from}: {what}.", "{from} 내부의 타이머가 동작합니다: {what}."),
    ("n.watch.cjc.cronjob", "The CronJob controller's informer receives {event} CronJob {ns}/{name} and queues it: a worker will look for a schedule time that has come.", "크론잡 컨트롤러의 인포머가 {event} 크론잡 {ns}/{name} 이벤트를 받아 큐에 넣습니다: 워커가 도래한 스케줄 시각을 찾습니다."),
    ("n.watch.cjc.job", "The CronJob controller watches its Jobs: {event} Job {name} (owner: CronJob {owner}). A finished Job leaves status.active (SawCompletedJob).", "크론잡 컨트롤러는 자기 잡을 watch합니다: {event} {name} 잡(소유자: {owner} 크론잡). 끝난 잡은 status.active에서 빠집니다(SawCompletedJob)."),
    ("n.watch.dc.deploy", "The deployment controller's informer receives {event} Deployment {ns}/{name} from its watch on kube-apiserver. Its event handler puts the key {ns}/{name} into the work queue; a worker will pick it up and run syncDeployment.", "디플로이먼트 컨트롤러의 인포머가 kube-apiserver에 걸어 둔 watch로 {event} 디플로이먼트 {ns}/{name} 이벤트를 받습니다. 이벤트 핸들러가 키({ns}/{name})를 워크 큐에 넣으면, 워커가 이를 꺼내 syncDeployment를 실행합니다."),
    ("n.watch.dc.rs", "The deployment controller's informer receives {event} ReplicaSet {name}. The ReplicaSet's ownerReference points to Deployment {owner}, so the handler puts {ns}/{owner} into the work queue: the controller re-checks that Deployment's rollout and status.", "디플로이먼트 컨트롤러의 인포머가 {event} 레플리카셋 {name} 이벤트를 받습니다. 이 레플리카셋의 ownerReference가 {owner} 디플로이먼트를 가리키므로, 핸들러는 키({ns}/{owner})를 워크 큐에 넣어 그 디플로이먼트의 롤아웃과 상태를 다시 확인하게 합니다."),
    ("n.watch.dc.rs_orphan", "The deployment controller's informer receives {event} ReplicaSet {name}. It has no controller ownerReference, so the controller looks for a Deployment whose selector matches it (adoption).", "디플로이먼트 컨트롤러의 인포머가 {event} 레플리카셋 {name} 이벤트를 받습니다. 컨트롤러 ownerReference가 없으므로, 셀렉터가 일치하는 디플로이먼트가 있는지 찾습니다 (입양, adoption)."),
    ("n.watch.dsc.ds", "The DaemonSet controller's informer receives {event} DaemonSet {ns}/{name} and queues it: a worker will compare every node with the Pods the DaemonSet has there.", "데몬셋 컨트롤러의 인포머가 {event} 데몬셋 {ns}/{name} 이벤트를 받아 큐에 넣습니다: 워커가 모든 노드를 데몬셋이 거기 둔 파드와 비교합니다."),
    ("n.watch.dsc.node", "The DaemonSet controller watches Nodes too: {event} Node {name}. A new node, or changed labels or taints, can change where daemon Pods belong: then every DaemonSet is queued (a status update alone changes nothing).", "데몬셋 컨트롤러는 노드도 watch합니다: {event} {name}. 새 노드나 바뀐 레이블·테인트는 데몬 파드가 있어야 할 곳을 바꿀 수 있어 그때는 모든 데몬셋을 큐에 넣습니다 (status만 바뀐 경우는 아무것도 하지 않음)."),
    ("n.watch.dsc.pod", "The DaemonSet controller's Pod informer receives {event} Pod {name} (owner: DaemonSet {owner}): it updates its expectations and queues {ns}/{owner} to recount.", "데몬셋 컨트롤러의 파드 인포머가 {event} {name} 파드 이벤트(소유자: {owner} 데몬셋)를 받아 expectations를 갱신하고 {ns}/{owner}를 큐에 넣어 다시 셉니다."),
    ("n.watch.gc", "The garbage collector's informer receives {event} {kind} {name}. It records the object's ownerReferences in its dependency graph so that, when an owner is deleted, it can find and delete the dependents; nothing to collect now.", "가비지 컬렉터의 인포머가 {event} {kind} {name} 이벤트를 받습니다. 객체의 ownerReference를 의존성 그래프에 기록해 두었다가, 소유자가 삭제되면 종속 객체를 찾아 삭제합니다. 지금은 정리할 것이 없습니다."),
    ("n.watch.gc.deleted", "The garbage collector's informer receives DELETED {kind} {name}. {n} object(s) still have an ownerReference to it: their owner is gone, so the garbage collector will delete them (cascading deletion).", "가비지 컬렉터의 인포머가 DELETED {kind} {name} 이벤트를 받습니다. 아직 이 객체를 ownerReference로 가리키는 객체가 {n}개 있습니다: 소유자가 사라졌으므로 가비지 컬렉터가 이들을 삭제합니다 (연쇄 삭제)."),
    ("n.watch.gc.deleted_none", "The garbage collector's informer receives DELETED {kind} {name} and removes it from its dependency graph. No object names it as owner any more, so there is nothing to collect.", "가비지 컬렉터의 인포머가 DELETED {kind} {name} 이벤트를 받고 의존성 그래프에서 이 객체를 지웁니다. 이 객체를 소유자로 가리키는 객체가 더 없으므로 정리할 것이 없습니다."),
    ("n.watch.generic", "kube-apiserver delivers the watch event {event} {kind} {name} to {to}.", "kube-apiserver가 {to}에게 watch 이벤트 {event} {kind} {name|을/를} 전달합니다."),
    ("n.watch.jc.job", "The Job controller's informer receives {event} Job {ns}/{name} and queues it: a worker will count its Pods against completions, parallelism and backoffLimit.", "잡 컨트롤러의 인포머가 {event} 잡 {ns}/{name} 이벤트를 받아 큐에 넣습니다: 워커가 파드 수를 completions, parallelism, backoffLimit과 비교합니다."),
    ("n.watch.jc.pod", "The Job controller's Pod informer receives {event} Pod {name} (owner: Job {owner}): a Pod that succeeded or failed changes the counts, so {ns}/{owner} is queued.", "잡 컨트롤러의 파드 인포머가 {event} {name} 파드 이벤트(소유자: {owner} 잡)를 받습니다: 성공하거나 실패한 파드는 개수를 바꾸므로 {ns}/{owner}를 큐에 넣습니다."),
    ("n.watch.kubectl", "kubectl rollout status watches Deployment {name}: this {event} event brings its new status (resourceVersion {rv}), and kubectl prints one line from it (updated, old pending termination, available) until the rollout is done.", "kubectl rollout status가 {name} 디플로이먼트를 watch하고 있습니다. 이 {event} 이벤트가 새 status(resourceVersion {rv})를 가져오면, kubectl은 롤아웃이 끝날 때까지 그로부터 한 줄(업데이트된 수, 종료 대기 중인 이전 파드, 사용 가능한 수)을 출력합니다."),
    ("n.watch.kubelet.added", "The kubelet on {node} watches only the Pods with spec.nodeName={node} (a field selector). Pod {name} was just bound to this node, so it arrives as ADDED: the kubelet starts a pod worker that will create the sandbox, pull the image and start the containers.", "{node}의 kubelet은 spec.nodeName={node}인 파드만 watch합니다 (필드 셀렉터). {name} 파드가 방금 이 노드에 바인딩되어 ADDED로 도착했고, kubelet은 파드 워커를 시작해 샌드박스 생성, 이미지 풀, 컨테이너 시작을 진행합니다."),
    ("n.watch.kubelet.deleted", "The kubelet on {node} receives DELETED Pod {name} and forgets it.", "{node}의 kubelet이 DELETED {name} 파드 이벤트를 받고 이 파드를 잊습니다."),
    ("n.watch.kubelet.deleting", "Pod {name} now has a deletionTimestamp: the kubelet on {node} starts graceful termination and stops the containers within the grace period.", "{name} 파드에 deletionTimestamp가 생겼습니다: {node}의 kubelet이 정상 종료(graceful termination)를 시작해 grace period 안에 컨테이너를 멈춥니다."),
    ("n.watch.kubelet.modified", "The kubelet on {node} receives MODIFIED Pod {name} (resourceVersion {rv}), often its own status update coming back through the watch. The pod worker compares the Pod with what runs on the node; nothing new to do.", "{node}의 kubelet이 MODIFIED {name} 파드 이벤트(resourceVersion {rv})를 받습니다. 대개 자신이 보낸 상태 업데이트가 watch로 돌아온 것이며, 파드 워커가 노드에서 실행 중인 것과 비교해 보지만 새로 할 일은 없습니다."),
    ("n.watch.kubelet.node", "The kubelet on {node} watches its own Node object (a field selector on metadata.name) and receives MODIFIED Node {name} (resourceVersion {rv}). This is how it learns spec.podCIDR; usually it is just its own status update coming back.", "{node}의 kubelet은 자기 Node 객체만 watch합니다 (metadata.name 필드 셀렉터). MODIFIED {name} Node 이벤트(resourceVersion {rv})를 받습니다. kubelet은 이렇게 spec.podCIDR를 알게 되며, 대개는 자신이 보낸 상태 업데이트가 돌아온 것입니다."),
    ("n.watch.late", "{To} receives {event} {kind} {name} (resourceVersion {rv}) late: the object was already deleted from etcd at revision {gone}. Watch events reach each watcher in order, so this older version arrives first and the DELETED event follows; the informer's cache catches up then.", "{to|이/가} {event} {kind} {name} 이벤트(resourceVersion {rv})를 늦게 받습니다: 이 객체는 이미 리비전 {gone}에서 etcd에서 삭제되었습니다. watch 이벤트는 watcher마다 순서대로 도착하므로 이 이전 버전이 먼저 오고 DELETED 이벤트가 뒤따릅니다; 그때 인포머의 캐시가 따라잡습니다."),
    ("n.watch.nlc.lease", "The node lifecycle controller's informer receives {event} Lease {name}: the node's heartbeat was renewed. Every 5 s the controller checks each node's latest heartbeat against the 50 s grace period.", "노드 라이프사이클 컨트롤러의 인포머가 {event} Lease {name} 이벤트를 받습니다: 노드의 하트비트가 갱신되었습니다. 컨트롤러는 5초마다 각 노드의 마지막 하트비트를 50초 유예 기간과 비교합니다."),
    ("n.watch.nlc.node", "The node lifecycle controller's informer receives {event} Node {name}; it keeps the node's conditions and taints in its cache to decide whether the node is healthy.", "노드 라이프사이클 컨트롤러의 인포머가 {event} {name} Node 이벤트를 받아, 노드가 건강한지 판단하는 데 쓰는 컨디션과 테인트를 캐시에 반영합니다."),
    ("n.watch.nlc.pod", "The node lifecycle controller's informer receives {event} Pod {name}. It tracks which Pods run on which node, so that it can mark them not Ready, and evict them, if their node stops sending heartbeats.", "노드 라이프사이클 컨트롤러의 인포머가 {event} {name} 파드 이벤트를 받습니다. 어느 파드가 어느 노드에서 실행되는지 추적해 두었다가, 노드가 하트비트를 멈추면 파드를 NotReady로 표시하고 축출합니다."),
    ("n.watch.nsc.ns", "The namespace controller receives {event} Namespace {name}: a namespace with a deletionTimestamp (Terminating) is queued to be emptied.", "네임스페이스 컨트롤러가 {event} {name} 네임스페이스 이벤트를 받습니다: deletionTimestamp가 있는(Terminating) 네임스페이스는 비우기 위해 큐에 들어갑니다."),
    ("n.watch.prov.claim", "The storage provisioner sees {event} PersistentVolumeClaim {ns}/{name}: it provisions only claims annotated for k8s.io/minikube-hostpath that have no volume yet.", "스토리지 프로비저너가 {event} 퍼시스턴트볼륨클레임 {ns}/{name|을/를} 봅니다: k8s.io/minikube-hostpath용 어노테이션이 있고 아직 볼륨이 없는 클레임만 프로비저닝합니다."),
    ("n.watch.pvc.claim", "The PersistentVolume controller receives {event} PersistentVolumeClaim {ns}/{name} and queues it: a claim without a volume looks for one (or asks its class's provisioner); a bound claim is checked.", "퍼시스턴트볼륨 컨트롤러가 {event} 퍼시스턴트볼륨클레임 {ns}/{name} 이벤트를 받아 큐에 넣습니다: 볼륨 없는 클레임은 볼륨을 찾고(없으면 스토리지클래스의 프로비저너에게 맡기고), 묶인 클레임은 점검합니다."),
    ("n.watch.pvc.volume", "The PersistentVolume controller receives {event} PersistentVolume {name}: a new volume whose claimRef names a waiting claim is bound to it on the claim's next sync.", "퍼시스턴트볼륨 컨트롤러가 {event} 퍼시스턴트볼륨 {name} 이벤트를 받습니다: claimRef가 기다리는 클레임을 가리키는 새 볼륨은 그 클레임의 다음 동기화에서 묶입니다."),
    ("n.watch.rsc.pod", "The replicaset controller's Pod informer receives {event} Pod {name} (owner: ReplicaSet {owner}) and puts {ns}/{owner} into the work queue: the Pod's phase or readiness changed, so the ReplicaSet's status counts may change.", "레플리카셋 컨트롤러의 파드 인포머가 {event} {name} 파드 이벤트(소유자: {owner} 레플리카셋)를 받아 키({ns}/{owner})를 워크 큐에 넣습니다. 파드의 phase나 준비 상태가 바뀌었으니 레플리카셋 status의 개수도 바뀔 수 있습니다."),
    ("n.watch.rsc.pod_added", "The replicaset controller's Pod informer receives ADDED Pod {name}. Its ownerReference names ReplicaSet {owner}: the controller marks one expected creation as observed (expectations) and puts {ns}/{owner} into the work queue to update the counts.", "레플리카셋 컨트롤러의 파드 인포머가 ADDED {name} 파드 이벤트를 받습니다. ownerReference가 {owner} 레플리카셋을 가리키므로, 컨트롤러는 기대했던 생성 하나가 관찰되었다고 기록하고(expectations) 키({ns}/{owner})를 워크 큐에 넣어 개수를 갱신합니다."),
    ("n.watch.rsc.pod_unowned", "The replicaset controller's Pod informer receives {event} Pod {name}. No ReplicaSet owns it (no controller ownerReference) and the controller adopts nothing here, so nothing is queued: a bare Pod is nobody's to replace.", "레플리카셋 컨트롤러의 파드 인포머가 {event} 파드 {name|을/를} 받습니다. 이 파드를 소유한 레플리카셋이 없고(controller ownerReference 없음) 여기서 입양할 것도 없으므로 큐에 넣는 것은 없습니다: 맨 파드는 누구도 대신 만들어 주지 않습니다."),
    ("n.watch.rsc.rs", "The replicaset controller's informer receives {event} ReplicaSet {ns}/{name} and puts the key {ns}/{name} into its work queue. A worker will run syncReplicaSet, which compares spec.replicas with the Pods the ReplicaSet owns.", "레플리카셋 컨트롤러의 인포머가 {event} 레플리카셋 {ns}/{name} 이벤트를 받아 키({ns}/{name})를 워크 큐에 넣습니다. 워커가 syncReplicaSet을 실행해 spec.replicas와 레플리카셋이 소유한 파드 수를 비교합니다."),
    ("n.watch.sched.claim", "kube-scheduler watches PersistentVolumeClaims too: {event} {ns}/{name}. A Pod rejected with \"pod has unbound immediate PersistentVolumeClaims\" is tried again once its claim is bound.", "kube-scheduler는 퍼시스턴트볼륨클레임도 watch합니다: {event} {ns}/{name}. \"pod has unbound immediate PersistentVolumeClaims\"로 거절된 파드는 클레임이 묶이면 다시 시도됩니다."),
    ("n.watch.sched.node", "The scheduler's node informer receives {event} Node {name}: its cache of node capacity, labels and taints is updated, and unschedulable Pods may get another try.", "스케줄러의 노드 인포머가 {event} {name} Node 이벤트를 받습니다. 노드 용량, 레이블, 테인트 캐시가 갱신되고, 스케줄되지 못한 파드들이 다시 시도할 기회를 얻습니다."),
    ("n.watch.sched.pod_bound", "The scheduler's informer sees Pod {name} bound to {node}. It confirms the Pod it had assumed in its cache, so the node's requested CPU and memory include this Pod in the next decisions.", "스케줄러의 인포머가 {node}에 바인딩된 {name} 파드를 봅니다. 캐시에 가정(assume)해 두었던 파드를 확정하므로, 이후 결정에서 이 노드의 요청 CPU·메모리에 이 파드가 포함됩니다."),
    ("n.watch.sched.pod_deleted", "The scheduler's informer receives DELETED Pod {name}: its resources are released in the scheduler's cache, and Pods waiting as unschedulable get another try.", "스케줄러의 인포머가 DELETED {name} 파드 이벤트를 받습니다. 스케줄러 캐시에서 이 파드의 자원이 해제되고, 스케줄되지 못한 파드들이 다시 시도할 기회를 얻습니다."),
    ("n.watch.sched.pod_finished", "The scheduler receives DELETED Pod {name}, yet the Pod still exists: it is {phase} now, and the scheduler watches only Pods with status.phase!=Succeeded,status.phase!=Failed (a field selector), so kube-apiserver reports it leaving that watch as DELETED. Its resources are released in the scheduler's cache.", "스케줄러가 DELETED {name} 파드 이벤트를 받지만 파드는 아직 있습니다: 이제 {phase} 상태이고, 스케줄러는 status.phase!=Succeeded,status.phase!=Failed인 파드만 watch하므로(필드 셀렉터) kube-apiserver가 watch에서 벗어난 파드를 DELETED로 알립니다. 스케줄러 캐시에서 이 파드의 리소스가 해제됩니다."),
    ("n.watch.sched.pod_pending", "The scheduler's informer receives {event} Pod {name}: spec.nodeName is empty and schedulerName is default-scheduler, so the Pod goes into the scheduling queue (activeQ). The next scheduling cycle will pop it.", "스케줄러의 인포머가 {event} {name} 파드 이벤트를 받습니다. spec.nodeName이 비어 있고 schedulerName이 default-scheduler이므로 파드가 스케줄링 큐(activeQ)에 들어가고, 다음 스케줄링 사이클이 이 파드를 꺼내 처리합니다."),
    ("n.watch.stsc.pod", "The StatefulSet controller's Pod informer receives {event} Pod {name} (owner: StatefulSet {owner}) and queues {ns}/{owner}: with OrderedReady, the next ordinal waits for exactly this kind of news (Running and Ready).", "스테이트풀셋 컨트롤러의 파드 인포머가 {event} {name} 파드 이벤트(소유자: {owner} 스테이트풀셋)를 받아 {ns}/{owner}를 큐에 넣습니다: OrderedReady에서는 다음 순번이 바로 이런 소식(Running이고 Ready)을 기다립니다."),
    ("n.watch.stsc.sts", "The StatefulSet controller's informer receives {event} StatefulSet {ns}/{name} and queues it: a worker will compare ordinals {ns}/{name}-0… with the Pods that exist.", "스테이트풀셋 컨트롤러의 인포머가 {event} 스테이트풀셋 {ns}/{name} 이벤트를 받아 큐에 넣습니다: 워커가 {name}-0부터의 순번과 실제 파드를 비교합니다."),
    ("narr.outcome", "The outcome", "결과"),
    ("narr.title", "What is happening", "지금 일어나는 일"),
    ("network.empty", "No Services yet. Load the preset “Network: expose nginx and curl it”, or run kubectl expose.", "아직 서비스가 없습니다. “네트워크: nginx를 노출하고 curl로 요청” 예제를 불러오거나 kubectl expose를 실행해 보세요."),
    ("network.ingress", "The servers ingress-nginx builds from these Ingresses: for each host, its paths (Exact first, then the longest Prefix) and the upstream each sends to — the ready endpoints nginx balances over, round robin, straight to the Pods.", "ingress-nginx가 이 Ingress들로 만드는 server들: 호스트마다 경로(Exact 먼저, 그다음 가장 긴 Prefix)와 각 경로가 보내는 upstream — nginx가 라운드 로빈으로 파드에 바로 분산하는 준비된 엔드포인트들."),
    ("network.netpol", "The Pods each policy selects: isolated in those directions, they accept only what some rule of a policy selecting them allows. kube-network-policies judges every new connection by them.", "각 정책이 선택한 파드들: 그 방향으로 격리되어, 자신을 선택한 정책의 규칙이 허용하는 것만 받아들입니다. kube-network-policies가 새 연결마다 이것으로 판정합니다."),
    ("network.netpol_pod", "One Pod as the policy agent sees it: what isolates it, and each other Pod's connection to it and from it, judged as the data path judges them:", "정책 에이전트가 보는 파드 하나: 무엇이 격리하는지, 그리고 다른 파드마다 이 파드로 들어오고 나가는 연결을 데이터 경로와 똑같이 판정한 결과:"),
    ("network.ready", "{ready} ready", "{ready}개 준비됨"),
    ("network.rules", "The iptables rules kube-proxy writes for these Services and EndpointSlices (iptables mode; the same on every node):", "kube-proxy가 이 서비스와 엔드포인트슬라이스로 만드는 iptables 규칙 (iptables 모드, 모든 노드에서 같음):"),
    ("objects.back", "← Back to the list", "← 목록으로"),
    ("objects.hint", "Click a row for `kubectl describe` at this step.", "행을 클릭하면 이 단계 시점의 `kubectl describe`를 보여 줍니다."),
    ("panic.body", "The page hit an internal error and stopped. Your editor content is saved; reload to continue.", "페이지에 내부 오류가 발생해 멈췄습니다. 편집기 내용은 저장되어 있으니 새로고침하면 이어서 할 수 있습니다."),
    ("panic.reload", "Reload", "새로고침"),
    ("panic.title", "kubesim stopped", "kubesim이 멈췄습니다"),
    ("poster.intro", "Press Play to watch this scenario run on a simulated Kubernetes v1.34 cluster: kubectl's request, the etcd writes, the watch events that wake the controllers, the scheduler's binding and the kubelet's work, one message at a time, each explained.", "재생을 누르면 이 시나리오가 시뮬레이션된 쿠버네티스 v1.34 클러스터에서 실행됩니다. kubectl의 요청, etcd 쓰기, 컨트롤러를 깨우는 watch 이벤트, 스케줄러의 바인딩과 kubelet의 작업을 메시지 하나씩 설명과 함께 보여 줍니다."),
    ("poster.loading", "Loading the simulator…", "시뮬레이터를 불러오는 중…"),
    ("poster.play", "Play", "재생"),
    ("preset.anti_affinity", "Anti-affinity keeps one replica Pending, until a node is added", "안티어피니티: 노드를 추가할 때까지 레플리카 하나가 Pending"),
    ("preset.bad_image", "Bad image tag (nginx:1.99)", "잘못된 이미지 태그 (nginx:1.99)"),
    ("preset.chaos", "Chaos: kube-controller-manager and the scheduler crash, a node fails", "카오스: kube-controller-manager와 스케줄러가 죽고 노드가 장애"),
    ("preset.choose", "Load a preset…", "예제 불러오기…"),
    ("preset.configmap_missing", "A missing ConfigMap: CreateContainerConfigError, then create it", "없는 컨피그맵: CreateContainerConfigError, 그다음 만들기"),
    ("preset.configmap_secret", "Configuration from a ConfigMap and a Secret: edit it, the file changes, the env does not", "컨피그맵과 시크릿으로 설정: 고치면 파일은 바뀌고 환경 변수는 그대로"),
    ("preset.crash_loop", "Crash loop: a container that exits with code 1", "크래시 루프: 종료 코드 1로 끝나는 컨테이너"),
    ("preset.crd", "CronTab: a CRD, a custom resource and its printer columns — and nothing happens, as no controller watches it", "CronTab: CRD와 커스텀 리소스, 프린터 컬럼 — 그리고 아무 일도 일어나지 않음 (지켜보는 컨트롤러가 없으니까)"),
    ("preset.crd_operator", "The same idea with a controller: an operator turns each Website into a Deployment and a Service", "같은 아이디어에 컨트롤러를 더하면: 오퍼레이터가 Website마다 디플로이먼트와 서비스를 만듭니다"),
    ("preset.cronjob", "A CronJob every minute", "매분 실행되는 크론잡"),
    ("preset.daemonset", "A DaemonSet lands on every node, and on a new one", "데몬셋이 모든 노드에, 새 노드에도 파드를 띄움"),
    ("preset.hpa", "Load makes an HPA scale out, then back in after the stabilization window", "부하로 HPA가 스케일 아웃하고, 안정화 기간 뒤 다시 스케일 인"),
    ("preset.ingress", "An Ingress routes two paths to two Services (ingress-nginx)", "Ingress가 두 경로를 두 서비스로 보냄 (ingress-nginx)"),
    ("preset.init_waits", "Init container waits for a Service", "서비스를 기다리는 init 컨테이너"),
    ("preset.job", "Jobs: three completions two at a time, and one past its backoffLimit", "잡: 두 개씩 세 번 완료, 그리고 backoffLimit을 넘기는 잡"),
    ("preset.job_retries", "A Job that fails twice, then succeeds", "두 번 실패한 뒤 성공하는 잡"),
    ("preset.liveness", "Liveness probe restarts a hung app", "liveness 프로브가 멈춘 앱을 재시작"),
    ("preset.net_expose", "Network: expose nginx and curl it", "네트워크: nginx를 노출하고 curl로 요청"),
    ("preset.net_nodeport", "Network: NodePort from outside", "네트워크: 클러스터 밖에서 NodePort로"),
    ("preset.net_readiness", "Network: readiness gates endpoints in a rollout", "네트워크: 롤아웃 중 readiness가 엔드포인트를 결정"),
    ("preset.net_selector_typo", "Network: Service selector typo (no endpoints)", "네트워크: 서비스 셀렉터 오타 (엔드포인트 없음)"),
    ("preset.netpol", "A NetworkPolicy denies by default, then allows one client", "NetworkPolicy가 기본 거부 후 클라이언트 하나만 허용"),
    ("preset.no_node", "nodeSelector that matches no node", "어떤 노드와도 맞지 않는 nodeSelector"),
    ("preset.partition", "Network partition: a node cut off from the control plane, then healed", "네트워크 분단: 컨트롤 플레인과 끊긴 노드, 그리고 복구"),
    ("preset.pdb_drain", "Drain a node under a PodDisruptionBudget", "PodDisruptionBudget가 있는 노드 드레인"),
    ("preset.rbac_read_only", "RBAC: a user who may only read — a 403 with its reason, then a RoleBinding", "RBAC: 읽기만 하는 사용자 — 이유가 담긴 403, 그다음 롤바인딩"),
    ("preset.readiness", "Readiness probe holds a rollout", "readiness 프로브가 롤아웃을 붙잡음"),
    ("preset.rolling_update", "Rolling update nginx 1.14 → 1.25", "롤링 업데이트: nginx 1.14 → 1.25"),
    ("preset.rollout_undo", "A bad release and rollout undo", "잘못된 릴리스와 rollout undo"),
    ("preset.script", "Script: apply, scale down, delete", "스크립트: 적용, 스케일 다운, 삭제"),
    ("preset.seed", "Seed post: nginx Deployment, 3 replicas", "블로그 예제: nginx 디플로이먼트 (레플리카 3개)"),
    ("preset.statefulset", "A StatefulSet comes up in order, with its volumes", "스테이트풀셋이 순서대로, 볼륨과 함께 뜸"),
    ("preset.storage_class_missing", "The docs' StatefulSet with a StorageClass the cluster lacks", "문서의 스테이트풀셋: 클러스터에 없는 스토리지클래스"),
    ("preset.too_big", "More replicas than fit (4 × 3 CPU)", "노드에 다 들어가지 않는 레플리카 (4 × CPU 3)"),
    ("reset.confirm", "Reset starts a fresh cluster: the timeline of {n} steps is dropped. Continue?", "초기화하면 새 클러스터로 시작합니다: {n}단계의 타임라인이 사라집니다. 계속할까요?"),
    ("rollout.bar", "desired {d}, created {c}, ready {r}, available {a}", "원하는 수 {d}, 생성 {c}, 준비 {r}, 사용 가능 {a}"),
    ("rollout.counts", "desired {d} · current {c} · ready {r} · available {a}", "원하는 수 {d} · 현재 {c} · 준비 {r} · 사용 가능 {a}"),
    ("rollout.empty", "No Deployment yet. Apply one, or load the preset \"Rolling update nginx 1.14 → 1.25\".", "아직 디플로이먼트가 없습니다. 하나를 적용하거나 \"롤링 업데이트: nginx 1.14 → 1.25\" 예제를 불러오세요."),
    ("rollout.hpa", "{name} scales {target} between {min} and {max} replicas: CPU {util} of requests (target {goal}), {replicas} replicas now; {n} status writes so far.", "{name}가 {target}를 레플리카 {min}~{max}개 사이에서 조정합니다: 요청 대비 CPU {util} (목표 {goal}), 지금 레플리카 {replicas}개; 지금까지 상태 기록 {n}번."),
    ("rollout.hpa.chart", "The HPA's CPU utilization, its target and the replica counts over virtual time", "HPA의 CPU 사용률, 목표, 레플리카 수의 가상 시간에 따른 변화"),
    ("rollout.hpa.l.desired", "desired replicas", "원하는 레플리카"),
    ("rollout.hpa.l.replicas", "current replicas", "현재 레플리카"),
    ("rollout.hpa.l.target", "target utilization", "목표 사용률"),
    ("rollout.hpa.l.util", "CPU utilization", "CPU 사용률"),
    ("rollout.l.avail", "available", "사용 가능"),
    ("rollout.l.created", "created, not ready", "생성됨, 준비 전"),
    ("rollout.l.missing", "wanted, not created yet", "원하지만 아직 생성 전"),
    ("rollout.l.ready", "ready, not yet available (minReadySeconds)", "준비됨, 아직 사용 가능 전 (minReadySeconds)"),
    ("rollout.max", "maximum Pods (replicas + maxSurge)", "최대 파드 수 (replicas + maxSurge)"),
    ("rollout.min", "minimum available (replicas − maxUnavailable)", "최소 사용 가능 수 (replicas − maxUnavailable)"),
    ("rollout.new", "new", "새 레플리카셋"),
    ("rollout.paused", "paused", "일시 중지됨"),
    ("rollout.recreate", "Recreate: every old Pod stops before the new ReplicaSet scales up.", "Recreate: 이전 파드가 모두 멈춘 뒤에 새 레플리카셋이 늘어납니다."),
    ("rollout.rev", "revision {rev}", "리비전 {rev}"),
    ("rollout.total", "all ReplicaSets", "전체 레플리카셋"),
    ("rollout.totals", "{t} Pods (at most {max}) · {a} available (at least {min})", "파드 {t}개 (최대 {max}) · 사용 가능 {a}개 (최소 {min})"),
    ("rollout.window", "RollingUpdate, {n} replicas: maxSurge {surge} → {s} (rounded up), maxUnavailable {unavail} → {u} (rounded down). The controller keeps at most {max} Pods and at least {min} available.", "RollingUpdate, 레플리카 {n}개: maxSurge {surge} → {s}개(올림), maxUnavailable {unavail} → {u}개(내림). 컨트롤러는 파드를 최대 {max}개까지 두고, 사용 가능한 파드를 최소 {min}개 유지합니다."),
    ("sched.attempt", "Attempt at {t}: {result}", "{t} 시도: {result}"),
    ("sched.filtered", "filtered out", "제외됨"),
    ("sched.filters", "Filter plugins", "필터 플러그인"),
    ("sched.hint", "The scheduler filters out the nodes that cannot run the Pod, scores the rest (raw → normalized × weight), and binds the Pod to the best.", "스케줄러는 파드를 실행할 수 없는 노드를 걸러 내고, 나머지 노드에 점수(원점수 → 정규화 × 가중치)를 매겨 가장 좋은 노드에 파드를 바인딩합니다."),
    ("sched.node", "Node", "노드"),
    ("sched.nodewon", "{node} won with {total}, ahead of {runner} with {runner_total}: {margins}.", "{node}가 {total}점으로 {runner}({runner_total}점)를 앞섰습니다: {margins}."),
    ("sched.none", "No scheduling attempts for this Pod yet.", "이 파드에 대한 스케줄링 시도가 아직 없습니다."),
    ("sched.nopods", "No Pods have been scheduled yet.", "아직 스케줄링된 파드가 없습니다."),
    ("sched.only", "Only {node} passed the filters, so it was chosen without scoring.", "{node}만 필터를 통과해 점수 없이 선택되었습니다."),
    ("sched.pod", "Pod", "파드"),
    ("sched.scores", "Score plugins (raw → normalized × weight)", "점수 플러그인 (원점수 → 정규화 × 가중치)"),
    ("sched.tie", "{nodes} tied at {total}; selectHost drew {node} at random (from the seeded RNG).", "{nodes}가 {total}점으로 동점이라 selectHost가 {node}를 무작위로 골랐습니다 (시드로 정해진 난수)."),
    ("sched.total", "Total", "합계"),
    ("seed.confirm", "A new seed starts a new cluster: the timeline of {n} steps is dropped. Continue?", "새 시드는 새 클러스터로 시작합니다: {n}단계의 타임라인이 사라집니다. 계속할까요?"),
    ("seed.label", "Seed", "시드"),
    ("share.button", "Share", "공유"),
    ("share.copied", "Copied", "복사됨"),
    ("share.copy", "Copy", "복사"),
    ("share.hint", "Anyone opening this link gets exactly the same run (same seed, same commands), at this step.", "이 링크를 여는 사람은 누구나 정확히 같은 실행(같은 시드, 같은 명령)을 이 단계에서 보게 됩니다."),
    ("share.iframe", "Embed in a page", "페이지에 삽입"),
    ("share.link", "Link", "링크"),
    ("share.title", "Share this run", "이 실행 공유하기"),
    ("share.too_large", "This run is too large to share: its link would be {size}, over the {max} a link may carry. Shorten the editor's text, or reset the cluster and run less.", "이 실행은 공유하기에 너무 큽니다: 링크가 {size}로, 링크가 담을 수 있는 {max}를 넘습니다. 편집기 내용을 줄이거나, 클러스터를 초기화하고 더 적게 실행하세요."),
    ("sum.more", "{n} more", "외 {n}개"),
    ("sum.nopods", "No Pod is Running", "Running 상태인 파드가 없습니다"),
    ("sum.other", "not Running: {pods}", "Running이 아닌 파드: {pods}"),
    ("sum.pending", "Why Pods are Pending: the scheduler's last word was “{msg}”", "파드가 Pending인 이유: 스케줄러의 마지막 기록은 “{msg}”입니다"),
    ("sum.pending.jump", "Show that step", "그 단계로 가기"),
    ("sum.pod", "{n} Pod Running on {nodes}", "{nodes}에서 파드 {n}개가 Running"),
    ("sum.pods", "{n} Pods Running on {nodes}", "{nodes}에서 파드 {n}개가 Running"),
    ("sum.text", "The end: {pods} after {time} of cluster time; {messages} messages; {writes} etcd writes; {events} Events.", "끝: 클러스터 시간 {time} 뒤 {pods}; 메시지 {messages}개, etcd 쓰기 {writes}번, 이벤트 {events}개."),
    ("tab.audit", "Audit log", "감사 로그"),
    ("tab.etcd", "etcd", "etcd"),
    ("tab.events", "Events", "이벤트"),
    ("tab.network", "Network", "네트워크"),
    ("tab.objects", "Objects", "오브젝트"),
    ("tab.rollout", "Rollout", "롤아웃"),
    ("tab.scheduler", "Scheduler", "스케줄러"),
    ("ui.close", "Close", "닫기"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_complete() {
        for w in TABLE.windows(2) {
            assert!(w[0].0 < w[1].0, "table out of order or duplicate at {} / {}", w[0].0, w[1].0);
        }
        for (k, en, ko) in TABLE {
            assert!(!en.is_empty() && !ko.is_empty(), "{} lacks a translation", k);
            // the same placeholders in both languages
            let names = |s: &str| {
                let mut v: Vec<String> = s.split('{').skip(1).filter_map(|x| x.split_once('}')).map(|(n, _)| n.split('|').next().unwrap_or("").to_lowercase()).collect();
                v.sort();
                v.dedup();
                v
            };
            assert_eq!(names(en), names(ko), "placeholders differ for {}", k);
        }
    }

    /// Every `tr(…, "key")`/`t("key")` in the page's sources names a key of the table.
    #[test]
    fn every_used_key_exists() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/ui");
        let mut files = vec![];
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                for e2 in std::fs::read_dir(&p).unwrap() {
                    files.push(e2.unwrap().path());
                }
            } else {
                files.push(p);
            }
        }
        let mut checked = 0;
        for f in files {
            if f.extension().map(|x| x != "rs").unwrap_or(true) || f.ends_with("i18n.rs") {
                continue;
            }
            let src = std::fs::read_to_string(&f).unwrap();
            for marker in ["t(\"", "tr(lang, \"", "say(lang, \"", "tr(l, \""] {
                for (i, _) in src.match_indices(marker) {
                    let before = src[..i].chars().last().unwrap_or(' ');
                    if before.is_alphanumeric() || before == '_' {
                        continue;
                    }
                    let key = src[i + marker.len()..].split('"').next().unwrap();
                    if key.contains(' ') || key.is_empty() {
                        continue;
                    }
                    assert!(TABLE.iter().any(|(k, _, _)| *k == key), "{}: key {:?} is not in the table", f.display(), key);
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "only {} keys checked", checked);
    }

    #[test]
    fn particles_follow_the_final_consonant() {
        assert_eq!(fill("{x|을/를}", &[("x", "node-3".into())]), "node-3을");
        assert_eq!(fill("{x|을/를}", &[("x", "node-2".into())]), "node-2를");
        assert_eq!(fill("{x|이/가}", &[("x", "스케줄러".into())]), "스케줄러가");
        assert_eq!(fill("{x|이/가}", &[("x", "node-1 노드의 kubelet".into())]), "node-1 노드의 kubelet이");
        assert_eq!(fill("{x|이/가}", &[("x", "파드".into())]), "파드가");
        assert_eq!(fill("{x|은/는}", &[("x", "디플로이먼트 컨트롤러".into())]), "디플로이먼트 컨트롤러는");
        assert_eq!(fill("a {y} b", &[]), "a {y} b");
    }

    #[test]
    fn particles_for_latin_names_and_digits_table() {
        // (name, word, has a final consonant as read in Korean)
        let cases = [
            ("a loanword ending in -ment", "nginx-deployment", false),
            ("a hash ending in a digit read 칠", "cf4cd4db7", true),
            ("a hash ending in a digit read 사", "web-66d47686b4-ph4f4", false),
            ("a pod-hash suffix spelled out, h = 에이치", "web-66d47686b4-6jcph", false),
            ("a spelled suffix ending in n = 엔", "web-66d47686b4-2gdcn", true),
            ("nginx = 엔진엑스", "nginx", false),
            ("web = 웹", "web", true),
            ("app = 앱", "app", true),
            ("redis = 레디스", "redis", false),
            ("a vowel before t: kubelet = 쿠블릿", "kubelet", true),
            ("statefulset = 스테이트풀셋", "statefulset", true),
            ("network = 네트워크", "network", false),
            ("stack = 스택", "stack", true),
            ("service = 서비스", "service", false),
            ("node = 노드", "node-3 node", false),
            ("zone = 존", "zone", true),
            ("role = 롤", "role", true),
            ("server = 서버", "server", false),
            ("pvc spelled: 씨", "pvc", false),
            ("db spelled: 비", "db", false),
            ("ingress = 인그레스", "ingress", false),
            ("pending = 펜딩", "Pending", true),
            ("10 = 십", "10", true),
            ("Hangul final consonant", "파드", false),
            ("Hangul final consonant", "레플리카셋", true),
        ];
        for (name, word, want) in cases {
            assert_eq!(has_batchim(word), want, "{}: {}", name, word);
        }
        assert_eq!(fill("{x|은/는}", &[("x", "nginx-deployment".into())]), "nginx-deployment는");
        assert_eq!(fill("{x|은/는}", &[("x", "cf4cd4db7".into())]), "cf4cd4db7은");
    }

    #[test]
    fn browser_language() {
        assert_eq!(Lang::from_browser("ko-KR"), Lang::Ko);
        assert_eq!(Lang::from_browser("en-US"), Lang::En);
        assert_eq!(Lang::from_browser(""), Lang::En);
    }
}
