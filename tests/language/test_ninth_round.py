"""Ninth round: general mechanisms, not rows (docs/language.md, "Ninth round"). Each test holds
members no labelled split has, and negatives that must not fire."""

from __future__ import annotations

import pytest

from openclaw_tui.language import Intent, read_message
from openclaw_tui.language.detect import detect
from tests.language.family_checks import expect, keeps_nothing, reads_as, reads_other_than, small_talk


# -- detection confidence: a short message no table knows is read neutrally, not guessed --------

@pytest.mark.parametrize("text", [
    "Fijne avond nog, doei",  # Dutch
    "Hvala, vidimo se",  # Croatian: no table, no list
    "Usuń z pliku notatki.md ostatnią linię",  # Polish file change
    "Dopisz do pliku todo.md jajka",
    "Teşekkürler, iyi akşamlar",
])
def test_a_message_no_table_knows_is_read_neutrally(text: str) -> None:
    assert detect(text) not in ("en", "es", "de", "fr", "pt", "it"), detect(text)
    reading = read_message(text)
    assert reading.intent is Intent.UNKNOWN and not reading.facts


@pytest.mark.parametrize(("text", "lang"), [
    ("I prefer tea over coffee.", "en"),  # few words a table lists, but votes enough
    ("The garage door is painted RAL 5024.", "en"),  # content words: the table's votes lead
    ("Pizza tonight?", "en"),
    ("Danke dir!", "de"),
    ("Grazie, a domani", "it"),
    ("Gracias, hasta luego", "es"),
    ("9:40", "en"),  # no words at all: the first of the settings' languages
    ("LH 402?", "en"),  # a code in capitals is no word of another language
])
def test_a_short_message_a_table_knows_keeps_its_table(text: str, lang: str) -> None:
    assert detect(text) == lang


def test_a_message_before_it_still_decides() -> None:
    assert detect("Eyvallah", previous="¿A qué hora aterriza mi vuelo?") == "es"


# -- refusals built from parts: negation x keep verb x memory noun --------------------------------

@pytest.mark.parametrize("text", [
    # combinations no row and no split holds (the rows of the eighth round missed each of these)
    "Don't ever jot this down: Maria is pregnant",
    "Please don't commit this to memory: the alarm code is 7788",
    "Ni se te ocurra grabarlo, la clave es Perro_22",
    "Merk dir das besser nicht: der Tresorcode ist 7734",
    "Nichts davon ins Gedächtnis: wir trennen uns",
    "Rien de tout ça dans ta mémoire : je démissionne",
    "Efface ça juste après : le code est 1212",
    "Evita di annotarlo: il PIN è 3030",
    "Niente di tutto questo nella memoria: ci sposiamo",
])
def test_a_composed_refusal_keeps_nothing(text: str) -> None:
    expect(text, reads_as(Intent.DO_NOT_KEEP, facts=False))


@pytest.mark.parametrize(("text", "intent"), [
    ("I never forget a face.", Intent.STATEMENT),
    ("Don't forget to buy milk tomorrow.", Intent.REMEMBER),
    ("We never save the receipts.", Intent.STATEMENT),
    ("I don't write things down, I just remember them.", Intent.STATEMENT),
    ("Ich kann mir Namen einfach nicht merken.", Intent.STATEMENT),  # a subject before it: a statement
    ("Je ne note jamais mes rendez-vous, c'est mon problème.", Intent.STATEMENT),
    ("Non dimenticare di comprare il latte.", Intent.REMEMBER),
    ("No olvides que el jueves viene el fontanero.", Intent.REMEMBER),
    ("Entre nous et sans rien noter : Hugo part à Genève.", Intent.DO_NOT_KEEP),  # "nous" is no subject
])
def test_what_only_looks_like_a_composed_refusal(text: str, intent: Intent) -> None:
    assert read_message(text).intent is intent


def test_a_composed_frame_naming_an_unknown_part_is_a_clear_error() -> None:
    from openclaw_tui.language.lexicon import composed
    with pytest.raises(ValueError, match="NOUN"):
        composed({"parts": {"NEG": ["no"]}, "frames": ["^NEG NOUN"]}, "do_not_keep")
    assert composed({"parts": {"NEG": ["no", "never"]}, "frames": ["^NEG save"]}, "x") == ("^{no|never} save",)


# -- an asking clause by its form after a statement, with no comma and no joining word ------------

@pytest.mark.parametrize(("text", "fact"), [
    ("My rent went up to $1,400 should I look for a cheaper place", "My rent went up to $1,400"),
    ("We land at 23:10 will we still get a train into town", "We land at 23:10"),
    ("el vuelo sale a las 6:15 y vivo a 40 minutos del aeropuerto me da tiempo o no", "sale a las 6:15"),
    ("tengo 300 euros ahorrados cuánto le doy a mi hermana", "300 euros ahorrados"),
    ("Die Heizung ist 22 Jahre alt, lohnt sich eine neue", "Die Heizung ist 22 Jahre alt"),
    ("wir sind 12 Leute zum Grillen was sollen wir kaufen", "12 Leute zum Grillen"),
    ("mon loyer est de 1 100 $ je peux-tu me permettre une auto", "loyer est de 1 100 $"),
    ("Ma nièce a 8 ans quel cadeau est-ce que je lui offre", "Ma nièce a 8 ans"),
    ("a renda é 900 euros e ganho 1500 compensa mudar ou não", "ganho 1500"),
    ("o Rui faz 30 anos quais vinhos eu levo", "O Rui faz 30 anos"),
    ("il volo atterra alle 22:40 e il treno parte alle 23 ce la faccio", "parte alle 23"),
    ("mio figlio ha 12 anni cosa gli posso regalare per Natale", "Mio figlio ha 12 anni"),
])
def test_an_asking_clause_after_a_statement_asks_and_the_statement_is_kept(text: str, fact: str) -> None:
    reading = read_message(text)
    assert reading.intent is Intent.QUESTION and reading.asks, reading.intent
    kept = " | ".join(reading.facts)
    assert fact in kept, reading.facts
    assert len(reading.facts) == 1 and len(reading.facts[0]) < len(text) - 8, reading.facts  # the question is not kept


