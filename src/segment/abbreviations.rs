//! Words ending in a period that usually do not end a sentence, in the
//! languages of our news (en, es, fr, de, it, pt, nl, pl, ru, tr, and the
//! commonest of el, uk, sw, id, vi), and the words that usually open one.

/// How a word ending in `.` relates to the next piece of text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Abbreviation {
    /// Precedes a name or a phrase, never ends a sentence: `Dr.`, `e.g.`.
    Title,
    /// One capital letter: an initial when a capitalized word follows.
    Initial,
    /// `S.`: an initial (`John S. Wolf`) or, before a number, German
    /// `Seite` (`S. 12`).
    PageOrInitial,
    /// One lowercase letter: part of `z. B.`, `d. h.`, `p. 5`, `c. 1900`
    /// when a number or another letter follows, else a sentence end (`10 h.`).
    Letter,
    /// Often inside a sentence, sometimes its end: `U.S.`, `Inc.`, `etc.`.
    MayEndSentence,
    /// Before a number only: `No. 5`, `art. 3`, `Jan. 12`.
    BeforeNumber,
    /// A number with a period: a German ordinal before some nouns.
    Ordinal,
}

/// The kind of abbreviation `word` (which includes its final period) is.
pub(super) fn classify(word: &str) -> Option<Abbreviation> {
    let stem = word.strip_suffix('.')?;
    if let Some(known) = known(word) {
        return Some(known);
    }
    let mut letters = stem.chars();
    match (letters.next(), letters.next()) {
        (Some(c), None) if c.is_uppercase() => return Some(Abbreviation::Initial),
        (Some(c), None) if crate::text::is_lowercase(c) => return Some(Abbreviation::Letter),
        _ => {}
    }
    if is_dotted_acronym(stem) {
        return Some(Abbreviation::MayEndSentence);
    }
    let digits = stem.chars().all(|c| c.is_ascii_digit());
    (digits && (1..=2).contains(&stem.len())).then_some(Abbreviation::Ordinal)
}

/// `U.S`, `EE.UU`, `a.m`, `S.A`: letter groups of one or two joined by dots.
fn is_dotted_acronym(stem: &str) -> bool {
    stem.contains('.')
        && stem
            .split('.')
            .all(|group| (1..=2).contains(&group.chars().count()) && group.chars().all(char::is_alphabetic))
}

/// Whether `word` (with its period) and the start of `after` are two
/// Spanish plural initials, each a capital doubled: `EE. UU.` (the United
/// States), `FF. AA.` (the armed forces), `RR. EE.` (foreign affairs),
/// written with a space as often as without. Only as a pair: a lone `TT.`
/// or `II.` ends sentences ("according to TT.", "World War II.").
pub(super) fn pairs_plural_initials(word: &str, after: &str) -> bool {
    let doubled = |stem: &str| {
        let mut letters = stem.chars();
        matches!((letters.next(), letters.next(), letters.next()), (Some(a), Some(b), None) if a == b && a.is_uppercase())
    };
    word.strip_suffix('.').is_some_and(doubled) && after.trim_start().split_once('.').is_some_and(|(next, _)| doubled(next))
}

