//! The machine line of the report: what ran the numbers.

use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub os: String,
    pub rustc: String,
    /// SIMD levels the escaper and parsers can use here.
    pub simd: String,
    pub unix_time: u64,
}

impl Machine {
    pub fn detect() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map_or_else(|| std::env::consts::ARCH.to_string(), |s| s.trim().to_string());
        let os_release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
        let distro = os_release
            .lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map_or_else(|| std::env::consts::OS.to_string(), |s| s.trim_matches('"').to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let rustc = std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("--version")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: format!("{distro}, Linux {}", kernel.trim()),
            rustc,
            simd: simd_levels(),
            unix_time: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        }
    }
}

fn simd_levels() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let mut v = Vec::new();
        if std::is_x86_feature_detected!("avx2") {
            v.push("avx2");
        }
        if std::is_x86_feature_detected!("avx512bw") {
            v.push("avx512bw");
        }
        if std::is_x86_feature_detected!("pclmulqdq") {
            v.push("pclmulqdq");
        }
        v.join(" ")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::env::consts::ARCH.to_string()
    }
}
