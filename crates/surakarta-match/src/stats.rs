//! Match statistics: the tally, the Elo difference with its 95% interval,
//! and the sequential probability ratio test that can stop a match early.

use surakarta::Color;

/// Wins, draws and losses from the first player's point of view.
///
/// # Examples
///
/// ```
/// use surakarta::Color;
/// use surakarta_match::Tally;
///
/// let mut tally = Tally::default();
/// tally.add(Color::Black, Some(Color::Black)); // the first player, as Black, won
/// tally.add(Color::White, Some(Color::Black)); // as White, lost
/// tally.add(Color::White, None); // a draw
/// assert_eq!((tally.wins, tally.draws, tally.losses), (1, 1, 1));
/// assert_eq!(tally.games(), 3);
/// assert_eq!(tally.score(), 0.5);
/// assert_eq!(tally.elo().unwrap().diff, 0.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

/// An Elo difference and its 95% confidence interval. Infinite when the
/// score (or a bound) is 0 or 1.
///
/// # Examples
///
/// ```
/// use surakarta_match::Tally;
///
/// let tally = Tally { wins: 60, draws: 20, losses: 20 };
/// let elo = tally.elo().unwrap();
/// assert!(elo.low < elo.diff && elo.diff < elo.high);
/// assert_eq!(elo.diff.round(), 147.0); // a score of 70%
/// assert!(elo.low > 0.0); // stronger, with 95% confidence
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub diff: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// The Elo difference that gives an expected score `score` (logistic
/// model).
///
/// # Examples
///
/// ```
/// use surakarta_match::stats::{elo_from_score, score_from_elo};
///
/// assert_eq!(elo_from_score(0.5), 0.0);
/// assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
/// assert!((score_from_elo(elo_from_score(0.64)) - 0.64).abs() < 1e-12);
/// ```
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    // `+ 0.0` turns the −0 of an even score into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of a player `elo` points stronger (logistic model).
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score fraction (wins plus half the draws); 0.5
    /// with no games.
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// Adds a game the first player played as `first` that `winner` won
    /// (`None`: a draw).
    pub fn add(&mut self, first: Color, winner: Option<Color>) {
        match winner {
            None => self.draws += 1,
            Some(w) if w == first => self.wins += 1,
            Some(_) => self.losses += 1,
        }
    }

    /// The mean game score and the variance of one game's score (see
    /// [`mean_and_variance`]); `None` with no games.
    fn scores(&self) -> Option<(f64, f64)> {
        mean_and_variance(&[self.wins, self.draws, self.losses], &[1.0, 0.5, 0.0])
    }

    /// The Elo difference of the first player over the second, with a 95%
    /// interval from the normal approximation of the mean score (the
    /// variance smoothed, so two draws do not claim certainty); `None` with
    /// no games.
    #[must_use]
    pub fn elo(&self) -> Option<Elo> {
        let (mean, variance) = self.scores()?;
        Some(elo_interval(mean, variance, self.games()))
    }
}

/// Results of colour-swapped game pairs from the first player's side:
/// `counts[k]` pairs scored `k` half-points out of 4 (0: lost both, 2: e.g.
/// won one and lost one, 4: won both). Pairs from one opening are
/// correlated (a lopsided opening tends to win for whoever has the better
/// side), so the spread of pair scores gives a tighter, truer interval than
/// treating the games as independent.
///
/// # Examples
///
/// ```
/// use surakarta_match::Pentanomial;
///
/// let mut pairs = Pentanomial::default();
/// pairs.add(1.0, 0.5); // won one game of the pair, drew the other
/// pairs.add(0.5, 0.5);
/// pairs.add(1.0, 1.0);
/// assert_eq!(pairs.counts, [0, 0, 1, 1, 1]);
/// assert_eq!(pairs.pairs(), 3);
/// assert!(pairs.elo().unwrap().diff > 0.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by half-points scored, 0 to 4.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Adds a pair whose games scored `first` and `second` for the first
    /// player (each 0, ½ or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = (2.0 * (first + second)).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    /// Complete pairs.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean score of a pair (0, ¼, ½, ¾ or 1) and its variance (see
    /// [`mean_and_variance`]); `None` with no pairs.
    fn scores(&self) -> Option<(f64, f64)> {
        mean_and_variance(&self.counts, &[0.0, 0.25, 0.5, 0.75, 1.0])
    }

    /// The Elo difference from the pairs' mean score, with a 95% interval
    /// from the variance of the pair scores; `None` with no pairs. As for
    /// the tally, the variance is smoothed while an outcome is missing.
    #[must_use]
    pub fn elo(&self) -> Option<Elo> {
        let (mean, variance) = self.scores()?;
        Some(elo_interval(mean, variance, self.pairs()))
    }
}

