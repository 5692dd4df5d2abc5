//! The file system under a directory of tables, handled as hostile: table
//! files opened only when regular and never blocking, files of our own
//! written through fresh temporary files renamed into place, and advisory
//! locks so that two runs never write the same files.

pub(crate) mod atomic;
pub(crate) mod lock;
pub(crate) mod open;
