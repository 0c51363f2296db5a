"""Eighth-round phrase families of the lexicon reader (issue 35, from holdout5's misses): each
row is a family member no split holds, in the six tabled languages, with negatives."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message, read_reply
from openclaw_tui.language.reading import Intent
from tests.language.family_checks import drops, expect, keeps, reads_as, reads_other_than, small_talk


@pytest.mark.parametrize("text,secret", [
    ("Keep these out of notes please, the alarm code is 3390", "3390"),
    ("The gym locker is 44-12-08. Don't write down any of it.", "44-12-08"),
    ("backup key: ghp_Q2w8Rt5Yu1Io9Pa3Sd7Fg4Hj6Kl0Zx2Cv5Bn\nforget it after you've used it", "ghp_"),
    ("la clave del wifi es Pera_5521; eso no se anota, ¿ok?", "Pera_5521"),
    ("el código de la alarma es 8812, olvídalo cuando terminemos", "8812"),
    ("Den Safecode auf keinen Fall notieren: 7719", "7719"),
    ("S'WLAN-Passwort isch Rüebli_33, das bitte nöd speichere", "Rüebli_33"),
    ("Le code du portail c'est 6604, à ne surtout pas enregistrer", "6604"),
    ("A senha do wifi é Caju_7781, de jeito nenhum guardar isso", "Caju_7781"),
    ("Il codice dell'antifurto è 1187: questo non deve essere salvato", "1187"),
    # a refusal of another table beside a secret: read as English, kept by none
    ("Gate PIN 5120, no lo guardes", "5120"),
    # a language without a table that detection gives to a table
    ("Kod do bramy to 4471, nigdzie tego nie zapisuj", "4471"),
])
def test_refusals_beside_a_secret_keep_nothing(text: str, secret: str) -> None:
    expect((text, secret), reads_as((Intent.DO_NOT_KEEP, Intent.UNKNOWN)) & drops(1, fold=False))


@pytest.mark.parametrize("text", [
    "Nada de esto entra en tus notas: Andrés se separa",
    "Nada disso fica na memória: a Joana está grávida",
    "Tienilo fuori dalle note: Sandro si licenzia",
])
def test_plain_refusals_keep_nothing(text: str) -> None:
    expect(text, reads_as(Intent.DO_NOT_KEEP, facts=False))


@pytest.mark.parametrize("text", [
    "I usually forget it when I'm tired, so I set an alarm at 7",
    "Ich hab die PIN gleich wieder vergessen, ist aber egal",
])
def test_forgetting_told_is_no_refusal(text: str) -> None:
    expect(text, reads_other_than(Intent.DO_NOT_KEEP))


@pytest.mark.parametrize("text", [
    "Fish out what I said about the dentist",
    "Encuéntreme lo que le conté del viaje a Lima",
    "Such mir raus, was ich zum Mietvertrag notiert habe",
    "Retrouvez-moi ce que j'ai noté sur l'assurance",
    "Me encontra o que eu disse sobre a escola",
    "Ritrovami quello che ti avevo detto sulla caldaia",
])
def test_recall_commands_ask(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, facts=False, asks=True))


@pytest.mark.parametrize("text,fact", [
    ("Stick this in your memory: the boiler was serviced in May", "the boiler was serviced in May"),
    ("¿Me echas un cable y guardas que el seguro vence el 30?", "el seguro vence el 30"),
    ("Leg das in deine Notizen: Oma hat am 4. Juli Geburtstag", "Oma hat am 4. Juli Geburtstag"),
    ("Mettez ça en mémoire : le garage ferme à 18 h", "le garage ferme à 18 h"),
    ("Coloca isso nas notas: o ginásio fecha às 22h", "o ginásio fecha às 22h"),
    ("Vi chiederei gentilmente di annotare che l'assemblea è il 9", "l'assemblea è il 9"),
])
def test_remember_frames_keep(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER, asks=False) & keeps(1))


@pytest.mark.parametrize("text", [
    "Could you do me a favour? Remember that Sam's flight lands at 6",
    "Me faz um favor? Anota que a reunião é às 9",
])
def test_a_favour_asked_first_asks_nothing_itself(text: str) -> None:
    expect(text, reads_as(Intent.REMEMBER, asks=False))


@pytest.mark.parametrize("text,fact", [
    ("Let me rectify that: the recital is on the 18th", "the recital is on the 18th"),
    ("Me corrijo: el vuelo sale a las 6:40", "el vuelo sale a las 6:40"),
    ("Korrigiere das bitte: das Meeting ist um 10 Uhr", "das Meeting ist um 10 Uhr"),
    ("Rectification : la réunion est mardi à 9 h", "la réunion est mardi à 9 h"),
    ("Rectificando: o voo sai às 7h", "o voo sai às 7h"),
    ("Correggi questo: il volo parte alle 6", "il volo parte alle 6"),
])
def test_correction_commands(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.CORRECTION) & keeps(1))


@pytest.mark.parametrize("text", [
    "👌 sounds good",
    "alright, logging off for today",
    "Evening! Hope your weekend was lovely",
    "Grüezi mitenand, wie lauft's so?",
    "Merci, pfiat eich!",
    "Bon, j'y vais, à la revoyure",
    "Então, tudo bem por aí?",
    "Buonasera! Come va la serata?",
])
def test_regional_greetings_and_goodbyes_are_small_talk(text: str) -> None:
    expect(text, small_talk(facts=False, asks=False))


@pytest.mark.parametrize("text,fact", [
    ("Privado: debo 800 € al banco", "debo 800 € al banco"),
    ("Isto fica entre nós: devo 2000 euros à minha mãe", "devo 2000 euros à minha mãe"),
])
def test_a_verb_before_an_amount_states(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.STATEMENT, asks=False) & keeps(1))


def test_a_modal_before_a_verb_still_asks() -> None:
    assert read_message("Debo renovar el pasaporte antes del viaje").asks


@pytest.mark.parametrize("text,intent", [
    ("En tareas.md, ¿me borras lo de la tintorería?", Intent.FILE_CHANGE),
    ("In todo.md, can you remove the milk line?", Intent.FILE_CHANGE),
    ("In todo.md, what did I put about the milk?", Intent.QUESTION),
])
def test_a_file_named_first_then_a_file_verb_asked(text: str, intent: Intent) -> None:
    assert read_message(text).intent is intent


@pytest.mark.parametrize("text", [
    "Ada has epilepsy, is the school trip ok for her?",
    "Mi hija tiene asma, ¿puede hacer natación?",
    "Lea hat Heuschnupfen, welche Tabletten helfen?",
    "Mon fils fait des migraines, tu conseilles quoi ?",
    "O Rui tem diabetes, que sobremesa eu faço?",
    "Marco soffre di emicrania, cosa può prendere?",
])
def test_a_health_condition_inside_a_question_is_kept(text: str) -> None:
    r = read_message(text)
    assert r.asks and len(r.facts) == 1


@pytest.mark.parametrize("text,claims,promises,cannot", [
    ("No lo tenía anotado, así que lo he guardado ahora.", True, False, True),
    ("Je n'avais rien là-dessus, alors je l'ai noté.", True, False, True),
    ("Je n'ai pas cette adresse en mémoire.", False, False, False),
    ("Je n'ai rien noté.", False, True, False),
    ("Não tinha nada sobre isto, por isso anotei agora.", True, False, True),
    ("Non l'avevo in memoria, quindi l'ho segnato ora.", True, False, True),
])
def test_replies_that_had_nothing_and_saved(text: str, claims: bool, promises: bool, cannot: bool) -> None:
    r = read_reply(text)
    assert (r.claims_save, r.promises_not_to_store, r.cannot_answer) == (claims, promises, cannot)


@pytest.mark.parametrize(("text", "refuses"), [
    # the Spanish of `eval survival` itself: "No tomes nota de esto: …" was kept (real-model run, 2026-12-07)
    ("No tomes nota de esto: mi médico es el doctor Raman.", True),
    ("No tome nota de esto, por favor: el código del portal es 4420.", True),
    ("Tomé nota de todo lo que dijo el médico.", False),
])
def test_no_tomes_nota_refuses(text: str, refuses: bool) -> None:
    from openclaw_tui.language import Intent, read_message

    assert (read_message(text).intent is Intent.DO_NOT_KEEP) is refuses, read_message(text)
