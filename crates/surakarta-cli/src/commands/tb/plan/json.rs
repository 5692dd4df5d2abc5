//! `tb plan --format json`: the plan as one JSON object, with the model's
//! constants, the totals (all and by piece count) and the critical path.

use super::{join, model_mib, Requests};
use serde_json::json;
use surakarta_tablebase::plan::{self, Plan, Totals};

/// A plan's totals as a JSON object, for other fields to be added to.
fn totals_json(t: &Totals) -> serde_json::Value {
    json!({
        "pairs": t.pairs,
        "positions": t.positions,
        "disk_bytes": t.disk_bytes,
        "seconds_estimate": t.seconds,
        "max_memory_bytes": t.max_memory_bytes,
    })
}

/// The plan as JSON: `dir` and `binary` as given, each pair's outputs in
/// `dir`, its requests capped as `requests` says.
pub(super) fn plan_json(
    plan: &Plan,
    dir: &str,
    binary: &str,
    requests: &Requests,
) -> serde_json::Value {
    let pairs: Vec<_> = plan
        .pairs
        .iter()
        .map(|p| {
            let outputs: Vec<String> = p.outputs.iter().map(|f| join(dir, f)).collect();
            json!({
                "name": p.pair.to_string(),
                "pieces": p.pair.pieces(),
                "classes": p.classes.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "class_positions": p.slots,
                "positions": p.positions(),
                "depends_on": p.depends_on.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
                "memory_bytes": p.memory_bytes,
                "memory_model_mib": model_mib(p),
                "memory_request_mib": requests.memory_mib(p),
                "disk_bytes": p.disk_bytes,
                "mapped": p.mapped,
                "work_bytes": p.work_bytes,
                "windows": p.windows,
                "seconds_estimate": p.seconds,
                "time_limit_minutes": requests.minutes(p),
                "jobs": requests.jobs(p),
                "outputs": outputs,
            })
        })
        .collect();
    let by_pieces: Vec<_> = (2..=plan.pieces)
        .map(|n| {
            let mut t = totals_json(&plan.totals(Some(n)));
            t["pieces"] = json!(n);
            t
        })
        .collect();
    json!({
        "pieces": plan.pieces,
        "index": plan.settings.scheme.to_string(),
        "table_format": plan.settings.format,
        "threads": plan.settings.threads,
        "dir": dir,
        "binary": binary,
        "requests": {
            "max_mem_mib": requests.max_mem_mib,
            "max_minutes": requests.max_minutes,
            "partition": requests.partition,
            "account": requests.account,
            "qos": requests.qos,
            "sbatch_options": requests.sbatch_options,
        },
        "model": {
            "generation_positions_per_thread_second": plan::GENERATION_RATE,
            "compaction_positions_per_thread_second": plan::COMPACTION_RATE,
            "format2_strong_bytes_per_position": plan::FORMAT2_STRONG_BYTES_PER_SLOT,
            "format2_weak_bytes_per_position": plan::FORMAT2_WEAK_BYTES_PER_SLOT,
            "compaction_bytes_per_position": plan::COMPACTION_BYTES_PER_SLOT,
            "streaming_compaction_above_positions": surakarta_tablebase::STREAMING_ABOVE,
            "streaming_compaction_bytes_per_position": plan::STREAMING_BYTES_PER_SLOT,
            "streaming_compaction_sample_bytes": plan::STREAMING_SAMPLE_BYTES,
            "memory_margin": plan::MEMORY_MARGIN,
            "time_margin": plan::TIME_MARGIN,
        },
        "totals": totals_json(&plan.totals(None)),
        "critical_path_seconds": plan.critical_path_seconds(),
        "by_pieces": by_pieces,
        "pairs": pairs,
    })
}
