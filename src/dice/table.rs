//! Result tables read by a modified roll (the 2D6 tables many rules use):
//! bands of totals, each from its lowest total up to the next band's.

/// The result of the band holding `total`. `bands` lists (lowest total,
/// result) in rising order; a total below the first band takes the first
/// result and one above the last the last, as tables printed "2-3 ... 12+"
/// mean a modified roll past either end.
///
/// # Panics
/// If `bands` is empty (a table with no rows is a programming error).
pub fn read<T: Copy>(bands: &[(i32, T)], total: i32) -> T {
    let mut out = bands[0].1;
    for &(from, result) in bands {
        if total >= from {
            out = result;
        }
    }
    out
}

/// The sum of signed modifiers, for a roll's total.
pub fn sum(mods: &[(String, i32)]) -> i32 {
    mods.iter().map(|(_, v)| v).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: [(i32, char); 4] = [(2, 'a'), (4, 'b'), (6, 'c'), (9, 'd')];

    #[test]
    fn each_band_starts_at_its_lowest_total() {
        assert_eq!(read(&TABLE, 3), 'a');
        assert_eq!(read(&TABLE, 4), 'b');
        assert_eq!(read(&TABLE, 8), 'c');
        assert_eq!(read(&TABLE, 9), 'd');
    }

    #[test]
    fn totals_past_either_end_take_the_end_rows() {
        assert_eq!(read(&TABLE, -3), 'a');
        assert_eq!(read(&TABLE, 15), 'd');
    }

    #[test]
    fn modifiers_add_with_their_signs() {
        assert_eq!(sum(&[("a".into(), 2), ("b".into(), -3)]), -1);
    }
}
