"""A cheap, conservative first look at a text's language, before the detector.

The language check only warns when the detector is confident a text is in another of the game's languages. A text
that plainly shows its own language cannot be that: several of its language's *distinctive* function words and not
one distinctive word of any other language the detector knows. Such a text is accepted here without the detector
(which costs 120-230 µs of CPU a text: 80,000 texts in a pack of 10,000 cards); every other text goes to the
detector exactly as before, so a doubtful text is never let through.

Why the lists are distinctive: :data:`FUNCTION_WORDS` are each language's articles, pronouns, possessives,
prepositions, conjunctions and commonest verb forms (what every sentence is made of, whatever the card says).
A language's distinctive words are its own list minus every other language's list, computed below, so a word that
is a word in two languages (``de``, ``la``, ``a``, ``en``, ``no``, ``es``, ``per``, ``on``, ``us``, ``sota``) counts
for none of them. The lists hold homographs on purpose (English ``per``, ``sense``, ``hi``; Spanish ``sota``, the
card) and the letters left of elisions (``d'un``, ``player's``, ``don't``): they exist to be subtracted. The
English list leaves out the pronoun ``I`` so that Catalan ``i`` (and) stays distinctive: an English text that says
``I`` says ``the``, ``you`` or ``and`` too, which refuses it.
"""

from __future__ import annotations

from collections.abc import Sequence

MIN_HITS = 3
"""Distinctive words of the expected language a text needs to be accepted without the detector."""
MIN_SHARE = 1 / 10
"""...and the share of the text's words they must be at least: a long text with a few of them and many
words no list knows (another language's nouns and verbs) goes to the detector."""

FUNCTION_WORDS: dict[str, str] = {
    "en": """the a an and or nor but of to from with without for on in at by into onto over under up out off about
        after before while until when then than if unless each every any all both either neither no not only
        also so as too very more most much many one two three you your yours yourself he him his she her hers it
        its they them their theirs we us our ours me my mine this that these those there here which who whom
        whose what where why how is are was were be been being am have has had do does did may might can could
        must shall should will would again once still even already per sense hi com fins s t d ll re ve m em cap
        pot molt con solo hay sin uno ya car pour plus par dont die met er mag""",
    "ca": """el la els les un una uns unes l i o ni però perquè de del dels al als a en amb per que què qui quin
        quina on com quan si sí no tu teu teua teva teus teues teves ton ta tes meu meua meva meus seu seua seva
        seus seues seves aquest aquesta aquests aquestes aquell aquella això allò ja també després abans mentre
        fins sota sobre davant darrere cap cada tot tota tots totes tothom ningú algú res més menys molt molta
        molts és són era eren ha han hi ho li es se s em et ens us vos jo ell ella ells elles nosaltres
        vosaltres encara només doncs sense entre des segons contra mai sempre pot poden fa fer va van vaig tret
        d n m t este esta estos estes eixe eixa eixos eixes sa ses he has""",
    "es": """el la los las lo un una unos unas uno y e o u ni pero porque de del al a en con por para que qué quien
        quién cual cuál donde dónde como cómo cuando si sí no tu tú tus te ti mi mis su sus este esta estos
        estas ese esa esos esas eso esto aquel aquella ya también después antes mientras hasta bajo sobre
        delante debajo detrás cada todo toda todos todas nadie alguien nada más menos muy mucho mucha muchos es
        son era eran ha han hay le les se me nos os yo él ella ellos ellas nosotros vosotros aún todavía solo
        sólo entonces luego sin entre desde según contra nunca siempre puede pueden hace va van aunque ningún
        ninguna ninguno alguno sota res as he has""",
    "fr": """le la les l un une des du de d et ou où mais ni car donc à au aux en avec par pour que qu qui quoi quel
        quelle ne n pas plus jamais rien personne si tu te toi ton ta tes vous votre vos nous notre nos je j il
        elle ils elles on son sa ses leur leurs ce c cet cette ces ceci cela ça déjà aussi après avant pendant
        jusqu sous sur devant derrière chaque tout toute tous toutes quelqu très est sont était a ont y lui se s
        me m moi comme encore seulement puis sans entre depuis selon contre toujours peut peuvent fait va vont
        sauf lors dont même t mai""",
    "nl": """de het een en of maar van in op met voor aan door bij uit naar over te dat die dit deze is zijn was
        waren je jij jouw u uw ik hij zij ze we wij ons onze hun niet geen als wanneer dan ook nog al elk elke
        ieder alle alles niemand iets niets meer zeer heel er hier daar wordt worden kan kunnen mag moet zal na
        voordat tot onder tegen zonder ja""",
}

_WORDS = {language: frozenset(words.split()) for language, words in FUNCTION_WORDS.items()}
DISTINCTIVE: dict[str, frozenset[str]] = {
    language: words.difference(*(other for name, other in _WORDS.items() if name != language))
    for language, words in _WORDS.items()}
"""Each language's function words that are no function word of another language."""
_OTHERS: dict[str, frozenset[str]] = {
    language: frozenset().union(*(other for name, other in DISTINCTIVE.items() if name != language))
    for language in DISTINCTIVE}
"""For each language, the distinctive words of every other language: one of them refuses a text."""


def plainly_in(words: str | Sequence[str], language: str) -> bool:
    """True when ``words`` (lower-case letter runs, as the detector reads them, or those runs joined by spaces)
    plainly show ``language``: at least :data:`MIN_HITS` of its distinctive words, at least :data:`MIN_SHARE`
    of all words, and no distinctive word of any other language."""
    own = DISTINCTIVE.get(language)
    if own is None:
        return False
    split = words.split() if isinstance(words, str) else words
    if not _OTHERS[language].isdisjoint(split):
        return False
    hits = sum(map(own.__contains__, split))
    return hits >= MIN_HITS and hits >= MIN_SHARE * len(split)
