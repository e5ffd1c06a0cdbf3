//! The nearest of many units without measuring every one exactly: each
//! candidate comes with a cheap lower bound of its distance (from the
//! units' places alone), the candidates are tried nearest bound first, and
//! the search stops once a bound passes the best distance found. A big
//! battle asks this for every unit, of every enemy.

/// The candidate with the least `exact` distance, ties to the least `id`:
/// the same answer as measuring every one, provided `bound` never exceeds
/// `exact`.
pub fn nearest<'a, T>(
    candidates: impl Iterator<Item = &'a T>,
    bound: impl Fn(&T) -> f64,
    exact: impl Fn(&T) -> f64,
    id: impl Fn(&T) -> &str,
) -> Option<&'a T> {
    // Least bound first, from a heap rather than a sort: only the few
    // candidates tried are ordered. Which of equal bounds comes first does
    // not matter: every candidate whose bound is below the answer's
    // distance is measured whatever the order, and the answer is the least
    // (distance, id) of those.
    struct Low<'a, T>(f64, usize, &'a T);
    impl<T> PartialEq for Low<'_, T> {
        fn eq(&self, o: &Self) -> bool {
            self.cmp(o).is_eq()
        }
    }
    impl<T> Eq for Low<'_, T> {}
    impl<T> PartialOrd for Low<'_, T> {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl<T> Ord for Low<'_, T> {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            // Reversed: the std heap gives its greatest first.
            o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
        }
    }
    let mut by_bound: std::collections::BinaryHeap<Low<T>> = candidates
        .enumerate()
        .map(|(i, c)| Low(bound(c), i, c))
        .collect();
    let mut best: Option<(f64, &T)> = None;
    while let Some(Low(low, _, c)) = by_bound.pop() {
        if best.is_some_and(|(d, _)| low > d) {
            break;
        }
        let d = exact(c);
        let better = match best {
            None => true,
            Some((bd, b)) => d.total_cmp(&bd).then(id(c).cmp(id(b))).is_lt(),
        };
        if better {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn the_nearest_is_the_one_measuring_all_would_find_ties_by_id() {
        // (id, exact distance, bound)
        let units = [
            ("c", 5.0, 1.0),
            ("a", 3.0, 2.5),
            ("b", 3.0, 0.5),
            ("d", 9.0, 8.0),
        ];
        let found = nearest(units.iter(), |u| u.2, |u| u.1, |u| u.0);
        assert_eq!(found.map(|u| u.0), Some("a"));
    }

    #[test]
    fn bounds_past_the_best_are_not_measured() {
        let units = [("a", 1.0, 0.5), ("b", 50.0, 40.0)];
        let measured = std::cell::Cell::new(0);
        let exact = |u: &(&str, f64, f64)| {
            measured.set(measured.get() + 1);
            u.1
        };
        assert_eq!(
            nearest(units.iter(), |u| u.2, exact, |u| u.0).map(|u| u.0),
            Some("a")
        );
        assert_eq!(measured.get(), 1);
    }
}
