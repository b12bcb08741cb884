//! [`Walk`]: where each letter sends the blocks a fill task visits. Blocks are arrangements
//! of the followed pieces, numbered with the last piece's digit fastest, so consecutive
//! blocks share every piece but the last: per letter, the rank of the other pieces' new
//! locations and their orientation turn are worked out once for such a group (when the
//! letter is first asked for in it) and each block only adds its last piece.

use super::turns::{OriTurn, OriTurns};
use super::Pattern;

pub(super) struct Walk<'a> {
    p: &'a Pattern,
    turns: &'a OriTurns<'a>,
    /// The group of blocks sharing the pieces before the last, and their locations.
    group: u64,
    loc: [u8; 64],
    ori: [u8; 64],
    /// Locations the pieces before the last take, and the last piece's location.
    used: u64,
    last: u8,
    /// Per letter: the group its prefix was worked out for, the prefix's part of the rank,
    /// the locations it takes, its orientation turn, and the bits that turn flips.
    valid: Vec<u64>,
    rank: Vec<u64>,
    taken: Vec<u64>,
    turn: Vec<OriTurn>,
    xor: Vec<u64>,
    /// `dest[l * n + c]`: where letter `l` sends the piece at `c`; `last_flip[l * n + c]`:
    /// the bits it flips for the last piece there (with flips).
    dest: Vec<u8>,
    last_flip: Vec<u64>,
}

impl<'a> Walk<'a> {
    pub fn new(
        p: &'a Pattern,
        turns: &'a OriTurns<'a>,
        maps: &'a [(Vec<u8>, Vec<u8>)],
    ) -> Walk<'a> {
        let m = maps.len();
        Walk {
            p,
            turns,
            group: u64::MAX,
            loc: [0; 64],
            ori: [0; 64],
            used: 0,
            last: 0,
            valid: vec![u64::MAX; m],
            rank: vec![0; m],
            taken: vec![0; m],
            turn: (0..m).map(|_| OriTurn::default()).collect(),
            xor: vec![0; m],
            dest: maps.iter().flat_map(|(d, _)| d.iter().copied()).collect(),
            last_flip: (0..m)
                .flat_map(|l| (0..p.n as u8).map(move |c| (l, c)))
                .map(|(l, c)| {
                    let mut t = OriTurn::default();
                    turns.prepare_prefix(l, &[], &mut t);
                    turns.prepare_last(p.pieces.len() - 1, c, 0, &mut t);
                    t.xor_bits()
                })
                .collect(),
        }
    }

    /// Moves to block `b` (the arrangement of rank `b`).
    #[inline]
    pub fn visit(&mut self, b: u64) {
        let k = self.p.pieces.len();
        let radix = (self.p.n - (k - 1)) as u64;
        let group = b / radix;
        if group != self.group {
            self.group = group;
            self.p
                .unindex(b * self.p.ori_span, &mut self.loc, &mut self.ori);
            self.used = self.loc[..k - 1].iter().fold(0, |u, &l| u | 1 << l);
        }
        // The last piece is at the free location numbered by the last digit.
        let mut free = !self.used;
        for _ in 0..b % radix {
            free &= free - 1;
        }
        self.last = free.trailing_zeros() as u8;
    }

    /// The block letter `l` sends the visited block to, and the turn of its orientations.
    #[inline]
    pub fn target(&mut self, l: usize) -> (u64, &OriTurn) {
        let to = self.rank_of(l);
        let k = self.p.pieces.len();
        self.turns
            .prepare_last(k - 1, self.last, self.xor[l], &mut self.turn[l]);
        (to, &self.turn[l])
    }

    /// With flips ([`OriTurns::flips`]): the block letter `l` sends the visited block to,
    /// and the bits it flips (the turn is not prepared).
    #[inline]
    pub fn target_flip(&mut self, l: usize) -> (u64, u64) {
        let to = self.rank_of(l);
        let n = self.p.n;
        (to, self.xor[l] + self.last_flip[l * n + self.last as usize])
    }

    /// The rank of the arrangement letter `l` makes of the visited block's.
    #[inline]
    fn rank_of(&mut self, l: usize) -> u64 {
        let n = self.p.n;
        if self.valid[l] != self.group {
            self.prefix(l);
        }
        let to = self.dest[l * n + self.last as usize];
        let digit = to as u64 - (self.taken[l] & ((1u64 << to) - 1)).count_ones() as u64;
        self.rank[l] + digit
    }

    /// Works out letter `l`'s part for the visited group.
    fn prefix(&mut self, l: usize) {
        let (k, n) = (self.p.pieces.len(), self.p.n);
        self.valid[l] = self.group;
        let (mut taken, mut rank) = (0u64, 0u64);
        for (&c, &w) in self.loc[..k - 1].iter().zip(&self.p.perm_weight) {
            let to = self.dest[l * n + c as usize];
            rank += (to as u64 - (taken & ((1u64 << to) - 1)).count_ones() as u64) * w;
            taken |= 1 << to;
        }
        self.rank[l] = rank;
        self.taken[l] = taken;
        self.turns
            .prepare_prefix(l, &self.loc[..k - 1], &mut self.turn[l]);
        self.xor[l] = self.turn[l].xor_bits();
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::cube3_htm;
    use super::super::turns::orbit_maps;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn walks_agree_with_ranking_each_block(
            orbit in 0usize..2,
            k in 1usize..=7,
            start in 0u64..1_000_000,
            steps in proptest::collection::vec(0u64..40, 1..20),
            all_ori: bool,
        ) {
            // Blocks visited in increasing order with gaps, against unindex, perm_rank
            // and prepare on each block.
            let (model, _, actions) = cube3_htm();
            let n = model.orbits[orbit].size;
            let p = Pattern::with_orientations(&model, orbit, (0..k.min(n) as u8).collect(), all_ori);
            let maps = orbit_maps(&model, orbit, &actions);
            let turns = OriTurns::new(&p, &maps);
            let mut walk = Walk::new(&p, &turns, &maps);
            let blocks = p.size / p.ori_span;
            let mut b = start % blocks;
            let (mut loc, mut ori, mut nl) = ([0u8; 64], [0u8; 64], [0u8; 64]);
            let mut want = OriTurn::default();
            for s in steps {
                b = (b + s).min(blocks - 1);
                walk.visit(b);
                p.unindex(b * p.ori_span, &mut loc, &mut ori);
                let k = p.pieces.len();
                for l in (0..actions.len()).rev() {
                    for i in 0..k {
                        nl[i] = maps[l].0[loc[i] as usize];
                    }
                    turns.prepare(l, &loc[..k], &mut want);
                    let (to, flip) = walk.target_flip(l);
                    prop_assert_eq!(to, p.perm_rank(&nl[..k]));
                    if turns.flips() {
                        for o in [0, 1, p.ori_span / 2, p.ori_span - 1] {
                            prop_assert_eq!(o ^ flip, turns.apply(&want, o));
                        }
                    }
                    let (to, turn) = walk.target(l);
                    prop_assert_eq!(to, p.perm_rank(&nl[..k]));
                    for o in [0, 1, p.ori_span / 2, p.ori_span - 1] {
                        prop_assert_eq!(turns.apply(turn, o), turns.apply(&want, o));
                    }
                }
            }
        }
    }
}
