//! Go's `sort.Sort` (pattern-defeating quicksort, `src/sort/zsortinterface.go` and `sort.go`
//! since Go 1.19; kubectl v1.34 is built with Go 1.24), step for step.
//!
//! kubectl sorts with `sort.Sort`, which is not stable: rows whose keys tie (Events created in
//! the same second under `--sort-by=.metadata.creationTimestamp`, `kubectl events` rows with
//! one timestamp) come out in the order Go's algorithm leaves them, not in list order. To print
//! the same order as kubectl, kubesim runs the same algorithm: the same pivots, the same swaps,
//! the same xorshift when it breaks patterns. Written from the algorithm's description; Rust's
//! own sorts would order ties differently.

/// Sorts `v` as Go's `sort.Sort` does with `Less(i, j) = less(&v[i], &v[j])`.
pub fn sort<T>(v: &mut [T], less: &dyn Fn(&T, &T) -> bool) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    let limit = bits_len(n);
    let mut d = Data { v, less };
    pdqsort(&mut d, 0, n, limit);
}

struct Data<'a, T> {
    v: &'a mut [T],
    less: &'a dyn Fn(&T, &T) -> bool,
}

impl<T> Data<'_, T> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.v[i], &self.v[j])
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.v.swap(i, j);
    }
}

/// `bits.Len`: the number of bits needed to represent `x`.
fn bits_len(x: usize) -> usize {
    (usize::BITS - x.leading_zeros()) as usize
}

#[derive(PartialEq, Clone, Copy)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

fn insertion_sort<T>(d: &mut Data<T>, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && d.less(j, j - 1) {
            d.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down<T>(d: &mut Data<T>, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && d.less(first + child, first + child + 1) {
            child += 1;
        }
        if !d.less(first + root, first + child) {
            return;
        }
        d.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort<T>(d: &mut Data<T>, a: usize, b: usize) {
    let (first, lo, hi) = (a, 0, b - a);
    let mut i = (hi as isize - 1) / 2;
    while i >= 0 {
        sift_down(d, i as usize, hi, first);
        i -= 1;
    }
    let mut i = hi as isize - 1;
    while i >= 0 {
        d.swap(first, first + i as usize);
        sift_down(d, lo, i as usize, first);
        i -= 1;
    }
}

fn pdqsort<T>(d: &mut Data<T>, mut a: usize, mut b: usize, mut limit: usize) {
    const MAX_INSERTION: usize = 12;
    let (mut was_balanced, mut was_partitioned) = (true, true);
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(d, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(d, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(d, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(d, a, b);
        if hint == Hint::Decreasing {
            reverse_range(d, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced && was_partitioned && hint == Hint::Increasing && partial_insertion_sort(d, a, b) {
            return;
        }
        if a > 0 && !d.less(a - 1, pivot) {
            a = partition_equal(d, a, b, pivot);
            continue;
        }
        let (mid, already) = partition(d, a, b, pivot);
        was_partitioned = already;
        let (left, right) = (mid - a, b - mid);
        let balance_threshold = length / 8;
        if left < right {
            was_balanced = left >= balance_threshold;
            pdqsort(d, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= balance_threshold;
            pdqsort(d, mid + 1, b, limit);
            b = mid;
        }
    }
}

/// Indexes are signed here because `j` may step below `a` before the loops stop.
fn partition<T>(d: &mut Data<T>, a: usize, b: usize, pivot: usize) -> (usize, bool) {
    d.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    while i <= j && d.less(i as usize, a) {
        i += 1;
    }
    while i <= j && !d.less(j as usize, a) {
        j -= 1;
    }
    if i > j {
        d.swap(j as usize, a);
        return (j as usize, true);
    }
    d.swap(i as usize, j as usize);
    i += 1;
    j -= 1;
    loop {
        while i <= j && d.less(i as usize, a) {
            i += 1;
        }
        while i <= j && !d.less(j as usize, a) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    d.swap(j as usize, a);
    (j as usize, false)
}

fn partition_equal<T>(d: &mut Data<T>, a: usize, b: usize, pivot: usize) -> usize {
    d.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    loop {
        while i <= j && !d.less(a, i as usize) {
            i += 1;
        }
        while i <= j && d.less(a, j as usize) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
    }
    i as usize
}

fn partial_insertion_sort<T>(d: &mut Data<T>, a: usize, b: usize) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !d.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        d.swap(i, i - 1);
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
                j -= 1;
            }
        }
        if b - i >= 2 {
            for j in i + 1..b {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
            }
        }
    }
    false
}

fn break_patterns<T>(d: &mut Data<T>, a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = length as u64;
        let modulus = 1usize << bits_len(length);
        let mut idx = a + (length / 4) * 2 - 1;
        while idx <= a + (length / 4) * 2 + 1 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            d.swap(idx, a + other);
            idx += 1;
        }
    }
}

fn choose_pivot<T>(d: &mut Data<T>, a: usize, b: usize) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let (mut i, mut j, mut k) = (a + l / 4, a + l / 4 * 2, a + l / 4 * 3);
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(d, i - 1, i, i + 1, &mut swaps);
            j = median(d, j - 1, j, j + 1, &mut swaps);
            k = median(d, k - 1, k, k + 1, &mut swaps);
        }
        j = median(d, i, j, k, &mut swaps);
    }
    match swaps {
        0 => (j, Hint::Increasing),
        MAX_SWAPS => (j, Hint::Decreasing),
        _ => (j, Hint::Unknown),
    }
}

fn order2<T>(d: &Data<T>, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
    if d.less(b, a) {
        *swaps += 1;
        return (b, a);
    }
    (a, b)
}

fn median<T>(d: &Data<T>, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
    let (a, b) = order2(d, a, b, swaps);
    let (b, _) = order2(d, b, c, swaps);
    let (_, b) = order2(d, a, b, swaps);
    b
}

fn reverse_range<T>(d: &mut Data<T>, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        d.swap(i, j);
        i += 1;
        j -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (key, original index): ties show where Go's sort leaves equal keys.
    fn sorted(keys: &[u32]) -> Vec<(u32, usize)> {
        let mut v: Vec<(u32, usize)> = keys.iter().copied().zip(0..).collect();
        sort(&mut v, &|a, b| a.0 < b.0);
        v
    }

    #[test]
    fn sorts_like_go() {
        // up to 12 elements Go uses insertion sort, which keeps ties in order
        assert_eq!(sorted(&[2, 1, 2, 1]), vec![(1, 1), (1, 3), (2, 0), (2, 2)]);
        // longer inputs are sorted, whatever the pattern
        for n in [13usize, 49, 50, 51, 200, 1000] {
            for pattern in 0..4u32 {
                let keys: Vec<u32> = (0..n as u32)
                    .map(|i| match pattern {
                        0 => i % 3,
                        1 => n as u32 - i,
                        2 => (i * 7919) % 101,
                        _ => 5,
                    })
                    .collect();
                let out = sorted(&keys);
                assert!(out.windows(2).all(|w| w[0].0 <= w[1].0), "n={} pattern={}", n, pattern);
                let mut idx: Vec<usize> = out.iter().map(|x| x.1).collect();
                idx.sort();
                assert_eq!(idx, (0..n).collect::<Vec<_>>());
            }
        }
    }
}
