//! Go's `sort.Sort` (insertion sort up to 12 elements, else a stable merge sort) and
//! `strconv` helpers, for upstream orders that depend on them.

use super::*;

// ---------------------------------------------------------------------------
// Go-compatible sorting
// ---------------------------------------------------------------------------

/// Sorts like Go's `sort.Sort` with a `Less` function, without ever panicking (Rust's
/// `sort_by` may panic when a comparator is not a total order, and several upstream
/// `Less` functions are not). Up to 12 elements this is exactly Go's algorithm (an
/// insertion sort, so even inconsistent comparators give Go's result); longer slices
/// use a stable merge sort.
pub fn go_sort_by_less<T: Clone, F: Fn(&T, &T) -> bool>(v: &mut [T], less: F) {
    let n = v.len();
    if n <= 12 {
        for i in 1..n {
            let mut j = i;
            while j > 0 && less(&v[j], &v[j - 1]) {
                v.swap(j, j - 1);
                j -= 1;
            }
        }
        return;
    }
    let mut idx: Vec<usize> = (0..n).collect();
    let mut buf = idx.clone();
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut a, mut b, mut k) = (lo, mid, lo);
            while a < mid && b < hi {
                if less(&v[idx[b]], &v[idx[a]]) {
                    buf[k] = idx[b];
                    b += 1;
                } else {
                    buf[k] = idx[a];
                    a += 1;
                }
                k += 1;
            }
            while a < mid {
                buf[k] = idx[a];
                a += 1;
                k += 1;
            }
            while b < hi {
                buf[k] = idx[b];
                b += 1;
                k += 1;
            }
            lo += 2 * width;
        }
        std::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    let sorted: Vec<T> = idx.iter().map(|&i| v[i].clone()).collect();
    v.clone_from_slice(&sorted);
}

/// Sorts ReplicaSets with one of the comparators below through [`go_sort_by_less`]
/// (`Less(a, b)` is `cmp(a, b) == Less`). Use this rather than `slice::sort_by`:
/// [`replica_sets_by_revision`] is not a total order.
pub fn sort_replica_sets(rss: &mut [Value], cmp: fn(&Value, &Value) -> Ordering) {
    go_sort_by_less(rss, |a, b| cmp(a, b) == Ordering::Less);
}

pub(super) fn less_to_ordering(a: &Value, b: &Value, less: fn(&Value, &Value) -> bool) -> Ordering {
    if less(a, b) {
        Ordering::Less
    } else if less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

pub(super) fn by_creation_timestamp_less(a: &Value, b: &Value) -> bool {
    let (ta, tb) = (creation_ms(a), creation_ms(b));
    if ta == tb {
        return name_of(a) < name_of(b);
    }
    ta < tb
}

/// `controller.ReplicaSetsByCreationTimestamp`: oldest first, ties broken by name.
pub fn replica_sets_by_creation_timestamp(a: &Value, b: &Value) -> Ordering {
    less_to_ordering(a, b, by_creation_timestamp_less)
}

/// `controller.ReplicaSetsBySizeOlder`: bigger `spec.replicas` first, then older first
/// (then name). Used when proportional scaling removes replicas.
pub fn replica_sets_by_size_older(a: &Value, b: &Value) -> Ordering {
    less_to_ordering(a, b, |a, b| {
        let (ra, rb) = (spec_replicas(a), spec_replicas(b));
        if ra == rb {
            return by_creation_timestamp_less(a, b);
        }
        ra > rb
    })
}

/// `controller.ReplicaSetsBySizeNewer`: bigger `spec.replicas` first, then newer first
/// (then reverse name). Used when proportional scaling adds replicas.
pub fn replica_sets_by_size_newer(a: &Value, b: &Value) -> Ordering {
    less_to_ordering(a, b, |a, b| {
        let (ra, rb) = (spec_replicas(a), spec_replicas(b));
        if ra == rb {
            return by_creation_timestamp_less(b, a);
        }
        ra > rb
    })
}

/// `deploymentutil.ReplicaSetsByRevision`: lower revision first; if either revision
/// does not parse, or they are equal, by creation timestamp then name.
pub fn replica_sets_by_revision(a: &Value, b: &Value) -> Ordering {
    less_to_ordering(a, b, |a, b| match (revision(a), revision(b)) {
        (Ok(r1), Ok(r2)) if r1 != r2 => r1 < r2,
        _ => by_creation_timestamp_less(a, b),
    })
}
