//! A small deterministic generator (xorshift64*), so every input is the same
//! on every machine and in the Go module's copy (which reads the generated
//! files rather than porting this).

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Zero is xorshift's fixed point.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (the modulo bias is irrelevant for test data).
    pub fn below(&mut self, n: u64) -> u64 {
        (self.next_u64() >> 11) % n
    }

    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Lowercase letters and digits.
    pub fn word(&mut self, len: usize) -> String {
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        (0..len).map(|_| char::from(ALPHABET[self.below(ALPHABET.len() as u64) as usize])).collect()
    }

    /// Lowercase hex, e.g. for digests.
    pub fn hex(&mut self, len: usize) -> String {
        (0..len).map(|_| char::from(b"0123456789abcdef"[self.below(16) as usize])).collect()
    }

    /// Words separated by spaces, about `len` bytes.
    pub fn sentence(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len + 8);
        while s.len() < len {
            if !s.is_empty() {
                s.push(' ');
            }
            let n = self.range(2, 9) as usize;
            s.push_str(&self.word(n));
        }
        s
    }

    /// A sentence of a length drawn from `lo..=hi`.
    pub fn sentence_between(&mut self, lo: u64, hi: u64) -> String {
        let len = self.range(lo, hi) as usize;
        self.sentence(len)
    }

    /// A price-like float with two decimals.
    pub fn money(&mut self, max_cents: u64) -> f64 {
        self.range(1, max_cents) as f64 / 100.0
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}
