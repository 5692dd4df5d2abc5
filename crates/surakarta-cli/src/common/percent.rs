//! Shares printed as percentages.

/// `part` as a percentage of `whole` (0 when `whole` is 0).
pub(crate) fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}
