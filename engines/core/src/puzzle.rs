//! A puzzle as orbits of pieces with orientations, flattened onto points.
//!
//! An orbit has `size` locations and an orientation modulo `twist` (1 = none).
//! The point for location `l` with orientation `t` is `offset + l * twist + t`.
//! A move sends the piece at location `a` with orientation `t` to location `b` with
//! orientation `t + i`, so the point `(a, t)` goes to `(b, t + i)`: positions and moves
//! are plain [`Perm`]s on these points and compose exactly.

use crate::perm::Perm;
use num_bigint::BigUint;
use std::fmt;

/// One orbit: locations `0..size`, optionally named, with orientations mod `twist`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbit {
    pub name: String,
    pub size: usize,
    pub twist: u8,
    /// Location names; empty when the locations are numbered.
    pub labels: Vec<String>,
    /// The first point of this orbit.
    pub offset: usize,
}

impl Orbit {
    /// The point for location `loc` with orientation `ori`.
    #[inline]
    pub fn point(&self, loc: usize, ori: usize) -> usize {
        self.offset + loc * self.twist as usize + ori % self.twist as usize
    }

    pub fn points(&self) -> usize {
        self.size * self.twist as usize
    }

    /// The name of a location (its label, or its number).
    pub fn label(&self, loc: usize) -> String {
        self.labels
            .get(loc)
            .cloned()
            .unwrap_or_else(|| loc.to_string())
    }

    /// The location with this label or number.
    pub fn location(&self, name: &str) -> Option<usize> {
        // `points n` labels its locations 1..n: found without a scan (a move of a
        // 65536-point cycle looks up every one of them).
        let k = name.parse::<usize>().ok().and_then(|k| k.checked_sub(1));
        if let Some(k) = k.filter(|&k| self.labels.get(k).is_some_and(|l| l == name)) {
            return Some(k);
        }
        if let Some(i) = self.labels.iter().position(|l| l == name) {
            return Some(i);
        }
        if self.labels.is_empty() {
            return name.parse::<usize>().ok().filter(|&i| i < self.size);
        }
        None
    }
}

/// A declared move: its name and its effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedMove {
    pub name: String,
    pub perm: Perm,
    /// True for moves defined by cycles, false for moves derived from sequences.
    pub primitive: bool,
}

/// A puzzle: its orbits and its moves.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Puzzle {
    pub name: String,
    pub orbits: Vec<Orbit>,
    pub moves: Vec<NamedMove>,
    /// The order the definition says its group has, if it says.
    pub expected_order: Option<BigUint>,
}

/// Which piece sits at each location of one orbit, and how it is turned.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OrbitState {
    /// `pieces[l]` is the piece (its home location) now at location `l`.
    pub pieces: Vec<usize>,
    /// `oris[l]` is the orientation of the piece at location `l`.
    pub oris: Vec<u8>,
}

/// A problem found while building a move from cycles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CycleError {
    /// A location appears twice in the cycles of one move (cycle index, element index).
    Repeated { orbit: String, location: String },
    /// An orientation change on an orbit whose pieces have no orientation.
    NoTwist { orbit: String },
    /// A location number out of range.
    OutOfRange { orbit: String, location: usize },
}

impl fmt::Display for CycleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CycleError::Repeated { orbit, location } => {
                write!(
                    f,
                    "location {location} of orbit `{orbit}` appears twice in this move"
                )
            }
            CycleError::NoTwist { orbit } => {
                write!(
                    f,
                    "orbit `{orbit}` has no twist, so its pieces cannot change orientation"
                )
            }
            CycleError::OutOfRange { orbit, location } => {
                write!(f, "orbit `{orbit}` has no location {location}")
            }
        }
    }
}

impl std::error::Error for CycleError {}

/// Builds a move from cycles, one orbit at a time.
pub struct MoveBuilder<'p> {
    puzzle: &'p Puzzle,
    images: Vec<usize>,
    touched: Vec<bool>,
}

impl<'p> MoveBuilder<'p> {
    pub fn new(puzzle: &'p Puzzle) -> Self {
        let n = puzzle.degree();
        MoveBuilder {
            puzzle,
            images: (0..n).collect(),
            touched: vec![false; puzzle.total_locations()],
        }
    }