/// The mean score of `counts[k]` results worth `points[k]` each, and the
/// variance of one result as used for inference: while some outcome has no
/// results, half a result is added to every count first, so that a run of
/// one outcome alone has a variance above zero (an interval, an SPRT that
/// can decide). `None` with no results.
fn mean_and_variance(counts: &[u32], points: &[f64]) -> Option<(f64, f64)> {
    let total: u32 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let weighted = |add: f64| {
        let n: f64 = counts.iter().map(|&c| f64::from(c) + add).sum();
        let mean = counts
            .iter()
            .zip(points)
            .map(|(&c, p)| (f64::from(c) + add) * p)
            .sum::<f64>()
            / n;
        (n, mean)
    };
    let (_, mean) = weighted(0.0);
    let add = if counts.contains(&0) { 0.5 } else { 0.0 };
    let (n, smoothed_mean) = weighted(add);
    let variance = counts
        .iter()
        .zip(points)
        .map(|(&c, p)| (f64::from(c) + add) * (p - smoothed_mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, variance))
}

/// The Elo of a mean score over `n` results with the given per-result
/// variance, and its 95% interval (normal approximation).
fn elo_interval(mean: f64, variance: f64, n: u32) -> Elo {
    let margin = 1.959_964 * (variance / f64::from(n)).sqrt();
    Elo {
        diff: elo_from_score(mean),
        low: elo_from_score((mean - margin).max(0.0)),
        high: elo_from_score((mean + margin).min(1.0)),
    }
}

