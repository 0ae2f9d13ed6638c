//! One stable sort for the crate, small in the page's WebAssembly.
//!
//! `slice::sort_by` is generic over the element and the comparison: every call site with its own
//! closure gets its own copy of the standard library's driftsort, about 4 KB of wasm each. With
//! some fifty call sites that was 8.6 % of the page's code. [`CompactSort`] sorts a permutation of
//! `u32` indices with one non-generic instance of the standard sort (the comparison reaches the
//! elements through a `dyn` call) and then moves the elements into place, so each call site costs
//! a small closure and a loop of swaps.
//!
//! The result is the standard library's: both sorts are stable, and a stable sort by a total
//! order has one result. The sorted slices are short (a listing, a node's pods), so the indirect
//! call per comparison costs nothing measurable.

use std::cmp::Ordering;

/// `sort`, `sort_by` and `sort_by_key` of the standard library, stable, with a small copy per
/// call site (see the module's doc).
pub trait CompactSort<T> {
    fn csort_by<F: FnMut(&T, &T) -> Ordering>(&mut self, cmp: F);
    fn csort_by_key<K: Ord, F: FnMut(&T) -> K>(&mut self, mut key: F) {
        self.csort_by(|a, b| key(a).cmp(&key(b)));
    }
    fn csort(&mut self)
    where
        T: Ord,
    {
        self.csort_by(T::cmp);
    }
}

impl<T> CompactSort<T> for [T] {
    fn csort_by<F: FnMut(&T, &T) -> Ordering>(&mut self, mut cmp: F) {
        let n = self.len();
        if n < 2 {
            return;
        }
        // a slice longer than u32::MAX elements is not something the simulator holds
        let mut perm: Vec<u32> = (0..n as u32).collect();
        {
            let v: &[T] = self;
            sort_indices(&mut perm, &mut |a, b| cmp(&v[a as usize], &v[b as usize]));
        }
        permute(self, &mut perm);
    }
}

/// The one instance of the standard library's stable sort.
#[inline(never)]
fn sort_indices(perm: &mut [u32], cmp: &mut dyn FnMut(u32, u32) -> Ordering) {
    perm.sort_by(|a, b| cmp(*a, *b));
}

/// Puts `v[perm[i]]` at `i` for every `i`, cycle by cycle with swaps (`perm` is used up).
fn permute<T>(v: &mut [T], perm: &mut [u32]) {
    for i in 0..v.len() {
        let mut j = i;
        loop {
            let k = perm[j] as usize;
            perm[j] = j as u32;
            if k == i {
                break;
            }
            v.swap(j, k);
            j = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_library_does() {
        let mut rng = super::super::Rng::new(7);
        for n in [0usize, 1, 2, 3, 5, 17, 64, 300] {
            // few distinct keys, so stability shows
            let items: Vec<(u64, usize)> = (0..n).map(|i| (rng.below(5), i)).collect();
            let mut a = items.clone();
            let mut b = items.clone();
            a.sort_by_key(|x| x.0);
            b.csort_by_key(|x| x.0);
            assert_eq!(a, b, "n = {}", n);
            let mut a = items.clone();
            let mut b = items.clone();
            a.sort_by(|x, y| y.0.cmp(&x.0));
            b.csort_by(|x, y| y.0.cmp(&x.0));
            assert_eq!(a, b, "n = {} (reversed)", n);
            let mut a: Vec<String> = items.iter().map(|x| format!("{}-{}", x.0, x.1 % 3)).collect();
            let mut b = a.clone();
            a.sort();
            b.csort();
            assert_eq!(a, b);
        }
    }
}
