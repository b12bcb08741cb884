//! The last few cycles the random alternating joins leave: random starts rarely land on
//! them (ten 8-cycles among 40,320 vertices on TopSpin with 8 discs), and the alternating
//! cycles that join them can be longer than the random search's (30 edges there). Here
//! every cycle but the longest, shortest first, is searched from each of its vertices,
//! deepening two edges at a time, until a swap joins it.

use super::alternating::Alternation;
use super::factor::Factor;
use super::graph::Graph;
use super::rng::Rng;
use super::Stats;
use puz_core::{Control, Interrupt};

/// Alternating cycles of up to `2 * DEEPEST` edges.
const DEEPEST: usize = 20;
/// Search calls from one vertex, each way.
const NODES: u32 = 1 << 18;
/// Search calls in all, per vertex of the graph (at least `1 << 22`): a bound on the time
/// spent when the cycles cannot be joined.
const LIMIT_PER_VERTEX: u64 = 512;

/// The search from the shorter cycles, and what it has spent.
struct Joiner<'a> {
    g: &'a Graph,
    kmin: usize,
    on: Vec<bool>,
    rng: Rng,
    work: u64,
    limit: u64,
}

/// Joins the cycles of `f` (`comps` of them, on the vertices `verts`) through alternating
/// cycles of `2 * kmin` edges and more from the vertices of the shorter cycles; returns the
/// number of cycles left (more than one when no cycle can be joined within the limits).
pub(super) fn last_joins(
    g: &Graph,
    f: &mut Factor,
    mut comps: u32,
    verts: &[u32],
    kmin: usize,
    ctl: &Control,
    stats: &mut Stats,
) -> Result<u32, Interrupt> {
    let mut j = Joiner {
        g,
        kmin,
        on: vec![false; g.space() as usize],
        rng: Rng::new(0xbb67_ae85_84ca_a73b),
        work: 0,
        limit: (LIMIT_PER_VERTEX * verts.len() as u64).max(1 << 22),
    };
    // Passes over the cycles left at the start of each, skipping those a join of this
    // pass made longer (new ids); a pass that joins nothing ends.
    let mut joined = true;
    while comps > 1 && joined {
        joined = false;
        ctl.progress(&format!("hamilton: joining the last {comps} cycles"));
        let fresh = f.len.len() as u32;
        for rep in shorter_cycles(f, verts) {
            if comps == 1 || j.work > j.limit {
                break;
            }
            if f.comp[rep as usize] >= fresh {
                continue;
            }
            if let Some(fewer) = j.join_from(f, rep, ctl)? {
                comps -= fewer;
                stats.alternating += 1;
                joined = true;
            }
        }
    }
    Ok(comps)
}

impl Joiner<'_> {
    /// Swaps along the first alternating cycle found from a vertex of the cycle through
    /// `rep` that leaves fewer cycles, searching all its vertices for each length; returns
    /// how many fewer.
    fn join_from(
        &mut self,
        f: &mut Factor,
        rep: u32,
        ctl: &Control,
    ) -> Result<Option<u32>, Interrupt> {
        let cycle = f.cycle(rep);
        for kmax in (self.kmin..=DEEPEST.max(self.kmin)).step_by(2) {
            let search = Alternation {
                g: self.g,
                nb: &f.nb,
                kmax,
                cap: 4096,
            };
            for &v0 in &cycle {
                ctl.check()?;
                if self.work > self.limit {
                    return Ok(None);
                }
                let cands = search.through(v0, &mut self.on, &mut self.rng, NODES, &mut self.work);
                let join = cands.into_iter().find_map(|c| {
                    let (new, touched) = f.count(&c);
                    (new < touched).then_some((c, touched - new))
                });
                if let Some((c, fewer)) = join {
                    f.apply(&c);
                    return Ok(Some(fewer));
                }
            }
        }
        Ok(None)
    }
}

/// A vertex of each cycle of `f` but the longest, shortest cycle first.
fn shorter_cycles(f: &Factor, verts: &[u32]) -> Vec<u32> {
    let mut seen = vec![false; f.len.len()];
    let mut reps: Vec<(u32, u32)> = Vec::new();
    for &v in verts {
        let c = f.comp[v as usize] as usize;
        if !seen[c] {
            seen[c] = true;
            reps.push((f.len[c], v));
        }
    }
    reps.sort_unstable();
    reps.pop();
    reps.into_iter().map(|(_, v)| v).collect()
}
