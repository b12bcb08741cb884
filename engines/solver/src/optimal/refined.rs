//! A solver's refined canonical automata (`redundant.rs`): a few kept, one per ranks of
//! the letters, each read from the cache folder when saved there (`pdb/refined_cache.rs`),
//! else made on first use and saved.

use super::solver::Solver;
use crate::canon::Canon;
use crate::pdb::refined_cache;
use puz_core::Control;
use std::sync::Arc;

/// How many refined automata a solver keeps (one per ranks of the letters: most
/// positions need the one of equal ranks, a central one another).
const KEPT_REFINED: usize = 4;

/// Refined automata by the letters' ranks they were made for.
pub(super) type Refined = Vec<(Vec<u32>, Option<Arc<Canon>>)>;

impl Solver {
    /// The refined canonical automaton for the letters' `rank`s, made on first use (`None`
    /// when the metric does not allow it, or when `ctl` stops its making: then it is tried
    /// again next time). A few are kept, the last made.
    pub(super) fn refined(&self, rank: &[u32], ctl: &Control) -> Option<Arc<Canon>> {
        let cached = |list: &Refined| list.iter().find(|(r, _)| r == rank).map(|(_, c)| c.clone());
        let lock = || self.refined.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = cached(&lock()) {
            return c;
        }
        let made = self.make_refined(rank, ctl);
        if ctl.check().is_err() {
            return None;
        }
        let mut list = lock();
        if let Some(c) = cached(&list) {
            return c;
        }
        if list.len() == KEPT_REFINED {
            list.remove(0);
        }
        let made = made.map(|(c, _)| Arc::new(c));
        list.push((rank.to_vec(), made.clone()));
        made
    }

    /// The refined automaton for `rank`, read from the cache folder when saved there,
    /// else made (and saved).
    fn make_refined(&self, rank: &[u32], ctl: &Control) -> Option<(Canon, usize)> {
        let max_kept = crate::redundant::kept_limit(ctl);
        let file = self.saved.as_ref().map(|(dir, key, _)| {
            let recipe = refined_cache::Recipe {
                puzzle_key: *key,
                actions: &self.actions,
                cost: &self.metric.cost,
                canon: &self.canon,
                families: &self.metric.families.of_letter,
                rank,
                max_kept,
            };
            refined_cache::file(dir, &recipe)
        });
        if let Some(got) = file
            .as_deref()
            .and_then(|f| refined_cache::load(f, self.metric.len()))
        {
            return Some(got);
        }
        let made = crate::redundant::pruned(
            &self.model,
            &self.actions,
            &self.metric,
            &self.canon,
            rank,
            max_kept,
            ctl,
        );
        if let (Some(f), Some((canon, len)), Some((_, _, title))) = (&file, &made, &self.saved) {
            if !ctl.cancelled() {
                let what = format!(
                    "{title}: canonical sequences without redundant factors ({} states)",
                    canon.states
                );
                refined_cache::save(f, (canon, *len), &what, ctl);
            }
        }
        made
    }
}