    /// Adds the cycle `(a+i b+j c ...)` on orbit `orbit`: `(location, twist added on leaving)`.
    pub fn cycle(&mut self, orbit: usize, elems: &[(usize, i64)]) -> Result<(), CycleError> {
        let o = &self.puzzle.orbits[orbit];
        let loc_base: usize = self.puzzle.orbits[..orbit].iter().map(|o| o.size).sum();
        for &(loc, add) in elems {
            if loc >= o.size {
                return Err(CycleError::OutOfRange {
                    orbit: o.name.clone(),
                    location: loc,
                });
            }
            if o.twist == 1 && add != 0 {
                return Err(CycleError::NoTwist {
                    orbit: o.name.clone(),
                });
            }
            if self.touched[loc_base + loc] {
                return Err(CycleError::Repeated {
                    orbit: o.name.clone(),
                    location: o.label(loc),
                });
            }
            self.touched[loc_base + loc] = true;
        }
        let k = o.twist as i64;
        for (idx, &(a, add)) in elems.iter().enumerate() {
            let (b, _) = elems[(idx + 1) % elems.len()];
            for t in 0..k {
                let to = (t + add).rem_euclid(k);
                self.images[o.point(a, t as usize)] = o.point(b, to as usize);
            }
        }
        Ok(())
    }

    pub fn finish(self) -> Perm {
        Perm::from_images(self.images).expect("cycles of distinct locations make a permutation")
    }
}

impl Puzzle {
    /// An empty puzzle with this name.
    pub fn new(name: impl Into<String>) -> Puzzle {
        Puzzle {
            name: name.into(),
            ..Default::default()
        }
    }

    /// Appends an orbit and returns its index.
    pub fn add_orbit(
        &mut self,
        name: impl Into<String>,
        size: usize,
        twist: u8,
        labels: Vec<String>,
    ) -> usize {
        let offset = self.degree();
        self.orbits.push(Orbit {
            name: name.into(),
            size,
            twist: twist.max(1),
            labels,
            offset,
        });
        self.orbits.len() - 1
    }

    /// The number of points (locations times orientations, over all orbits).
    pub fn degree(&self) -> usize {
        self.orbits.iter().map(|o| o.points()).sum()
    }

    /// The number of locations over all orbits.
    pub fn total_locations(&self) -> usize {
        self.orbits.iter().map(|o| o.size).sum()
    }

    pub fn orbit_index(&self, name: &str) -> Option<usize> {
        self.orbits.iter().position(|o| o.name == name)
    }

    pub fn move_index(&self, name: &str) -> Option<usize> {
        self.moves.iter().position(|m| m.name == name)
    }

    pub fn identity(&self) -> Perm {
        Perm::identity(self.degree())
    }

    /// The orbit and location of a point, with its orientation.
    pub fn locate_point(&self, point: usize) -> (usize, usize, usize) {
        for (i, o) in self.orbits.iter().enumerate() {
            if point >= o.offset && point < o.offset + o.points() {
                let r = point - o.offset;
                return (i, r / o.twist as usize, r % o.twist as usize);
            }
        }
        panic!("point {point} is outside the puzzle")
    }

    /// A readable name for a point: `orbit:location` with `+t` for a turned piece.
    pub fn point_name(&self, point: usize) -> String {
        let (o, l, t) = self.locate_point(point);
        let orbit = &self.orbits[o];
        if t == 0 {
            format!("{} {}", orbit.name, orbit.label(l))
        } else {
            format!("{} {}+{}", orbit.name, orbit.label(l), t)
        }
    }

    /// The position a permutation reaches, orbit by orbit.
    pub fn orbit_states(&self, p: &Perm) -> Vec<OrbitState> {
        self.orbits
            .iter()
            .map(|o| {
                let mut pieces = vec![0; o.size];
                let mut oris = vec![0u8; o.size];
                for piece in 0..o.size {
                    let img = p.image(o.point(piece, 0)) - o.offset;
                    let (l, t) = (img / o.twist as usize, img % o.twist as usize);
                    pieces[l] = piece;
                    oris[l] = t as u8;
                }
                OrbitState { pieces, oris }
            })
            .collect()
    }

    /// True when `p` respects the orbit structure (orientations move together).
    pub fn is_position(&self, p: &Perm) -> bool {
        if p.degree() != self.degree() {
            return false;
        }
        self.orbits.iter().all(|o| {
            let k = o.twist as usize;
            (0..o.size).all(|l| {
                let base = p.image(o.point(l, 0));
                if base < o.offset || base >= o.offset + o.points() {
                    return false;
                }
                let (bl, bt) = ((base - o.offset) / k, (base - o.offset) % k);
                (1..k).all(|t| p.image(o.point(l, t)) == o.point(bl, bt + t))
            })
        })
    }

