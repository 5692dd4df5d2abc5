//! A side as Python writes it (reading one is `args::color`).

use surakarta::Color;

/// A side as Python sees it: `"black"` or `"white"`.
pub(crate) fn color_name(color: Color) -> &'static str {
    color.name()
}
