//! Probing: one class's [`Table`](table::Table) (in memory, read or
//! mapped), the [`Tablebase`](tablebase::Tablebase) of many classes with
//! its values, moves and lines, their values judged against a game's rule
//! set and history ([`GameValue`](game::GameValue)), a shared cache of
//! decoded values, and the timing of random probes.

pub(crate) mod cache;
pub(crate) mod game;
pub(crate) mod moves;
pub(crate) mod table;
pub(crate) mod tablebase;
pub(crate) mod timing;