    /// The cycle notation of a position on this puzzle's own locations:
    /// `corners(UFR+2 URB+1 DBR+2 DRF+1) edges(0+1)`; `id` for the identity.
    pub fn cycle_notation(&self, p: &Perm) -> String {
        let mut parts = Vec::new();
        for (oi, o) in self.orbits.iter().enumerate() {
            let st = &self.orbit_states(p)[oi];
            // The piece at location l came from pieces[l]: so pieces[l] -> l.
            let mut dest = vec![0usize; o.size];
            let mut gain = vec![0u8; o.size];
            for l in 0..o.size {
                dest[st.pieces[l]] = l;
                gain[st.pieces[l]] = st.oris[l];
            }
            let mut seen = vec![false; o.size];
            let mut cycles = Vec::new();
            for s in 0..o.size {
                if seen[s] {
                    continue;
                }
                let mut c = Vec::new();
                let mut x = s;
                let mut total = 0u32;
                loop {
                    seen[x] = true;
                    c.push(x);
                    x = dest[x];
                    if x == s {
                        break;
                    }
                }
                // Orientation gained by the piece leaving each element, relative to the one before.
                let mut elems = Vec::new();
                for &a in &c {
                    let b = dest[a];
                    let add = (gain[a] as u32) % o.twist as u32;
                    total += add;
                    let _ = b;
                    elems.push((a, add));
                }
                if c.len() == 1 && total.is_multiple_of(o.twist as u32) {
                    continue;
                }
                let text: Vec<String> = elems
                    .iter()
                    .map(|&(a, add)| {
                        if add == 0 {
                            o.label(a)
                        } else {
                            format!("{}+{}", o.label(a), add)
                        }
                    })
                    .collect();
                cycles.push(format!("({})", text.join(" ")));
            }
            if !cycles.is_empty() {
                parts.push(format!("{}{}", o.name, cycles.join("")));
            }
        }
        if parts.is_empty() {
            "id".to_string()
        } else {
            parts.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube2() -> Puzzle {
        let mut p = Puzzle::new("cube2");
        let names = ["UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR"];
        p.add_orbit(
            "corners",
            8,
            3,
            names.iter().map(|s| s.to_string()).collect(),
        );
        let loc = |s: &str| p.orbits[0].location(s).unwrap();
        let mut b = MoveBuilder::new(&p);
        b.cycle(
            0,
            &[
                (loc("UFR"), 2),
                (loc("URB"), 1),
                (loc("DBR"), 2),
                (loc("DRF"), 1),
            ],
        )
        .unwrap();
        let r = b.finish();
        p.moves.push(NamedMove {
            name: "R".into(),
            perm: r,
            primitive: true,
        });
        p
    }

    #[test]
    fn twisted_cycle_has_order_four_and_round_trips() {
        let p = cube2();
        let r = &p.moves[0].perm;
        assert!(p.is_position(r));
        assert_eq!(r.order(), BigUint::from(4u32));
        assert_eq!(p.cycle_notation(r), "corners(UFR+2 URB+1 DBR+2 DRF+1)");
        assert_eq!(p.cycle_notation(&r.pow(4)), "id");
    }

    #[test]
    fn orientation_on_untwisted_orbit_is_refused() {
        let mut p = Puzzle::new("t");
        p.add_orbit("e", 3, 1, vec![]);
        let mut b = MoveBuilder::new(&p);
        assert!(matches!(
            b.cycle(0, &[(0, 1), (1, 0)]),
            Err(CycleError::NoTwist { .. })
        ));
        let mut b = MoveBuilder::new(&p);
        assert!(matches!(
            b.cycle(0, &[(0, 0), (0, 0)]),
            Err(CycleError::Repeated { .. })
        ));
    }

    #[test]
    fn single_twist_in_place() {
        let mut p = Puzzle::new("lights");
        p.add_orbit("lights", 2, 2, vec![]);
        let mut b = MoveBuilder::new(&p);
        b.cycle(0, &[(1, 1)]).unwrap();
        let m = b.finish();
        assert_eq!(m.order(), BigUint::from(2u32));
        assert_eq!(p.cycle_notation(&m), "lights(1+1)");
    }
}
