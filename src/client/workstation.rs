//! The learner's machine beside the cluster: the console's files and its local listeners.
//!
//! No upstream counterpart — this is what kubectl's host gives it: a working directory
//! (`/home/learner`) with the files a tutorial writes (`cat <<EOF > kustomization.yaml`), which
//! `kubectl apply -f FILE`, `kubectl kustomize DIR` and `kubectl cp` read and write, and the
//! loopback ports that `kubectl port-forward` and `kubectl proxy` listen on, which the console's
//! `curl localhost:PORT` connects to. What kubesim simplifies: one flat map of paths (directories
//! exist when a file is under them, or after `mkdir`), text files only, and every limit below.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// The working directory every relative path is under (and `~`).
pub const HOME: &str = "/home/learner";
/// Bound on files.
pub const MAX_FILES: usize = 512;
/// Bound on one file's size.
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// Bound on all files' size.
pub const MAX_TOTAL_BYTES: usize = 8 << 20;
/// Bound on background jobs (port-forwards and proxies).
pub const MAX_JOBS: usize = 16;

/// What a loopback listener forwards to.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// `kubectl port-forward`: a Pod's ports (local → remote), through kube-apiserver's
    /// `pods/portforward`.
    PortForward { namespace: String, pod: String, forwards: Vec<(u16, u16)> },
    /// `kubectl proxy`: kube-apiserver, with the kubeconfig's credentials.
    Proxy,
}

/// A background job of the console (`kubectl port-forward …`, `kubectl proxy`), with the
/// loopback ports it listens on.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    /// `%N` in `jobs` and `kill`.
    pub number: usize,
    /// The command line, as `jobs` prints it.
    pub command: String,
    pub ports: Vec<u16>,
    pub target: Target,
}

/// The console's machine: files, directories and background jobs.
#[derive(Clone, Debug, Default)]
pub struct Workstation {
    /// Shared: kubectl reads a snapshot of them for each command (a clone is one count); a
    /// write copies the map only while a snapshot is alive.
    files: Rc<BTreeMap<String, String>>,
    dirs: BTreeSet<String>,
    jobs: Vec<Job>,
}

/// `path` made absolute and clean (`./a/../b` → `/home/learner/b`, `~/x` → `/home/learner/x`).
pub fn clean(path: &str) -> String {
    let abs = if let Some(rest) = path.strip_prefix("~/") {
        format!("{}/{}", HOME, rest)
    } else if path == "~" {
        HOME.to_string()
    } else if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{}", HOME, path)
    };
    let mut parts: Vec<&str> = Vec::new();
    for p in abs.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `path` relative to `dir` (both clean), as kustomize joins a kustomization's entries.
pub fn join(dir: &str, path: &str) -> String {
    if path.starts_with('/') {
        clean(path)
    } else {
        clean(&format!("{}/{}", dir, path))
    }
}

impl Workstation {
    /// A file's text.
    pub fn read(&self, path: &str) -> Option<&str> {
        self.files.get(&clean(path)).map(|s| s.as_str())
    }

    /// Whether `path` is a directory: `~`, one made with `mkdir`, or one with files under it.
    pub fn is_dir(&self, path: &str) -> bool {
        let p = clean(path);
        if p == "/" || p == HOME || self.dirs.contains(&p) {
            return true;
        }
        let prefix = format!("{}/", p);
        self.files.range(prefix.clone()..).next().is_some_and(|(k, _)| k.starts_with(&prefix)) || self.dirs.iter().any(|d| d.starts_with(&prefix))
    }

    /// Writes a file (`cat > FILE`, `kubectl cp POD:… FILE`), within the limits.
    pub fn write(&mut self, path: &str, text: &str) -> Result<(), String> {
        let p = clean(path);
        if self.is_dir(&p) {
            return Err(format!("{}: Is a directory", path));
        }
        if text.len() > MAX_FILE_BYTES {
            return Err(format!("{}: File too large (kubesim's console keeps files up to {} bytes)", path, MAX_FILE_BYTES));
        }
        if !self.files.contains_key(&p) && self.files.len() >= MAX_FILES {
            return Err(format!("{}: No space left on device (kubesim's console keeps up to {} files)", path, MAX_FILES));
        }
        let total: usize = self.files.iter().filter(|(k, _)| **k != p).map(|(_, v)| v.len()).sum();
        if total + text.len() > MAX_TOTAL_BYTES {
            return Err(format!("{}: No space left on device (kubesim's console keeps up to {} bytes of files)", path, MAX_TOTAL_BYTES));
        }
        // the parent must exist, as the shell's open(2) requires
        let parent = p.rsplit_once('/').map(|(d, _)| d).unwrap_or("/");
        let parent = if parent.is_empty() { "/" } else { parent };
        if !self.is_dir(parent) {
            return Err(format!("{}: No such file or directory", path));
        }
        Rc::make_mut(&mut self.files).insert(p, text.to_string());
        Ok(())
    }

