"""One reading per message in the user's language (issue 35, item 1): intents, facts in the
user's words, consent, privacy, corrections, facts inside questions, replies; the neutral
reading for a language without a table; properties over arbitrary text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.language import Intent, ReaderSettings, get_reader, lexicon, read_message, read_reply
from openclaw_tui.language.lexicon import fold

S, Q, R, F, N, C, T, U = (Intent.STATEMENT, Intent.QUESTION, Intent.REMEMBER, Intent.FILE_CHANGE, Intent.DO_NOT_KEEP,
                          Intent.CORRECTION, Intent.SMALL_TALK, Intent.UNKNOWN)

# (language, message, intent, facts exactly)
CASES = [
    # English: the behaviour the product relied on before the reader (session/notes.py's table)
    ("en", "My VPN host is vpn-east.acme.io.", S, ["My VPN host is vpn-east.acme.io."]),
    ("en", "Remember that my cat is called Miso.", R, ["My cat is called Miso."]),
    ("en", "keep in mind: the gate code is 4471", R, ["The gate code is 4471"]),
    ("en", "The budget for Q3 is $48,500. What can we buy?", Q, ["The budget for Q3 is $48,500."]),
    ("en", "What is my VPN host?", Q, []),
    ("en", "Read USER.md for me", Q, []),
    ("en", "Thanks, that helps!", T, []),
    ("en", "Nice weather today, isn't it", T, []),
    ("en", "I prefer tea over coffee.", S, ["I prefer tea over coffee."]),
    ("en", "We signed the lease yesterday.", S, ["We signed the lease yesterday."]),
    ("en", "Priya Raman is our on-call lead.", S, ["Priya Raman is our on-call lead."]),
    ("en", "Can you remember that I prefer tea?", R, ["I prefer tea."]),
    ("en", "Could you please make a note that the gate code is 4471?", R, ["The gate code is 4471."]),
    ("en", "I want you to remember that Ana is my sister.", R, ["Ana is my sister."]),
    ("en", "Remember that when I travel I prefer aisle seats.", R, ["When I travel I prefer aisle seats."]),
    ("en", "Remember what I said about the budget?", Q, []),
    ("en", "remember when the migration is", Q, []),
    ("en", "Can you remember what my VPN host is?", Q, []),
    ("en", "Do you remember my VPN host?", Q, []),
    ("en", "Please update the note in MEMORY.md about the logo colour", F, []),
    ("en", "Let me think about that for a moment.", T, []),
    ("en", "Since my flight LH 402 lands at 9:40, can I still make the 11:00 meeting?", Q, ["My flight LH 402 lands at 9:40"]),
    ("en", "My PIN is 4471, don't write that down.", N, []),
    ("en", "Off the record, the merger closes on May 3.", N, []),
    ("en", "Correction: the offsite moved to Friday.", C, ["The offsite moved to Friday."]),
    ("en", "The call is at 5 p.m. with Dr. Moreau.", S, ["The call is at 5 p.m. with Dr. Moreau."]),
    ("en", "Actually, the launch is on March 3.", C, ["The launch is on March 3."]),  # the cue only is cut
    ("en", "Hey, how are you?", T, []),
    # Spanish
    ("es", "Prefiero el té.", S, ["Prefiero el té."]),
    ("es", "¿Puedes recordar que prefiero té?", R, ["Prefiero té."]),
    ("es", "¿Dónde está mi pasaporte?", Q, []),
    ("es", "Mi PIN es 4411, no lo apuntes.", N, []),
    ("es", "Corrección: la reunión se movió al viernes.", C, ["La reunión se movió al viernes."]),
    ("es", "¡Muchas gracias!", T, []),
    ("es", "Escribe una nota corta en el archivo notas.md.", F, []),
    ("es", "Como mi vuelo IB 3170 aterriza a las 9:40, ¿llego a la reunión de las 11?", Q,
     ["Mi vuelo IB 3170 aterriza a las 9:40"]),
    ("es", "Mi dentista es la Dra. Ruiz, en la calle Mayor 12.", S, ["Mi dentista es la Dra. Ruiz, en la calle Mayor 12."]),
    # German
    ("de", "Das Wetter ist heute schön.", S, []),  # a remark of the moment: a statement, nothing kept (bench/data/README.md)
    ("de", "Schreib eine kurze Notiz in die Datei notes.md.", F, []),
    ("de", "Merk dir, dass mein Zahnarzt Dr. Weber heißt.", R, ["Mein Zahnarzt Dr. Weber heißt."]),
    ("de", "Wann ist mein Zahnarzttermin?", Q, []),
    ("de", "Meine PIN ist 1234, schreib das nicht auf.", N, []),
    ("de", "Danke, super!", T, []),
    ("de", "Korrektur: das Offsite ist am Freitag.", C, ["Das Offsite ist am Freitag."]),
    ("de", "Da mein Flug LH 402 um 9:40 landet, schaffe ich noch das Meeting um 11?", Q,
     ["Mein Flug LH 402 um 9:40 landet"]),
    # French
    ("fr", "Mon dentiste est le Dr. Moreau, rue Cler 12.", S, ["Mon dentiste est le Dr. Moreau, rue Cler 12."]),
    ("fr", "Rappelle-toi que je préfère le thé.", R, ["Je préfère le thé."]),
    ("fr", "Quand est mon rendez-vous chez le dentiste ?", Q, []),
    ("fr", "Mon code est 8812, ne le note pas.", N, []),
    ("fr", "Merci beaucoup !", T, []),
    ("fr", "Salut, ça va ?", T, []),
    ("fr", "En fait, le lancement est le 3 mars.", C, ["Le lancement est le 3 mars."]),
    ("fr", "Ajoute une ligne au fichier todo.md.", F, []),
    # Portuguese
    ("pt", "Prefiro café sem açúcar.", S, ["Prefiro café sem açúcar."]),
    ("pt", "Você pode lembrar que a minha irmã se chama Ana?", R, ["A minha irmã se chama Ana."]),
    ("pt", "Onde fica o escritório novo?", Q, []),
    ("pt", "Minha senha é 5521, não anote isso.", N, []),
    ("pt", "Obrigado!", T, []),
    # Italian
    ("it", "Preferisco il tè verde.", S, ["Preferisco il tè verde."]),
    ("it", "Ricordati che il mio dentista è il dott. Bianchi.", R, ["Il mio dentista è il dott. Bianchi."]),
    ("it", "Quando parte il treno per Milano?", Q, []),
    ("it", "Il mio PIN è 7788, non scriverlo.", N, []),
    ("it", "Grazie mille!", T, []),
    ("it", "Correzione: la riunione è stata spostata a venerdì.", C, ["La riunione è stata spostata a venerdì."]),
]


@pytest.mark.parametrize(("lang", "text", "intent", "facts"), CASES)
def test_reading(lang: str, text: str, intent: Intent, facts: list[str]) -> None:
    reading = read_message(text)
    assert (reading.language, reading.intent, list(reading.facts)) == (lang, intent, facts)
    assert reading.known
    assert reading.keeps is bool(facts)


@pytest.mark.parametrize(("text", "withheld"), [
    ("My PIN is 4471, don't write that down. Thanks!", ["My PIN is 4471, don't write that down.", "Thanks!"]),
    ("Mi PIN es 4411, no lo apuntes.", ["Mi PIN es 4411, no lo apuntes."]),
])
def test_do_not_keep_withholds_every_sentence(text: str, withheld: list[str]) -> None:
    reading = read_message(text)
    assert reading.intent is Intent.DO_NOT_KEEP and reading.facts == () and list(reading.withheld) == withheld
    assert not reading.keeps


@pytest.mark.parametrize(("text", "fact"), [
    ("This is private: my salary is 90k.", "My salary is 90k."),
    ("Entre nous, mon salaire est de 4000 euros.", "Mon salaire est de 4000 euros."),
    ("Esto es privado: mi sueldo es de 3200 euros.", "Mi sueldo es de 3200 euros."),
    ("Das ist privat: mein Gehalt beträgt 5000 Euro.", "Mein Gehalt beträgt 5000 Euro."),
])
def test_a_private_mark_is_cut_from_the_fact_and_marks_the_reading(text: str, fact: str) -> None:
    reading = read_message(text)
    assert reading.private and reading.facts == (fact,)


@pytest.mark.parametrize(("text", "replaces"), [
    ("Correction: the offsite moved to Friday.", ("offsite",)),
    ("Corrección: la reunión se movió al viernes.", ("reunion",)),
    ("Korrektur: das Offsite ist am Freitag.", ("offsite",)),
])
def test_a_correction_names_what_it_replaces(text: str, replaces: tuple[str, ...]) -> None:
    reading = read_message(text)
    assert reading.intent is Intent.CORRECTION and reading.replaces == replaces


def test_a_fact_inside_a_question_is_kept_and_the_question_asked() -> None:
    reading = read_message("Can I still make the 11:00 meeting, since my flight LH 402 lands at 9:40?")
    assert reading.intent is Intent.QUESTION and reading.asks
    assert reading.facts == ("My flight LH 402 lands at 9:40.",) and reading.query


@pytest.mark.parametrize(("text", "previous", "query", "follow_up"), [
    ("And when was that?", "What did Melanie paint?", "What did Melanie paint? And when was that?", True),
    ("Why?", "Search your memory: where did Caroline move from?", "where did Caroline move from? Why?", True),
    ("When is the launch?", "What colour did we pick for the logo?", "When is the launch?", False),
    ("Search your memory: what is Caroline's identity?", None, "what is Caroline's identity?", False),
    ("¿Y cuándo fue eso?", "¿Qué pintó Melanie?", "¿Qué pintó Melanie? ¿Y cuándo fue eso?", True),
    ("Und wann war das?", "Was hat Melanie gemalt?", "Was hat Melanie gemalt? Und wann war das?", True),
    ("My gate code is 4471.", None, "", False),  # a statement: no lookup
])
def test_what_auto_recall_searches(text: str, previous: str | None, query: str, follow_up: bool) -> None:
    reading = read_message(text, previous=previous)
    assert reading.query == query and reading.follow_up is follow_up


@pytest.mark.parametrize(("text", "lang"), [
    ("Mijn tandarts heet Dr. Jansen en woont in Utrecht.", "nl"),
    ("Min syster heter Anna och bor i Stockholm.", "sv"),
    ("Moja siostra ma na imię Anna i mieszka w Krakowie.", "pl"),
    ("私の妹の名前はアンナです。", "und"),
])
def test_a_language_without_a_table_gets_the_neutral_reading(text: str, lang: str) -> None:
    reading = read_message(text)
    assert (reading.language, reading.intent, reading.facts, reading.known) == (lang, Intent.UNKNOWN, (), False)
    assert reading.query == text and not reading.keeps


def test_a_language_left_out_of_the_settings_is_read_neutrally() -> None:
    only_en = ReaderSettings(language="es", languages=("en",))
    assert read_message("Prefiero el té.", settings=only_en).known is False
    assert get_reader(only_en) is get_reader(only_en)  # one reader per settings


@pytest.mark.parametrize(("text", "claims", "promises", "cannot"), [
    ("I remember that your dentist appointment is on Friday.", True, False, False),
    ("Got it, I'll remember that.", True, False, False),
    ("I've saved it to your notes.", True, False, False),
    ("Noted and stored in memory/2026-12-04.md.", True, False, False),
    ("Your dentist appointment is on Friday.", False, False, False),
    ("Do you remember where we put the keys?", False, False, False),
    ("I won't store that.", False, True, False),
    ("I could not find that in your notes.", False, False, True),
    ("Lo he guardado.", True, False, False),
    ("No lo guardaré.", False, True, False),
    ("No pude encontrarlo.", False, False, True),
    ("Ich habe es gespeichert.", True, False, False),
    ("Das werde ich nicht speichern.", False, True, False),
    ("C'est noté.", True, False, False),
    ("Je ne vais pas l'enregistrer.", False, True, False),
    ("Anotei.", True, False, False),
    ("L'ho salvato.", True, False, False),
    ("Non lo salverò.", False, True, False),
])
def test_reply_reading(text: str, claims: bool, promises: bool, cannot: bool) -> None:
    got = read_reply(text)
    assert (got.claims_save, got.promises_not_to_store, got.cannot_answer) == (claims, promises, cannot)


def test_every_table_loads_with_every_phrase_list() -> None:
    for lang in ("en", "es", "de", "fr", "pt", "it"):
        lex = lexicon(lang)
        assert lex.code == lang and lex.function_words and lex.abbreviations
        for name in ("question_start", "request", "polite", "remember", "that", "do_not_keep", "private", "correction",
                     "small_talk", "keep", "date_words", "fact_lead", "claims_save", "not_store", "cannot_answer",
                     "file_verb", "file_noun"):
            assert getattr(lex, name) is not None, (lang, name)
    with pytest.raises(KeyError):
        lexicon("nl")


_WORD = re.compile(r"[^\W_]+")
_PIECES = st.sampled_from([
    "Remember that", "my", "PIN", "is", "4471", "Dr.", "Weber", "¿", "?", "!", ".", ",", "recuerda que", "merk dir, dass",
    "since", "ya que", "the", "flight", "LH 402", "lands at 9:40", "can I", "don't write that down", "Correction:",
    "this is private:", "entre nous", "z. B.", "Sra.", "M.", "Sig.", "5 p.m.", "3.5", "\n", "Prefiero", "té", "ça",
    "ß", "İ", "ﬁ", "’", "Ⅻ",
])


def _words(text: str) -> set[str]:
    return {fold(w) for w in _WORD.findall(text)}


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), st.lists(_PIECES, max_size=25).map(" ".join)), st.one_of(st.none(), st.text(max_size=40)))
def test_reading_never_raises_and_never_invents_a_word(text: str, previous: str | None) -> None:
    reading = read_message(text, previous=previous)
    said = _words(text)
    for fact in reading.facts:
        assert _words(fact) <= said, (text, fact)
    assert all(sentence in text for sentence in reading.withheld)
    if reading.intent is Intent.DO_NOT_KEEP or not reading.known:
        assert reading.facts == ()
    read_reply(text)
