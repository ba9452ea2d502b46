//! Site boilerplate learned from news pages (`../boilerplate.txt`): a line
//! is looked up by the hash of its key.

use crate::segment::line_key::{key_hash, line_key};

/// Site boilerplate (`boilerplate.txt`, read and pruned by hand), as the
/// sorted hashes of its lines' keys, which build.rs computes.
const BOILERPLATE: &[u64] = &include!(concat!(env!("OUT_DIR"), "/boilerplate_hashes.rs"));

pub(super) fn boilerplate(text: &str) -> bool {
    BOILERPLATE.binary_search(&key_hash(&line_key(text))).is_ok()
}

#[cfg(test)]
mod tests {
    use super::{boilerplate, BOILERPLATE};
    use crate::segment::furniture::Reason;
    use crate::segment::furniture::tests::page;

    #[test]
    fn site_boilerplate_learned_from_train_pages() {
        let lines = [
            "Breaking News Emails Get breaking news alerts and special reports.",
            "The governor signed the budget into law on Tuesday afternoon.",
            "You can unsubscribe at any time.",
            "Starting in 1996, Alexa Internet has been donating their crawl data to the Internet Archive.",
            "He did not elaborate.",
        ];
        let r = page(&lines);
        assert_eq!(r, [Some(Reason::Boilerplate), None, Some(Reason::Boilerplate), Some(Reason::Boilerplate), None]);
        // Case, spacing and punctuation do not matter.
        assert!(boilerplate("you can UNSUBSCRIBE at any time"));
    }

    #[test]
    fn the_boilerplate_table_is_the_lists_hashes() {
        let list = include_str!("../boilerplate.txt");
        assert_eq!(BOILERPLATE, crate::segment::line_key::hashed_lines(list).as_slice());
        assert!(BOILERPLATE.len() > 200);
        for line in list.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            assert!(boilerplate(&line.to_uppercase()), "{line}");
        }
    }
}
