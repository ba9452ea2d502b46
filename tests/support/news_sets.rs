//! Deterministic DUC-style evaluation sets: a peer summary and four
//! references per set, each a few news sentences of roughly 100 words,
//! drawn from built-in templates about one topic per set. The text has what
//! trips ROUGE implementations up: capitals, numbers such as 2.5, 1,000,
//! 12.5% and $1.2 billion, dates, hyphens, apostrophes, ``DUC quotes'',
//! parentheses, repeated words, inflected forms for the stemmer, irregular
//! forms from the WordNet exception list, a few non-ASCII characters
//! (é, ñ, —, no-break space), lines starting with blanks, and empty lines.

/// SplitMix64: small, seedable, and the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `low..high`.
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high - low)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.range(0, 100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() as u64) as usize]
    }
}

/// One evaluation set: the peer and its references, one string per sentence.
pub struct NewsSet {
    pub peer: Vec<String>,
    pub references: Vec<Vec<String>>,
}

struct Topic {
    people: [&'static str; 2],
    places: [&'static str; 2],
    country: &'static str,
    organization: &'static str,
    event: &'static str,
}

#[rustfmt::skip]
const TOPICS: &[Topic] = &[
    Topic { people: ["Nelson Mandela", "Thabo Mbeki"], places: ["Johannesburg", "Pretoria"], country: "South Africa", organization: "African National Congress", event: "bombing" },
    Topic { people: ["Carlos Flores", "Maria Hernandez"], places: ["Tegucigalpa", "San Pedro Sula"], country: "Honduras", organization: "Red Cross", event: "hurricane" },
    Topic { people: ["Boris Yeltsin", "Yevgeny Primakov"], places: ["Moscow", "St. Petersburg"], country: "Russia", organization: "Kremlin", event: "financial crisis" },
    Topic { people: ["Kofi Annan", "Richard Butler"], places: ["Baghdad", "Basra"], country: "Iraq", organization: "United Nations", event: "weapons inspection" },
    Topic { people: ["Augusto Pinochet", "Baltasar Garzon"], places: ["London", "Santiago"], country: "Chile", organization: "House of Lords", event: "arrest" },
    Topic { people: ["Bill Gates", "Janet Reno"], places: ["Seattle", "Washington"], country: "the United States", organization: "Microsoft", event: "antitrust trial" },
    Topic { people: ["Benjamin Netanyahu", "Yasser Arafat"], places: ["Jerusalem", "Gaza"], country: "Israel", organization: "Palestinian Authority", event: "peace talks" },
    Topic { people: ["Hun Sen", "Norodom Ranariddh"], places: ["Phnom Penh", "Siem Reap"], country: "Cambodia", organization: "Khmer Rouge", event: "election" },
    Topic { people: ["Jiang Zemin", "Zhu Rongji"], places: ["Beijing", "Wuhan"], country: "China", organization: "flood-control committee", event: "flood" },
    Topic { people: ["Slobodan Milosevic", "Ibrahim Rugova"], places: ["Pristina", "Belgrade"], country: "Yugoslavia", organization: "NATO", event: "offensive" },
    Topic { people: ["Conor O'Brien", "Jean-Marie Lefevre"], places: ["Belfast", "Dublin"], country: "Northern Ireland", organization: "Sinn Fein", event: "car bombing" },
    Topic { people: ["Alberto Fujimori", "José Pérez"], places: ["Lima", "Cuzco"], country: "Peru", organization: "El Niño task force", event: "mudslide" },
];

/// Sentence templates: `[a|b]` picks one alternative, `{SLOT}` is filled
/// from the topic or a number drawn for it.
const TEMPLATES: &[&str] = &[
    "{P1}, the {ORG} [spokesman|spokeswoman|chief], [said|says|told reporters] on {DAY} that at least {BIG} people [were killed|had died|died] in the {EVENT}.",
    "``We are [doing|going to do] everything we can,'' {L1} [said|told reporters|added], [standing|speaking] outside the [ministry|hospital|courthouse] in {PLACE}.",
    "The {EVENT} [struck|hit] {PLACE} on {DATE}, {YEAR}, [destroying|damaging] [more than|nearly|about] {BIG} [homes|houses|buildings].",
    "[Officials|Authorities|Relief agencies] [estimated|estimate] the damage at {MONEY}, [or|roughly] {DEC} percent of the country's economic output.",
    "Prices [rose|jumped|fell] {PCT} to ${DEC} a [share|barrel|gallon] (the [highest|lowest] level since {YEAR}).",
    "The U.S.-led [coalition|alliance] [said|announced] it would send {SMALL} [planes|ships|aid convoys] to {PLACE} [within|in] {SMALL} days.",
    "{P2}, a {AGE}-year-old [resident|farmer|teacher], [said|recalled] the water [rose|was rising] [very|so] fast that the children [had|were forced] to climb onto the roof.",
    "In a [statement|letter|televised address], {L2} [called|described] the [agreement|agreements|deal] ``a long-term [solution|step] to a [very, very|very] old problem.''",
    "[Critics|Opponents] [argued|argue] that the [government's|ministry's] [response|reaction] was [slow|too slow|inadequate] and [poorly|badly] [organized|coordinated].",
    "The {ORG} [has|had] [asked|appealed] for {MONEY} in [emergency|international] [aid|assistance] — [mainly|mostly] [food|tents|medicine] and [clean|drinking] water.",
    "[Negotiators|Diplomats] [met|were meeting] again on {DAY} in {PLACE}, but the talks [broke down|collapsed|stalled] after {SMALL} hours.",
    "{L1}'s [party|coalition|allies] [won|took|captured] {PCT} of the vote, [according to|based on] [official|preliminary] results [released|published] on {DATE}.",
    "[Thousands|Hundreds] of [people|protesters|demonstrators] [marched|rallied|gathered] [through|in] the capital, [chanting|shouting] ``[Peace now|No more war|Down with corruption]!''",
    "Police [arrested|detained] {SMALL} [suspects|men|people], [aged|ages] 19 to {AGE}, [in connection with|over] the [attack|bombing|shooting].",
    "The [court|judge|tribunal] [ruled|decided] that the [evidence|testimony] was [insufficient|not enough] and [ordered|demanded] a new [trial|hearing] (the [second|third] since {YEAR}).",
    "[Doctors|Health officials] [said|reported] {BIG} [cases|infections] [had been|were] [confirmed|recorded], [including|among them] {SMALL} [children|women|elderly people].",
    "[Analysts|Economists] [expect|expected] growth of {DEC}% [this year|next year|in {YEAR}], [down|up] from {DEC}% [a year earlier|last year].",
    "It was the [worst|deadliest|largest] {EVENT} [to hit|in] {COUNTRY} [since|in more than] {SMALL} [years|decades].",
    "The [rescue|relief] [effort|operation] was [hampered|slowed] by [heavy|continuing] [rain|rains], [broken|damaged] roads and [downed|fallen] power lines.",
    "[President|Prime Minister] {P1} [visited|toured] the [area|region|damaged areas] on {DAY} and [promised|pledged] to [rebuild|help rebuild] [every|each] [school|village|town].",
    "[Meanwhile|However|Separately], {ORG} [officials|leaders] [denied|rejected] [reports|allegations|claims] that [they|the group] had [ignored|missed] [early|repeated] warnings.",
    "Some {BIG} [soldiers|troops|police officers] were [deployed|sent] to [keep|maintain] order, [and|while] a [curfew|state of emergency] [remained|was] in [effect|place].",
    "``I [don't|do not] know [where|how] we [will|are going to] [live|go] now,'' said {P2}, whose [house|home|shop] was [destroyed|washed away].",
    "The [vote|referendum|election] [is|was] [scheduled|expected|set] for {DATE}, [but|although] [opposition|rival] [groups|parties] [have threatened|threatened] a boycott.",
    "[By|As of] {DAY} [night|morning|evening], the [official|confirmed] death toll [stood at|had risen to|reached] {BIG}, with {BIG} [missing|still missing|unaccounted for].",
    "The [companies|two companies|firms] [agreed|have agreed] to [merge|combine] in a [stock|cash-and-stock] [deal|transaction] [valued|worth] at {MONEY}.",
    "[Shares|Stock] of {ORG} [rose|climbed|gained] {DEC} [percent|%] [on|in] [heavy|active] trading after the [news|announcement].",
    "[Scientists|Researchers] [warned|cautioned] that [aftershocks|further storms|more flooding] [could|might] [follow|come] in the [coming|next] [days|weeks].",
    "{L1} [was|had been] [accused|charged] of [corruption|fraud|abuse of power] [and|but] [has|had] [denied|repeatedly denied] [any|all] [wrongdoing|charges].",
    "The [decision|ruling|move] [drew|prompted|sparked] [sharp|strong|angry] [criticism|protests|reactions] from [neighboring|western|regional] [governments|countries].",
    "[More than|Over|Nearly] {BIG} [people|residents|families] [fled|were evacuated|left] [their homes|the area] [before|as] the [storm|water|fighting] [arrived|approached|reached] {PLACE}.",
    "[Relief|Aid] [workers|groups] [said|warned] the [survivors|victims|refugees] [needed|lacked|still need] [food|shelter], [blankets|medicine] and [clean water|drinking water].",
    "The [measure|bill|plan] [passed|was approved] by a vote of {SMALL}-{SMALL} [after|following] a [long|heated|all-night] debate.",
    "[Investigators|Officials] [have not|had not] [determined|said] [what|exactly what] [caused|triggered] the [crash|fire|explosion].",
    "{L2}, whom [many|critics|supporters] [regard|regarded] as a [moderate|reformer|hard-liner], [is|was] [expected|likely] to [run|stand] again in {YEAR}.",
    "[Señor|Mr.] {L2} [said|insisted] the [café|market|hotel] [owners|workers] [would|will] [be compensated|receive compensation].",
    "The [report|study|survey] [found|showed] that {PCT} of [households|families|voters] [had|have] [little|no] confidence in [the|basic] [services|institutions].",
    "Officials said the [number|toll] was [likely|expected] to [rise|climb|grow] [further|sharply] as [rescuers|crews] [reach|reached] [remote|isolated] [villages|areas].",
    "The [children|students|victims] were [taken|flown|rushed] to [hospitals|clinics] in {PLACE} and [nearby|neighboring] {PLACE2}.",
    "There [is|was] [no|little] doubt that the [crisis|conflict|disaster] [will|would] [shape|affect|dominate] [politics|the economy|the region] for [years|decades|a generation].",
    "[Women|Men|Mice|Geese] [and|or] [children|oxen|wolves] were [found|seen|left] [better|best] [off|fed] than [feared|expected], [officials|witnesses] [said|told|wrote].",
    "[Talks|Fighting|Rain] went on [again and again|more and more|day after day], and [the|these] [crises|analyses|data] [were|are] [written|taken|given] [seriously|lightly].",
];

use precis::text::thousands as format_thousands;

fn last_name(full: &str) -> &str {
    full.rsplit(' ').next().unwrap_or(full)
}

/// The value of `{slot}`: topic facts, or numbers, dates and amounts drawn
/// from a per-set generator so peer and references often share them.
fn slot(name: &str, topic: &Topic, numbers: &mut Rng) -> String {
    const DAYS: &[&str] = &[
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    const MONTHS: &[&str] = &[
        "Jan.", "Feb.", "March", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec.",
    ];
    match name {
        "P1" => topic.people[0].to_string(),
        "P2" => topic.people[1].to_string(),
        "L1" => last_name(topic.people[0]).to_string(),
        "L2" => last_name(topic.people[1]).to_string(),
        "PLACE" => topic.places[0].to_string(),
        "PLACE2" => topic.places[1].to_string(),
        "COUNTRY" => topic.country.to_string(),
        "ORG" => topic.organization.to_string(),
        "EVENT" => topic.event.to_string(),
        "DAY" => numbers.pick(DAYS).to_string(),
        "DATE" => format!("{} {}", numbers.pick(MONTHS), numbers.range(1, 29)),
        "YEAR" => numbers.range(1985, 2000).to_string(),
        "SMALL" => numbers.range(2, 40).to_string(),
        "AGE" => numbers.range(20, 80).to_string(),
        "BIG" => {
            let n = numbers.range(6, 2500) * *numbers.pick(&[1, 10, 100]);
            format_thousands(n)
        }
        "DEC" => format!("{}.{}", numbers.range(0, 12), numbers.range(1, 10)),
        "PCT" => format!("{}.{}%", numbers.range(1, 60), numbers.range(0, 10)),
        "MONEY" => match numbers.range(0, 3) {
            0 => format!("${}.{} billion", numbers.range(1, 20), numbers.range(1, 10)),
            1 => format!("${} million", numbers.range(5, 900)),
            _ => format!("${}", format_thousands(numbers.range(1000, 90000))),
        },
        _ => panic!("unknown slot {{{name}}}"),
    }
}

/// Fills `[a|b]` choices with `rng` and `{SLOT}`s from `numbers`.
fn fill(template: &str, topic: &Topic, rng: &mut Rng, numbers: &mut Rng) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find(['[', '{']) {
        out.push_str(&rest[..start]);
        let close = if rest.as_bytes()[start] == b'[' { ']' } else { '}' };
        let end = start + rest[start..].find(close).expect("closed");
        let inner = &rest[start + 1..end];
        if close == ']' {
            let options: Vec<&str> = inner.split('|').collect();
            let choice = *rng.pick(&options);
            out.push_str(&fill(choice, topic, rng, numbers));
        } else {
            out.push_str(&slot(inner, topic, numbers));
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Whitespace-separated words, as ROUGE-1.5.5's `-l` counts them.
fn word_count(sentences: &[String]) -> usize {
    sentences.iter().map(|s| s.split_whitespace().count()).sum()
}

/// A summary of at least `target_words` words: template sentences in random
/// order, with the odd layout quirk news files have.
fn summary(topic: &Topic, target_words: usize, rng: &mut Rng, set_seed: u64) -> Vec<String> {
    let mut order: Vec<usize> = (0..TEMPLATES.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.range(0, i as u64 + 1) as usize);
    }
    let mut sentences = Vec::new();
    for &template in &order {
        if word_count(&sentences) >= target_words {
            break;
        }
        // Numbers are shared with the other summaries of the set four times in five.
        let number_seed = if rng.chance(80) { set_seed } else { rng.next_u64() };
        let mut numbers = Rng::new(number_seed ^ template as u64);
        sentences.push(quirks(fill(TEMPLATES[template], topic, rng, &mut numbers), rng));
        if rng.chance(4) {
            sentences.push(if rng.chance(50) {
                String::new()
            } else {
                "   ".to_string()
            });
        }
    }
    sentences
}

/// Leading blanks, tabs and no-break spaces now and then.
fn quirks(sentence: String, rng: &mut Rng) -> String {
    match rng.range(0, 40) {
        0 => format!(" {sentence}"),
        1 => format!("\t{sentence}  "),
        2 => sentence.replacen(' ', "\u{a0}", 1),
        3 => sentence.replacen(' ', "  ", 2),
        _ => sentence,
    }
}

/// `count` sets, the same for the same `seed`.
pub fn generate(count: usize, seed: u64) -> Vec<NewsSet> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let topic = rng.pick(TOPICS);
            let set_seed = rng.next_u64();
            let peer_words = rng.range(85, 140) as usize;
            let peer = summary(topic, peer_words, &mut rng, set_seed);
            let references = (0..4)
                .map(|_| {
                    let words = rng.range(80, 130) as usize;
                    summary(topic, words, &mut rng, set_seed)
                })
                .collect();
            NewsSet { peer, references }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_get_commas() {
        assert_eq!(format_thousands(999), "999");
        assert_eq!(format_thousands(1000), "1,000");
        assert_eq!(format_thousands(250000), "250,000");
    }
}
