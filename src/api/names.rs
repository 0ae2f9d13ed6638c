//! Generated names.
//!
//! Real counterparts: `staging/src/k8s.io/apiserver/pkg/storage/names/generate.go`
//! (`SimpleNameGenerator`) and `staging/src/k8s.io/apimachinery/pkg/util/rand/rand.go`
//! (`String`, `SafeEncodeString`). Upstream draws from Go's math/rand; kubesim draws from the
//! simulation's seeded RNG, so the same seed gives the same names.

use crate::sim::Rng;

/// The 27 characters Kubernetes uses for random suffixes and hashes: no vowels (so no words), no
/// `0`, `1`, `3` (easily confused or "leet" letters).
pub const ALPHANUMS: &str = "bcdfghjklmnpqrstvwxz2456789";

/// `maxNameLength - randomLength` = 63 - 5.
pub const MAX_GENERATED_NAME_LENGTH: usize = 58;

/// `utilrand.String(n)`: n characters drawn uniformly from [`ALPHANUMS`].
pub fn random_string(rng: &mut Rng, n: usize) -> String {
    let chars: Vec<char> = ALPHANUMS.chars().collect();
    (0..n).map(|_| chars[rng.below(chars.len() as u64) as usize]).collect()
}

/// `SimpleNameGenerator.GenerateName(base)`: truncate the base to 58 characters, append 5 random ones.
pub fn generate_name(rng: &mut Rng, base: &str) -> String {
    let base: String = base.chars().take(MAX_GENERATED_NAME_LENGTH).collect();
    format!("{}{}", base, random_string(rng, 5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_use_the_upstream_alphabet() {
        let mut rng = Rng::new(42);
        let n = generate_name(&mut rng, "nginx-deployment-7c79c4bf97-");
        assert_eq!(n.len(), "nginx-deployment-7c79c4bf97-".len() + 5);
        assert!(n[n.len() - 5..].chars().all(|c| ALPHANUMS.contains(c)));
        let long = "a".repeat(80);
        assert_eq!(generate_name(&mut rng, &long).len(), 63);
    }
}