fn known(word: &str) -> Option<Abbreviation> {
    use Abbreviation::*;
    Some(match word {
        // English titles and ranks.
        "Mr." | "Mrs." | "Ms." | "Messrs." | "Dr." | "Drs." | "Prof." | "Gen." | "Sen." | "Sens."
        | "Rep." | "Reps." | "Gov." | "Lt." | "Col." | "Capt." | "Cmdr." | "Sgt." | "Cpl." | "Pvt."
        | "Adm." | "Maj." | "Brig." | "Pres." | "Rev." | "Hon." | "Fr." | "St." | "Ste." | "Mt." | "Ft."
        | "Supt." | "Det." | "Insp." | "Amb." | "Atty." | "Sec." => Title,
        // Spanish, Portuguese, Italian, French, German titles.
        "Sr." | "Sra." | "Srta." | "Sres." | "Dra." | "Dña." | "Lic." | "Ing." | "Arq." | "Mons."
        | "Dott." | "Sig." | "Avv." | "On." | "MM." | "Mme." | "Mlle." | "Me." | "Pr." | "Mgr." | "Hr."
        | "Hrn." | "Dipl." => Title,
        // Dutch, Polish, Turkish, Russian titles and ranks.
        "mr." | "Mr.Dr." | "drs." | "ir." | "prof." | "dr." | "mgr." | "inż." | "ks." | "gen." | "płk."
        | "mjr." | "kpt." | "asp." | "mł." | "st." | "bryg." | "mec." | "prok." | "Doç." | "Yrd."
        | "Op." | "Uzm." | "Sn." | "проф." | "акад." | "ген." => Title,
        // Polish and Dutch: streets, "among others", "about", "so-called".
        "ul." | "Ul." | "al." | "Al." | "pl." | "os." | "m.in." | "ok." | "tzw." | "godz." | "woj." | "pow." | "gm."
        | "im." | "np." | "tj." | "zob." | "ds." | "jw." | "wg." | "ws." | "bl." | "m.b.t." => Title,
        // Greek: Mr, Dr, Professor, Saint, street, e.g., i.e.; Ukrainian:
        // street, region, named after; Swahili: Dr, Mr, Mrs, the Honourable;
        // Indonesian: engineer, Hajja, street, regency, district; Vietnamese:
        // city, professor, associate professor, doctor (PhD), master ("TP.
        // Hồ Chí Minh", "PGS. Nguyễn …"). Not "BS." (a physician), an
        // English word.
        "κ." | "Δρ." | "Καθ." | "Αγ." | "οδ." | "π.χ." | "δηλ." | "вул." | "обл." | "ім." | "Dkt." | "Bw."
        | "Bi." | "Mhe." | "Ir." | "Hj." | "Jl." | "Kab." | "Kec." | "TP." | "Tp." | "GS." | "PGS." | "TS."
        | "ThS." => Title,
        // A Polish photo credit: "Fot. Karol Makurat / Reporter".
        "Fot." | "fot." => Title,
        // Phrases that are always followed by more: e.g., ca., z.B., т.е.
        // "v." as in court cases ("Roe v. Wade"), and "véase" in Spanish.
        "v." | "e.g." | "i.e." | "cf." | "vs." | "viz." | "approx." | "ca." | "cca." | "aprox." | "p.ej."
        | "z.B." | "d.h." | "u.a." | "bzw." | "vgl." | "sog." | "ggf." | "evtl." | "inkl." | "zzgl."
        | "bspw." | "usf." | "т.е." | "т.к." | "т.н." | "им." | "ул." | "см." | "пр." => Title,
        // Endings of lists, company names, times, places, years.
        "etc." | "usw." | "etw." | "Inc." | "Corp." | "Ltd." | "Co." | "Cos." | "Bros." | "Jr." | "Esq."
        | "Plc." | "Ave." | "Blvd." | "Rd." | "Dept." | "Univ." | "Cía." | "Hnos." | "Av." | "Avda."
        | "Ltda." | "Mio." | "Mrd." | "Tsd." | "г." | "гг." | "в." | "вв." | "др." | "тыс." | "млн."
        | "млрд." | "тис." | "εκατ." | "δισ." | "χλμ." | "κ.ά." | "κλπ." | "n.k." | "dll."
        | "dsb." | "Tbk." => MayEndSentence,
        // Before numbers: numbers, articles, pages, months, a match's
        // minute ("Durán (Lucas Aranda, min. 71)").
        "min." | "Min." | "No." | "Nos." | "no." | "Nr." | "nr." | "Nº." | "nº." | "núm." | "Núm." | "art." | "Art."
        | "arts." | "Abs." | "pp." | "pág." | "págs." | "Pág." | "vol." | "Vol." | "fig." | "Fig."
        | "tel." | "Tel." | "Jan." | "Feb." | "Febr." | "Mar." | "Apr." | "Jun." | "Jul." | "Aug."
        | "Sep." | "Sept." | "Oct." | "Okt." | "Nov." | "Dec." | "Dez." | "ene." | "feb." | "abr."
        | "ago." | "dic." | "janv." | "févr." | "avr." | "juil." | "sept." | "oct." | "nov." | "déc." => {
            BeforeNumber
        }
        "S." => PageOrInitial,
        _ => return None,
    })
}

