//! Algebraic properties of sequences through the whole language (parser, splitting,
//! nested words, evaluation): inverses cancel, products associate, commutators and
//! conjugates expand, powers agree with repetition, and a sequence to the power of its
//! order is the identity.

use proptest::prelude::*;

const MOVES: &[&str] = &[
    "U", "D", "F", "B", "L", "R", "U2", "R'", "F2", "M", "E'", "S2",
];

fn seq() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(MOVES), 1..12).prop_map(|v| v.join(" "))
}

fn holds(script: &str) -> bool {
    let (_, err) = puz::run_to_string("prop", &format!("use cube3\n{script}"));
    if let Some(e) = &err {
        eprintln!("{e}");
    }
    err.is_none()
}

fn order_of(s: &str) -> u64 {
    let (out, err) = puz::run_to_string("prop", &format!("use cube3\norder({s})"));
    assert!(err.is_none(), "{err:?}");
    out.trim().parse().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn inverse_cancels(a in seq()) {
        let script = format!("assert ({a})' ({a}) == ()\nassert ({a}) inverse({a}) == ()");
        prop_assert!(holds(&script), "{}", script);
    }

    #[test]
    fn products_associate(a in seq(), b in seq(), c in seq()) {
        let script = format!("assert (({a}) ({b})) ({c}) == ({a}) (({b}) ({c}))");
        prop_assert!(holds(&script), "{}", script);
    }

    #[test]
    fn commutators_and_conjugates_expand(a in seq(), b in seq()) {
        let script = format!(
            "assert [{a}, {b}] == ({a}) ({b}) ({a})' ({b})'\nassert [{a}: {b}] == ({a}) ({b}) ({a})'"
        );
        prop_assert!(holds(&script), "{}", script);
    }

    #[test]
    fn powers_are_repetitions(a in seq(), k in 0u32..7) {
        let rep = vec![format!("({a})"); k as usize].join(" ");
        let script = format!("assert ({a}){k} == ({rep})\nassert length(({a}){k}) == {k} * length({a})");
        prop_assert!(holds(&script), "{}", script);
    }

    #[test]
    fn order_is_exact(a in seq()) {
        let o = order_of(&a);
        let script = format!("assert ({a}){o} == ()");
        prop_assert!(holds(&script), "{}", script);
        // o / p for each prime p dividing o does not give the identity: o is the order.
        let mut n = o;
        let mut p = 2;
        while n > 1 {
            if n.is_multiple_of(p) {
                let d = o / p;
                let script = format!("assert ({a}){d} != ()");
                prop_assert!(holds(&script), "{}", script);
                while n.is_multiple_of(p) {
                    n /= p;
                }
            }
            p += 1;
        }
    }
}
