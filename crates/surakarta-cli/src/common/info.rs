//! The engine's report of a finished iteration as lines of text (one per
//! principal variation with MultiPV), and the warning for failed tablebase
//! probes.

use surakarta_search::{Info, SearchResult};

/// One iteration as a protocol-style line (without the `info` word), as
/// `search` prints it and the engine protocol sends it. The score of a
/// stopped iteration is followed by `lowerbound`.
pub(crate) fn info_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let bound = if info.partial { " lowerbound" } else { "" };
    format!(
        "depth {} seldepth {} score {}{bound} nodes {} nps {} time {} hashfull {} tbhits {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps,
        info.elapsed.as_millis(),
        info.hashfull,
        info.tb_hits,
        pv.join(" ")
    )
}

/// One iteration as protocol-style lines (without the `info` word) for a
/// search of `multipv` lines: with 1, the one line of [`info_line`]; with
/// more, one line per principal variation, best first, each with its rank
/// after `multipv` and its own depth, score and line (`depth D seldepth S
/// multipv I score …`, as UCI engines write them). The first line's score
/// of a stopped iteration is followed by `lowerbound`.
pub(crate) fn info_lines(info: &Info, multipv: usize) -> Vec<String> {
    if multipv <= 1 {
        return vec![info_line(info)];
    }
    info.lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let pv: Vec<String> = line.pv.iter().map(|m| m.to_string()).collect();
            let bound = if info.partial && i == 0 {
                " lowerbound"
            } else {
                ""
            };
            format!(
                "depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} time {} hashfull {} tbhits {} pv {}",
                line.depth,
                info.seldepth,
                i + 1,
                line.score,
                info.nodes,
                info.nps,
                info.elapsed.as_millis(),
                info.hashfull,
                info.tb_hits,
                pv.join(" ")
            )
        })
        .collect()
}

/// The warning for a search whose tablebase probes failed: how many, the
/// first one's message and what to do; `None` if none failed. `search`
/// prints it on stderr, `play` on stdout, the engine protocol as an `info
/// string`.
pub(crate) fn tb_warning(result: &SearchResult) -> Option<String> {
    (result.tb_errors > 0).then(|| {
        let first = result.first_tb_error.as_deref().unwrap_or("no message");
        let probes = if result.tb_errors == 1 { "probe" } else { "probes" };
        format!(
            "{} tablebase {probes} failed, the search went on without them (run surakarta tb verify); the first: {first}",
            result.tb_errors
        )
    })
}
