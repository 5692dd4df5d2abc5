//! Parallel search: [`Smp`] names the two schemes, parallel siblings (Young
//! Brothers Wait, FuChou's scheme) and Lazy SMP.

/// How a search uses more than one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Smp {
    /// Young Brothers Wait: after a node's first move, its other moves are
    /// searched in parallel, sharing a rising alpha.
    #[default]
    Siblings,
    /// Lazy SMP: helper threads run their own iterative deepening on the
    /// root (the odd-numbered ones starting a ply deeper, so that they are a
    /// ply ahead of the main thread) and share only the transposition table
    /// and move-ordering history; the main thread's result counts. Node
    /// counts and the node limit include the helpers' nodes.
    Lazy,
}

impl Smp {
    /// The name [`Smp::parse`] reads: `siblings` or `lazy`.
    pub const fn name(self) -> &'static str {
        match self {
            Smp::Siblings => "siblings",
            Smp::Lazy => "lazy",
        }
    }

    /// Reads `siblings` or `lazy`.
    pub fn parse(text: &str) -> Option<Smp> {
        match text {
            "siblings" | "ybw" => Some(Smp::Siblings),
            "lazy" => Some(Smp::Lazy),
            _ => None,
        }
    }
}