/// Nouns that follow a German ordinal (`am 3. Oktober`, `im 2. Weltkrieg`,
/// `der 1. FC Köln`).
#[rustfmt::skip]
pub(super) fn is_ordinal_noun(word: &str) -> bool {
    matches!(
        word,
        "Januar" | "Jänner" | "Februar" | "März" | "April" | "Mai" | "Juni" | "Juli" | "August"
            | "September" | "Oktober" | "November" | "Dezember" | "Jahrhundert" | "Jahrhunderts"
            | "Jahrestag" | "Weltkrieg" | "Weltkriegs" | "Platz" | "Mal" | "Runde" | "Liga" | "Klasse"
            | "Stock" | "Spieltag" | "Bundesliga" | "Legislaturperiode" | "Quartal" | "Halbjahr"
            | "Halbzeit" | "Hälfte" | "Stelle" | "Tag" | "Woche" | "Lesung" | "Instanz" | "Geburtstag"
            | "Todestag" | "FC"
            // Turkish ordinals: "İskenderun 2. Ağır Ceza Mahkemesi", "2. Dünya Savaşı", "1. Lig".
            | "Ağır" | "Asliye" | "Dünya" | "Lig" | "Bölge" | "Ordu" | "Kolordu"
            // Polish: "2. Dywizja", "1. Brygada", "6. Mazowieckiej Brygady".
            | "Dywizja" | "Brygada" | "Pułk" | "Dywizji" | "Dywizję" | "Dywizją" | "Brygady" | "Brygadzie"
            | "Brygadę" | "Brygadą" | "Pułku" | "Batalion" | "Batalionu" | "Flotylla" | "Flotylli"
    )
}

/// Words that commonly open a sentence, so that an abbreviation before them
/// (`… in the U.S. The …`) ends the sentence.
#[rustfmt::skip]
pub(super) fn is_sentence_opener(word: &str) -> bool {
    matches!(
        word,
        // English
        "The" | "A" | "An" | "This" | "That" | "These" | "Those" | "It" | "He" | "She" | "They"
            | "We" | "I" | "You" | "His" | "Her" | "Its" | "Their" | "Our" | "There" | "In" | "On"
            | "At" | "But" | "And" | "So" | "Yet" | "However" | "Meanwhile" | "After" | "When"
            | "If" | "As" | "Some" | "Many" | "Most" | "Once" | "While" | "Although" | "Because"
            | "Since" | "Still" | "Then" | "Now" | "Today" | "Yesterday" | "Last" | "Earlier"
            | "Later" | "For" | "With" | "By" | "From" | "Despite" | "Under" | "Both" | "Each"
            | "All" | "No" | "Not" | "What" | "Who" | "Why" | "How" | "Where" | "My" | "Your"
            | "One" | "Two" | "Three"
            // Spanish, Portuguese, Italian
            | "El" | "La" | "Los" | "Las" | "Un" | "Una" | "Este" | "Esta" | "Estos" | "Ese"
            | "Esa" | "Eso" | "Ello" | "Él" | "Ella" | "Ellos" | "En" | "Pero" | "Según" | "Sin"
            | "Tras" | "O" | "Os" | "Um" | "Uma" | "Ele" | "Il" | "Lo" | "Gli" | "Le" | "Ma"
            // French
            | "Les" | "Une" | "Ce" | "Cette" | "Ces" | "Elle" | "Ils" | "Elles" | "Nous" | "Mais"
            | "Selon" | "Pour" | "Dans" | "Depuis" | "Après"
            // German, Dutch
            | "Der" | "Die" | "Das" | "Ein" | "Eine" | "Er" | "Sie" | "Es" | "Wir" | "Ich" | "Im"
            | "Am" | "Auch" | "Aber" | "Nach" | "Diese" | "Dieser" | "Dies" | "De" | "Het" | "Een"
            // Russian
            | "Он" | "Она" | "Они" | "Это" | "В" | "На" | "По" | "Но"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use Abbreviation::*;

    #[test]
    fn classifies_words() {
        assert_eq!(classify("Dr."), Some(Title));
        assert_eq!(classify("Sra."), Some(Title));
        assert_eq!(classify("W."), Some(Initial));
        assert_eq!(classify("В."), Some(Initial));
        assert_eq!(classify("z."), Some(Letter));
        assert_eq!(classify("U.S."), Some(MayEndSentence));
        assert_eq!(classify("EE.UU."), Some(MayEndSentence));
        assert_eq!(classify("TT."), None);
    }

    #[test]
    fn spanish_plural_initials_pair_up() {
        assert!(pairs_plural_initials("EE.", " UU., aseguró"));
        assert!(pairs_plural_initials("FF.", "AA. desfilaron"));
        assert!(!pairs_plural_initials("TT.", " Goteborg has about 435,000 people."));
        assert!(!pairs_plural_initials("II.", " ``This Dec. 31"));
        assert!(!pairs_plural_initials("EU.", " UU."));
        assert_eq!(classify("etc."), Some(MayEndSentence));
        assert_eq!(classify("No."), Some(BeforeNumber));
        assert_eq!(classify("min."), Some(BeforeNumber));
        assert_eq!(classify("3."), Some(Ordinal));
        assert_eq!(classify("2019."), None);
        assert_eq!(classify("said."), None);
        assert_eq!(classify("Dr"), None);
        assert_eq!(classify("2.5."), None);
    }
}
