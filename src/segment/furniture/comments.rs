//! Readers' comments under an article.
//!
//! A page copied whole ends with its readers' comments: "Tu as raison.",
//! "La carte publiée par le figaro est totalement fausse.". Each is a
//! sentence, so no rule on one line catches it, and a summary would quote
//! a reader as the news. What gives a thread away is its company: it
//! comes after the article and the site's tools (share buttons, a comment
//! form, related headlines), and readers write loosely, so among its lines
//! are some that start in lowercase or trail off in "...", which the rules
//! on one line have already marked.
//!
//! So: the page's last stretch of lines, fenced off from the article by a
//! run of furniture, in which at least a third of the lines (and two or
//! more) are such loose lines, is a thread; its other sentences are
//! comments. The article above it must be the bigger part of the page's
//! prose, so an article whose own text is loose (a transcript, a poem) is
//! never taken for a thread.

use std::ops::Range;

use super::line::Line;
use super::page::paragraphs;
use super::reason::Reason;

/// Furniture sentences in a row that fence a thread off from the article:
/// a comment form's notice and a share bar, a gallery's credits.
const MIN_FENCE_SENTENCES: usize = 3;
const MIN_LOOSE_LINES: usize = 2;

pub(super) fn comment_thread(lines: &[Line], reasons: &mut [Option<Reason>]) {
    let rows = paragraphs(lines);
    let Some(thread) = thread_rows(&rows, reasons) else { return };
    let sentences = rows[thread.start].start..rows[thread.end - 1].end;
    let prose = |range: Range<usize>| reasons[range].iter().filter(|r| r.is_none()).count();
    if prose(0..sentences.start) <= prose(sentences.clone()) {
        return;
    }
    for reason in reasons[sentences].iter_mut().filter(|r| r.is_none()) {
        *reason = Some(Reason::ReaderComment);
    }
}

/// The rows of the page's last stretch before its foot, when a fence of
/// furniture stands above them and enough of them are loose.
fn thread_rows(rows: &[Range<usize>], reasons: &[Option<Reason>]) -> Option<Range<usize>> {
    let furniture = |row: &Range<usize>| reasons[row.clone()].iter().all(Option::is_some);
    let loose = |row: &Range<usize>| reasons[row.clone()].iter().any(|r| matches!(r, Some(Reason::LowercaseStart | Reason::CutOff)));
    // The page's foot (a comment form's notice, a copyright) is not the thread.
    let end = rows.iter().rposition(|row| !furniture(row) || loose(row))? + 1;
    let (mut start, mut fence) = (end, 0);
    for k in (0..end).rev() {
        if furniture(&rows[k]) && !loose(&rows[k]) {
            fence += rows[k].len();
            if fence >= MIN_FENCE_SENTENCES {
                break;
            }
        } else {
            (start, fence) = (k, 0);
        }
    }
    let loose_rows = rows[start..end].iter().filter(|row| loose(row)).count();
    let fenced = fence >= MIN_FENCE_SENTENCES;
    (fenced && loose_rows >= MIN_LOOSE_LINES && 3 * loose_rows >= end - start).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use crate::segment::furniture::tests::paragraphs_of;
    use crate::segment::furniture::Reason;

    const ARTICLE: [&str; 5] = [
        "Les troupes du colonel Kadhafi ont échoué, dimanche, à reprendre les places fortes de la rébellion.",
        "Sur le front Est à Brega, des échanges d'artillerie ont eu lieu, a constaté un journaliste.",
        "La visite a eu lieu mardi, selon la télévision d'Etat.",
        "Le régime avait démenti ces informations, qualifiées de mensonges.",
        "L'Union africaine a tenté plusieurs médiations entre le régime et les rebelles.",
    ];

    const SHARE_BAR: [&str; 4] = ["Agrandir le texte", "Réduire le texte", "Ajouter aux favoris", "Envoyer par email"];

    fn article() -> Vec<&'static [&'static str]> {
        ARTICLE.iter().map(std::slice::from_ref).collect()
    }

    #[test]
    fn a_thread_under_the_share_bar_is_comments() {
        let mut page = article();
        page.extend(SHARE_BAR.iter().map(std::slice::from_ref));
        page.push(&["Tu as raison.", "Avec ces pays, on ne peut jamais savoir qui dit vrai."]);
        page.push(&["vous avez raison de vous méfier..."]);
        page.push(&["La carte publiée par le journal est totalement fausse."]);
        page.push(&["mon commentaire était ironique !"]);
        let r = paragraphs_of(&page);
        let n = ARTICLE.len() + SHARE_BAR.len();
        assert!(r[..ARTICLE.len()].iter().all(Option::is_none), "{r:?}");
        assert_eq!(r[n..n + 2], [Some(Reason::ReaderComment); 2]);
        assert_eq!(r[n + 3], Some(Reason::ReaderComment));
    }

    #[test]
    fn an_article_that_goes_on_below_its_tools_keeps_its_prose() {
        // One loose line is not a thread: the text below the bar is the article's.
        let mut page = article();
        page.extend(SHARE_BAR.iter().map(std::slice::from_ref));
        page.push(&["Le gouvernement a annoncé un nouveau plan pour les hôpitaux."]);
        page.push(&["et ce n'est pas tout..."]);
        page.push(&["Les syndicats ont salué une avancée, mais attendent les détails."]);
        page.push(&["Le texte sera présenté au Parlement en janvier."]);
        let r = paragraphs_of(&page);
        assert!(r.iter().all(|x| *x != Some(Reason::ReaderComment)), "{r:?}");
    }

    #[test]
    fn a_loose_page_without_a_fence_is_not_a_thread() {
        let r = paragraphs_of(&[
            &["Tu as raison."],
            &["vous avez raison de vous méfier..."],
            &["La carte publiée par le journal est totalement fausse."],
            &["mon commentaire était ironique !"],
        ]);
        assert!(r.iter().all(|x| *x != Some(Reason::ReaderComment)), "{r:?}");
    }
}
