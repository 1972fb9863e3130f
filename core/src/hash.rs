//! FNV-1a, 64 bit (the `fnv` crate): the one hash behind every value that is stored or compared
//! across sessions — run ids (`export::run_id`), the vision cache's file fingerprint, Graph-RAG
//! cache keys, dataset fingerprints, the corpus and graph blob checksums, slab fingerprints — and
//! the hashed features of the offline embedder.
//!
//! Why FNV and not `std`'s `DefaultHasher`: these values are persisted, and std does not promise
//! SipHash's output across Rust releases. Why not a stronger hash: nothing here defends against an
//! adversary (store.rs keys file contents with SHA-256 where that matters). Changing the function
//! would silently orphan every cache entry and stored id, so the tests pin the published FNV-1a
//! test vectors.

use core::hash::Hasher;
use fnv::FnvHasher;

/// FNV-1a 64 of `bytes`.
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h = FnvHasher::default();
    h.write(bytes);
    h.finish()
}

/// FNV-1a 64 continued from the state `h` over `bytes`: `fnv64_more(fnv64(a), b) == fnv64(a ++ b)`.
pub fn fnv64_more(h: u64, bytes: &[u8]) -> u64 {
    let mut s = FnvHasher::with_key(h);
    s.write(bytes);
    s.finish()
}

/// `fnv64` as 16 lowercase hex digits (cache keys, fingerprints).
pub fn fnv64_hex(bytes: &[u8]) -> String {
    format!("{:016x}", fnv64(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_fnv1a_64_test_vectors() {
        assert_eq!(fnv64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(fnv64_hex(b"foobar"), "85944171f73967e8");
    }

    #[test]
    fn continuing_a_hash_equals_hashing_the_concatenation() {
        assert_eq!(fnv64_more(fnv64(b"foo"), b"bar"), fnv64(b"foobar"));
        assert_eq!(fnv64_more(fnv64_more(fnv64(b"q"), &[0]), b"toml"), fnv64(b"q\0toml"));
    }
}
