//! Quantities as people read them, in messages and plans: bytes, seconds,
//! counts.

/// Bytes in binary units, for comments (`1.3 GiB`).
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::human_bytes;
///
/// assert_eq!(human_bytes(512), "512 B");
/// assert_eq!(human_bytes(3 << 29), "1.5 GiB");
/// ```
#[must_use]
pub fn human_bytes(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// Seconds in a readable unit, for comments (`45 s`, `3.2 h`).
#[must_use]
pub fn human_seconds(seconds: f64) -> String {
    if seconds < 1.0 {
        "<1 s".to_string()
    } else if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.1} min", seconds / 60.0)
    } else if seconds < 172_800.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}

/// A count with thousands separators (`73,054,320`).
#[must_use]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_units() {
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(12), "12 B");
        assert_eq!(thousands(73_054_320), "73,054,320");
        assert_eq!(thousands(186), "186");
        assert_eq!(human_seconds(0.2), "<1 s");
        assert_eq!(human_seconds(7300.0), "2.0 h");
    }
}