@pytest.mark.parametrize("text", [
    "My sister plays the cello in Leeds and so do I",
    "I'll go to the gym at 7 whether it rains or not",
    "That's the best we can do for 300 euros",
    "Voy a ir al gimnasio a las 7 quieras o no",
    "Mi tío no sabe cuánto cuesta el piso de 80 m2",
    "Bei 30 Grad im Schatten lohnt sich ein Ausflug zum See",
    "Acho que eu devo ir ao médico amanhã às 10",
    "O bolo que eu faço leva 3 ovos",
    "Credo che domani posso venire alle 10",
    "Con 35 gradi non ce la faccio",
])
def test_what_only_looks_like_an_asking_clause_states(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, asks=False))


# -- small talk by its words: greeting, thanks and goodbye stems per language ---------------------

@pytest.mark.parametrize("text", [
    "Thankyou kindly, nite nite",
    "Graciñas, nos vemos",
    "Obrigadão, até logo",
    "Obrigadinha, beijinhos",
    "Oie, boa noitinha",
    "Grazissime, a dopo",
    "Bacioni e buon weekend",
])
def test_a_greeting_in_words_of_the_table_is_small_talk(text: str) -> None:
    expect(text, small_talk(facts=False))


@pytest.mark.parametrize("text", [
    "Thanks, the meeting moved to Friday at 3.",
    "Gracias, mi vuelo es el IB 3170",
    "Merci, mon code postal est 75011",
    "Grazie, domani alle 9 dal dentista",
    "Hello, my name is Peter Walsh",
    "Great, the plumber comes tomorrow",
    "Thanks for the tip about the Lisbon hotel",
])
def test_thanks_before_something_named_is_no_small_talk(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=True))


@pytest.mark.parametrize("text", [
    "Morgen habe ich frei",  # a word that may follow in a greeting opens none
    "Tarde demais para mudar de ideia",
    "Domani mattina vado io dal meccanico",
])
def test_a_time_word_opens_no_greeting(text: str) -> None:
    expect(text, reads_other_than(Intent.SMALL_TALK))


# -- where things are, and a German habit put object first, built from parts ----------------------

@pytest.mark.parametrize("text", [
    "The spare charger lives in the second kitchen drawer.",  # the rows before this round kept none of these
    "Die Ersatzschlüssel liegen unterm Blumentopf neben der Haustür.",
    "Kaffee trink ich grundsätzlich nicht nach vier.",
    "Le double des clés est scotché sous la boîte aux lettres.",
    "Las facturas se guardan en la carpeta azul del despacho.",
    "Il passaporto lo tengo nel cassetto della scrivania.",
])
def test_where_things_are_and_object_first_habits_are_kept(text: str) -> None:
    reading = read_message(text)
    assert reading.intent is Intent.STATEMENT and reading.facts == (text,), reading.facts


@pytest.mark.parametrize("text", [
    "Je suis dans le train, on se parle plus tard.",  # where I am right now: a remark of the moment
    "I'm stuck in traffic on the A4 again.",
    "Sono in coda alla cassa da mezz'ora.",
])
def test_where_i_am_right_now_is_not_kept(text: str) -> None:
    expect(text, keeps_nothing)


def test_a_street_abbreviation_ends_no_sentence() -> None:
    reading = read_message("Ma dentiste est la Dre Roy, clinique du boul. Saint-Joseph à Laval.")
    assert len(reading.facts) == 1 and "boul. Saint-Joseph" in reading.facts[0], reading.facts


# -- recall requests built from parts: a verb of finding x what I told you / my notes about -------

@pytest.mark.parametrize("text", [
    "Grab my notes on the Lisbon trip",  # the rows before this round read these four as statements
    "Tráeme mis notas sobre el alquiler",
    "Récupère mes notes sur le voyage à Rome",
    "Puxa o que eu te falei sobre o seguro do carro",
    "Ripescami quello che ti ho raccontato sul dentista",
    "Hol mir mal raus, was ich dir über den Vermieter erzählt habe",
])
def test_a_composed_recall_request_asks_and_keeps_nothing(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, facts=False, asks=True))


def test_what_i_told_you_without_a_verb_of_finding_asks_nothing() -> None:
    reading = read_message("I told you what I said about the boiler already")
    assert reading.intent is Intent.STATEMENT and not reading.asks


def test_est_ce_que_inside_a_sentence_asks() -> None:
    reading = read_message("Léon a piscine le mardi à 18 h est-ce qu'on peut dîner à 19 h")
    assert reading.intent is Intent.QUESTION and reading.asks


def test_a_modal_before_a_word_starting_with_i_is_no_inversion() -> None:
    # "must include": the template's space may be none, so "must i…" once read as "must I"
    reading = read_message("I would like two quotes by next Wednesday so we can compare them with the budget, "
                           "and both quotes must include the cost of a skipper and insurance.")
    assert reading.intent is Intent.STATEMENT and not reading.asks
