//! A progress bar on stderr for large inputs.
//!
//! Shown only when stderr is a terminal (never in pipelines, logs or tests)
//! and only once the input is known to exceed 64 MiB: from the file size when
//! there is one, otherwise (a pipe) as soon as that much has been read. Small
//! inputs finish before a bar would be worth looking at.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use indicatif::{ProgressBar, ProgressStyle};

const THRESHOLD: u64 = 64 << 20;

/// A cheap, cloneable handle: the reader advances it, whoever prints to
/// stderr meanwhile goes through [`Progress::suspend`] so lines do not get
/// mixed into the bar.
#[derive(Clone)]
pub struct Progress(Arc<Inner>);

struct Inner {
    enabled: bool,
    total: Option<u64>,
    seen: AtomicU64,
    bar: OnceLock<ProgressBar>,
}

impl Progress {
    /// A handle for an input of `total` bytes (None: unknown, e.g. a pipe).
    pub fn new(total: Option<u64>) -> Progress {
        use std::io::IsTerminal;
        Progress(Arc::new(Inner { enabled: std::io::stderr().is_terminal(), total, seen: AtomicU64::new(0), bar: OnceLock::new() }))
    }

    /// Records `n` more bytes read.
    pub fn advance(&self, n: u64) {
        let inner = &*self.0;
        if !inner.enabled {
            return;
        }
        let seen = inner.seen.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(bar) = inner.bar.get() {
            bar.set_position(seen);
        } else if inner.total.unwrap_or(seen) > THRESHOLD {
            let bar = inner.bar.get_or_init(|| make_bar(inner.total));
            bar.set_position(seen);
        }
    }

    /// Runs `f` (which prints to stderr) with the bar hidden meanwhile.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match self.0.bar.get() {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar (before the final messages).
    pub fn finish(&self) {
        if let Some(bar) = self.0.bar.get() {
            bar.finish_and_clear();
        }
    }
}

fn make_bar(total: Option<u64>) -> ProgressBar {
    match total {
        Some(len) => {
            let bar = ProgressBar::new(len);
            // The template is a constant; should it ever fail to parse, the
            // default style is still a working bar.
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}") {
                bar.set_style(style);
            }
            bar
        }
        None => {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {bytes} read, {binary_bytes_per_sec}") {
                bar.set_style(style);
            }
            bar
        }
    }
}