/// A sequential probability ratio test of H0: the first player is `elo0`
/// stronger, against H1: `elo1` stronger (logistic Elo), with error rates
/// `alpha` (accepting H1 when H0 holds) and `beta`.
///
/// # Examples
///
/// ```
/// use surakarta_match::{Sprt, SprtDecision, Tally};
///
/// let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05)?;
/// let (lower, upper) = sprt.bounds();
/// assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-12 && lower == -upper);
/// assert_eq!(sprt.decide(&Tally { wins: 5, draws: 5, losses: 5 }), None); // go on
/// assert_eq!(sprt.decide(&Tally { wins: 900, draws: 50, losses: 50 }), Some(SprtDecision::H1));
/// assert_eq!(sprt.decide(&Tally { wins: 50, draws: 50, losses: 900 }), Some(SprtDecision::H0));
/// assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err()); // elo0 must be below elo1
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 accepted: the first player is not `elo1` stronger.
    H0,
    /// H1 accepted: the first player is at least about `elo1` stronger.
    H1,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, error rates in (0, ½).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let rate = |p: f64| p > 0.0 && p < 0.5;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "SPRT needs elo0 < elo1, both finite (got {elo0} and {elo1})"
            ));
        }
        if !(rate(alpha) && rate(beta)) {
            return Err(format!(
                "SPRT error rates must be between 0 and 0.5 (got alpha {alpha}, beta {beta})"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratio of H1 over H0 after `tally`, in the
    /// normal approximation of the game scores: n·(s1−s0)·(2ŝ−s0−s1)/(2σ²),
    /// with σ² as in [`Tally::elo`] (half a game added to each count while
    /// one is missing). It takes the games as independent; for the pairs of
    /// a match, [`Sprt::llr_pairs`] is the truer test.
    #[must_use]
    pub fn llr(&self, tally: &Tally) -> f64 {
        self.llr_of(tally.games(), tally.scores())
    }

    /// The log-likelihood ratio after the colour-swapped `pairs`, each pair
    /// one observation scoring 0, ¼, ½, ¾ or 1: the same formula with n
    /// pairs, their mean score and the variance of a pair's score (smoothed
    /// as for [`Pentanomial::elo`]), as fishtest tests pentanomial results.
    /// The two games of an opening are correlated (an opening may favour
    /// one colour, or one player), which the pairs' spread measures and a
    /// tally of games cannot.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_match::{Pentanomial, Sprt, SprtDecision};
    ///
    /// let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05)?;
    /// // Every opening won by the side with the better colour: no evidence.
    /// let even = Pentanomial { counts: [0, 0, 500, 0, 0] };
    /// assert_eq!(sprt.decide_pairs(&even), Some(SprtDecision::H0));
    /// let better = Pentanomial { counts: [5, 40, 300, 120, 35] };
    /// assert_eq!(sprt.decide_pairs(&better), Some(SprtDecision::H1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        self.llr_of(pairs.pairs(), pairs.scores())
    }

    /// The LLR of `n` observations with `scores`' mean and variance.
    fn llr_of(&self, n: u32, scores: Option<(f64, f64)>) -> f64 {
        let Some((mean, variance)) = scores.filter(|&(_, v)| v > 0.0) else {
            return 0.0;
        };
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        // `+ 0.0` turns a −0 into 0.
        f64::from(n) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance) + 0.0
    }

    /// The bounds on the LLR: accept H0 below the first, H1 above the
    /// second.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision after `tally` ([`Sprt::llr`]), if the LLR has crossed
    /// a bound.
    #[must_use]
    pub fn decide(&self, tally: &Tally) -> Option<SprtDecision> {
        self.verdict(self.llr(tally))
    }

    /// The decision after `pairs` ([`Sprt::llr_pairs`]), if the LLR has
    /// crossed a bound: how a match decides.
    #[must_use]
    pub fn decide_pairs(&self, pairs: &Pentanomial) -> Option<SprtDecision> {
        self.verdict(self.llr_pairs(pairs))
    }

    fn verdict(&self, llr: f64) -> Option<SprtDecision> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn score_and_elo() {
        let t = tally(143, 9, 48);
        assert!((t.score() - 0.7375).abs() < 1e-12);
        let elo = t.elo().unwrap();
        assert!((elo.diff - 179.45).abs() < 0.01, "{elo:?}");
        assert!(elo.low < elo.diff && elo.diff < elo.high);
        // ±1.96·σ/√n in score: σ² = (143·.2625² + 9·.2375² + 48·.7375²)/200.
        let sigma =
            ((143.0 * 0.2625f64.powi(2) + 9.0 * 0.2375f64.powi(2) + 48.0 * 0.7375f64.powi(2))
                / 200.0)
                .sqrt();
        let high = elo_from_score(0.7375 + 1.959_964 * sigma / 200f64.sqrt());
        assert!((elo.high - high).abs() < 1e-9);
        assert_eq!(tally(5, 10, 5).elo().unwrap().diff, 0.0);
        // Two draws: an even score, but no certainty.
        let two = tally(0, 2, 0).elo().unwrap();
        assert!(two.low < -100.0 && two.high > 100.0, "{two:?}");
        assert!(tally(0, 0, 0).elo().is_none());
        assert_eq!(tally(3, 0, 0).elo().unwrap().diff, f64::INFINITY);
        assert!((elo_from_score(score_from_elo(123.0)) - 123.0).abs() < 1e-9);
    }

    #[test]
    fn pairs_give_a_tighter_interval_when_openings_decide() {
        // 100 openings, each won by whoever has the better side: every pair
        // is one win and one loss. As games that is 100-0-100 with a wide
        // interval; as pairs the score is exactly even.
        let mut p = Pentanomial::default();
        for _ in 0..100 {
            p.add(1.0, 0.0);
        }
        assert_eq!(p.counts, [0, 0, 100, 0, 0]);
        let pairs = p.elo().unwrap();
        let games = tally(100, 0, 100).elo().unwrap();
        assert_eq!(pairs.diff, 0.0);
        assert!(
            pairs.high - pairs.low < (games.high - games.low) / 2.0,
            "{pairs:?} {games:?}"
        );
        p.add(0.5, 0.5);
        p.add(1.0, 1.0);
        p.add(0.0, 0.5);
        assert_eq!(p.counts, [0, 1, 101, 0, 1]);
        assert_eq!(p.pairs(), 103);
        assert!(Pentanomial::default().elo().is_none());
    }

    #[test]
    fn pairs_of_independent_games_test_as_the_games_do() {
        // Games won, drawn and lost with probability ½, ¼, ¼, paired
        // independently: pairs score 0 to 4 half-points in proportions 1, 2,
        // 5, 4, 4 (sixteenths). A pair's score varies half as much as a
        // game's, so over half as many observations the LLR is the same.
        let pairs = Pentanomial {
            counts: [100, 200, 500, 400, 400],
        };
        let games = tally(1600, 800, 800);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let (by_pairs, by_games) = (sprt.llr_pairs(&pairs), sprt.llr(&games));
        assert!((pairs.elo().unwrap().diff - games.elo().unwrap().diff).abs() < 1e-9);
        assert!(by_pairs > 2.94, "{by_pairs}");
        assert!(
            (by_pairs / by_games - 1.0).abs() < 1e-9,
            "{by_pairs} {by_games}"
        );
        // Pairs that split 1–1 far more than independent games would carry
        // less noise: the pairs' test is the stronger one.
        let split = Pentanomial {
            counts: [0, 100, 800, 100, 0],
        };
        let split_games = tally(900, 200, 900);
        let lean = Pentanomial {
            counts: [0, 90, 800, 110, 0],
        };
        assert!(sprt.llr_pairs(&lean) > sprt.llr_pairs(&split));
        assert!(sprt.llr(&split_games).abs() < sprt.llr_pairs(&split).abs());
    }

    #[test]
    fn tally_adds_from_the_first_players_side() {
        let mut t = Tally::default();
        t.add(Color::Black, Some(Color::Black));
        t.add(Color::White, Some(Color::Black));
        t.add(Color::White, None);
        assert_eq!(t, tally(1, 1, 1));
    }

    #[test]
    fn sprt_accepts_the_right_hypothesis() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        // A clearly stronger player is accepted as H1, a weaker one as H0.
        assert_eq!(sprt.decide(&tally(600, 200, 400)), Some(SprtDecision::H1));
        assert_eq!(sprt.decide(&tally(400, 200, 600)), Some(SprtDecision::H0));
        assert_eq!(sprt.decide(&tally(10, 5, 9)), None);
        // No draws or losses at all still decide, in both directions.
        assert_eq!(sprt.decide(&tally(40, 0, 0)), Some(SprtDecision::H1));
        assert_eq!(sprt.decide(&tally(0, 0, 40)), Some(SprtDecision::H0));
        assert_eq!(sprt.decide(&tally(0, 0, 1)), None);
        assert_eq!(sprt.llr(&tally(0, 0, 0)), 0.0);
        assert!(sprt.llr(&tally(600, 200, 400)) > 0.0);
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
    }
}