    /// `mkdir -p DIR`.
    pub fn mkdir(&mut self, path: &str) -> Result<(), String> {
        let p = clean(path);
        if self.files.contains_key(&p) {
            return Err(format!("cannot create directory '{}': File exists", path));
        }
        if self.dirs.len() >= MAX_FILES {
            return Err(format!("cannot create directory '{}': No space left on device (kubesim's console keeps up to {} directories)", path, MAX_FILES));
        }
        self.dirs.insert(p);
        Ok(())
    }

    /// `rm [-r] PATH`.
    pub fn remove(&mut self, path: &str, recursive: bool) -> Result<(), String> {
        let p = clean(path);
        if self.files.contains_key(&p) {
            Rc::make_mut(&mut self.files).remove(&p);
            return Ok(());
        }
        if self.is_dir(&p) {
            if !recursive {
                return Err(format!("cannot remove '{}': Is a directory", path));
            }
            let prefix = format!("{}/", p);
            Rc::make_mut(&mut self.files).retain(|k, _| !k.starts_with(&prefix));
            self.dirs.retain(|d| *d != p && !d.starts_with(&prefix));
            return Ok(());
        }
        Err(format!("cannot remove '{}': No such file or directory", path))
    }

    /// The entries directly under a directory: (name, is a directory), sorted.
    pub fn list(&self, path: &str) -> Option<Vec<(String, bool)>> {
        let p = clean(path);
        if !self.is_dir(&p) {
            return None;
        }
        let prefix = if p == "/" { "/".to_string() } else { format!("{}/", p) };
        let mut out: BTreeMap<String, bool> = BTreeMap::new();
        for k in self.files.keys().chain(self.dirs.iter()) {
            if let Some(rest) = k.strip_prefix(&prefix) {
                match rest.split_once('/') {
                    Some((d, _)) => {
                        out.insert(d.to_string(), true);
                    }
                    None if !rest.is_empty() => {
                        let is_dir = self.dirs.contains(k);
                        out.entry(rest.to_string()).or_insert(is_dir);
                    }
                    None => {}
                }
            }
        }
        Some(out.into_iter().collect())
    }

    /// The files and directories as JSON (`{"files": {path: text}, "dirs": [path]}`): what the
    /// page hands its second module for a kustomize build.
    pub fn export(&self) -> serde_json::Value {
        serde_json::json!({"files": *self.files, "dirs": self.dirs})
    }

    /// The files and directories [`Workstation::export`] gave (no jobs).
    pub fn import(v: &serde_json::Value) -> Workstation {
        let files = Rc::new(v.get("files").and_then(|f| f.as_object()).map(|m| m.iter().filter_map(|(k, v)| v.as_str().map(|t| (k.clone(), t.to_string()))).collect()).unwrap_or_default());
        let dirs = v.get("dirs").and_then(|d| d.as_array()).map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default();
        Workstation { files, dirs, jobs: Vec::new() }
    }

    /// The running background jobs.
    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The job listening on a loopback port.
    pub fn listener(&self, port: u16) -> Option<&Job> {
        self.jobs.iter().find(|j| j.ports.contains(&port))
    }

    /// Starts a background job; its number (`[N]`).
    pub fn start_job(&mut self, command: &str, ports: Vec<u16>, target: Target) -> Result<usize, String> {
        if self.jobs.len() >= MAX_JOBS {
            return Err(format!("kubesim's console runs up to {} background jobs; stop one with kill %N", MAX_JOBS));
        }
        let number = self.jobs.iter().map(|j| j.number).max().unwrap_or(0) + 1;
        self.jobs.push(Job { number, command: command.to_string(), ports, target });
        Ok(number)
    }

    /// Ends job `%N`; the job.
    pub fn kill(&mut self, number: usize) -> Option<Job> {
        let i = self.jobs.iter().position(|j| j.number == number)?;
        Some(self.jobs.remove(i))
    }

    /// The most recent job's number (`%%`, `%+`).
    pub fn current_job(&self) -> Option<usize> {
        self.jobs.last().map(|j| j.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_cleaned_against_home() {
        assert_eq!(clean("kustomization.yaml"), "/home/learner/kustomization.yaml");
        assert_eq!(clean("./base/../overlays/dev/"), "/home/learner/overlays/dev");
        assert_eq!(clean("~/x"), "/home/learner/x");
        assert_eq!(clean("/etc/hosts"), "/etc/hosts");
        assert_eq!(join("/home/learner/overlays/dev", "../../base"), "/home/learner/base");
    }

    #[test]
    fn files_need_their_directory_and_keep_limits() {
        let mut w = Workstation::default();
        assert_eq!(w.write("base/k.yaml", "x").unwrap_err(), "base/k.yaml: No such file or directory");
        w.mkdir("base").unwrap();
        w.write("base/k.yaml", "x").unwrap();
        assert_eq!(w.read("./base/k.yaml"), Some("x"));
        assert!(w.is_dir("base"));
        assert_eq!(w.list("."), Some(vec![("base".to_string(), true)]));
        assert_eq!(w.remove("base", false).unwrap_err(), "cannot remove 'base': Is a directory");
        w.remove("base", true).unwrap();
        assert!(w.read("base/k.yaml").is_none());
        assert!(w.write("big", &"x".repeat(MAX_FILE_BYTES + 1)).unwrap_err().contains("File too large"));
    }
}
