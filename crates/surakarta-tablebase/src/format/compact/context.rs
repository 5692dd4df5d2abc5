//! Context models of format 2: a cheap function of a position that a
//! compact table's symbols are read through. A terminal symbol stands for
//! one value per context, so that within each context the frequent values
//! share the same few symbols and the symbol stream has long runs.
//!
//! The model `SafeSteps` counts the side to move's steps after which the
//! opponent has no capture (0, 1, 2, 3 or more) and whether the side to
//! move has a capture: in a position of the weaker side where every step
//! lets the opponent capture, the value is nearly always a loss in 2, so
//! the count separates the common values from the rare ones
//! (on 2v4 the count takes the value's
//! conditional entropy from 1.07 to 0.40 bits per exact slot).

use surakarta::{count_safe_steps, has_capture};
use surakarta_index::{Material, Sides};

/// How a compact table's terminal symbols map to values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContextModel {
    /// One context: a terminal symbol stands for one value byte.
    None,
    /// Eight contexts: `2 · min(safe steps, 3) + (has a capture)`.
    SafeSteps,
    /// Two contexts: whether the side to move has a capture.
    HasCapture,
}

impl ContextModel {
    /// The model the writer uses for a class: [`ContextModel::SafeSteps`]
    /// where the side to move has no more pieces than the other (it
    /// shrinks those tables 1.1–5.5×), [`ContextModel::HasCapture`] where
    /// it has more (its tables are small already; one capture test keeps
    /// the wins in 1 by a capture on one symbol, so probes rarely need to
    /// resolve a stored win).
    #[must_use]
    pub fn for_material(material: Material) -> ContextModel {
        if material.us() <= material.them() {
            ContextModel::SafeSteps
        } else {
            ContextModel::HasCapture
        }
    }

    /// The model's number in the file header (byte 65).
    #[must_use]
    pub const fn code(self) -> u8 {
        match self {
            ContextModel::None => 0,
            ContextModel::SafeSteps => 1,
            ContextModel::HasCapture => 2,
        }
    }

    /// The model with header number `code`, if there is one.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<ContextModel> {
        match code {
            0 => Some(ContextModel::None),
            1 => Some(ContextModel::SafeSteps),
            2 => Some(ContextModel::HasCapture),
            _ => None,
        }
    }

    /// The model's name: `none`, `safe-steps` or `has-capture`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ContextModel::None => "none",
            ContextModel::SafeSteps => "safe-steps",
            ContextModel::HasCapture => "has-capture",
        }
    }

    /// How many contexts the model tells apart.
    #[must_use]
    pub const fn contexts(self) -> usize {
        match self {
            ContextModel::None => 1,
            ContextModel::SafeSteps => 8,
            ContextModel::HasCapture => 2,
        }
    }

    /// The context of a position, below [`ContextModel::contexts`].
    #[inline]
    #[must_use]
    pub fn of(self, sides: Sides) -> usize {
        match self {
            ContextModel::None => 0,
            _ => self.of_with(sides, has_capture(sides.us, sides.them)),
        }
    }

    /// [`ContextModel::of`] for a position whose side to move has a capture
    /// or not (`has_capture`, known already).
    #[inline]
    #[must_use]
    pub(crate) fn of_with(self, sides: Sides, has_capture: bool) -> usize {
        match self {
            ContextModel::None => 0,
            // `2 · min(safe steps, 3) + (us has a capture)`, where a safe
            // step is a step of `us` after which `them` has no capture.
            ContextModel::SafeSteps => {
                2 * count_safe_steps(sides.us, sides.them, 3) as usize + usize::from(has_capture)
            }
            ContextModel::HasCapture => usize::from(has_capture),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta::random::{random_position, SplitMix};
    use surakarta::{capture_targets, Color, Position};

    #[test]
    fn codes_round_trip_and_contexts_are_in_range() {
        for model in [
            ContextModel::None,
            ContextModel::SafeSteps,
            ContextModel::HasCapture,
        ] {
            assert_eq!(ContextModel::from_code(model.code()), Some(model));
        }
        assert_eq!(ContextModel::from_code(3), None);
        let start = Position::default();
        let sides = Sides::of(&start);
        assert_eq!(ContextModel::None.of(sides), 0);
        // At the start nobody can capture, and every step is safe.
        assert_eq!(ContextModel::SafeSteps.of(sides), 6);
    }

    #[test]
    fn safe_steps_agree_with_a_recount_from_the_legal_moves() {
        let mut rng = SplitMix::new(7);
        for i in 0..3000 {
            let (black, white) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
            let turn = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let Ok(position) = random_position(&mut rng, black, white, turn) else {
                continue;
            };
            let sides = Sides::of(&position);
            let mut safe = 0;
            for m in position.legal_moves() {
                if m.is_capture() {
                    continue;
                }
                let us = sides.us.without(m.from()).with(m.to());
                if capture_targets(sides.them, us).is_empty() {
                    safe += 1;
                }
            }
            let has = position.legal_moves().into_iter().any(|m| m.is_capture());
            assert_eq!(
                ContextModel::SafeSteps.of(sides),
                2 * safe.min(3) + usize::from(has),
                "{position}"
            );
            assert_eq!(ContextModel::HasCapture.of(sides), usize::from(has));
        }
    }
}
