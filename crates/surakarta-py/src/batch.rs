//! Batch helpers for learning: many positions to NumPy arrays in one call,
//! with the GIL released while they are filled.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

/// Encodes positions as planes: an array of shape `(N, 2, 6, 6)` of
/// `uint8`, plane 0 the pieces of the side to move and plane 1 the other
/// side's, indexed `[n, plane, rank, file]` with rank 0 = rank 1 and file
/// 0 = file a (so `reshape(N, 2, 36)[:, p, i]` is square index `i`).
#[pyfunction]
pub(crate) fn encode<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let list = crate::game::positions(positions, "positions")?;
    let n = list.len();
    let data = py.allow_threads(|| {
        let mut data = vec![0u8; n * 72];
        for (p, chunk) in list.iter().zip(data.chunks_exact_mut(72)) {
            for (plane, side) in [p.us(), p.them()].into_iter().enumerate() {
                for sq in side {
                    chunk[plane * 36 + sq.index()] = 1;
                }
            }
        }
        data
    });
    Ok(PyArray1::from_vec(py, data)
        .reshape([n, 2, 6, 6])?
        .into_any())
}

/// The legal moves of positions as masks: a `bool` array of shape
/// `(N, 36, 36)`, `[n, from, to]` true when the move from square index
/// `from` to `to` is legal (a move is known by its two squares: a capture
/// and a step never share them).
#[pyfunction]
pub(crate) fn legal_move_masks<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let list = crate::game::positions(positions, "positions")?;
    let n = list.len();
    let data = py.allow_threads(|| {
        let mut data = vec![false; n * 36 * 36];
        for (p, chunk) in list.iter().zip(data.chunks_exact_mut(36 * 36)) {
            for m in p.legal_moves() {
                chunk[m.from().index() * 36 + m.to().index()] = true;
            }
        }
        data
    });
    Ok(PyArray1::from_vec(py, data)
        .reshape([n, 36, 36])?
        .into_any())
}

/// The number of legal moves of each position: a `uint32` array of shape `(N,)`.
#[pyfunction]
pub(crate) fn legal_move_counts<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let list = crate::game::positions(positions, "positions")?;
    let counts: Vec<u32> = py.allow_threads(|| {
        list.iter()
            .map(|p| u32::try_from(p.count_moves()).unwrap_or(u32::MAX))
            .collect()
    });
    Ok(PyArray1::from_vec(py, counts).into_any())
}
