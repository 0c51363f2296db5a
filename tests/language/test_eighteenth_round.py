"""Eighteenth-round families of the lexicon reader (issue 35), written from holdout13's misses
(holdout13 is development data now) and measured on sentences written for this file before the
mechanism was (none of them is in a split; same author as the mechanism, so weaker evidence than
a blind split): a folder named with a path ("photos/old") or after "called" in a change request,
put as a polite question too; praise of the answer as a closing; a remember idiom before a colon
("Burn this into your memory: …").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Eighteenth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent
from tests.language.family_floor import floor_test

LANGS = ("en", "es", "de", "fr", "pt", "it")

# a folder named by a path or after "called", in a change request (a polite question too): a file change
FOLDER_PATH: dict[str, list[str]] = {
    "en": ["Make a new folder named tax-returns under my documents", "could you wipe the folder music/duplicates for me?"],
    "es": ["Crea un directorio llamado recetas-abuela en escritorio", "¿Me borras la carpeta viajes/2019 completa?"],
    "de": ["Leg einen Ordner namens steuer-belege im Dokumente-Ordner an", "kannst du mir den Ordner bilder/alt komplett löschen?"],
    "fr": ["Crée un dossier appelé recettes-mamie dans mes documents", "tu pourrais me supprimer le répertoire musique/doublons ?"],
    "pt": ["Faz um diretório chamado receitas-vovó na área de trabalho", "você pode apagar a pasta viagens/2019 inteira?"],
    "it": ["Crea una cartella chiamata ricette-nonna nei documenti", "mi cancelli la cartella viaggi/2019 per favore?"],
}
FOLDER_PATH_CONTROLS = {  # a folder with a path in a question or a statement: no file change
    "Where is the folder music/duplicates?": Intent.QUESTION,
    "¿Dónde está la carpeta viajes/2019?": Intent.QUESTION,
    "Der Ordner bilder/alt liegt auf dem Stick": Intent.STATEMENT,
    "Le dossier appelé recettes-mamie est sur la clé": Intent.STATEMENT,
    "A pasta viagens/2019 está no pendrive": Intent.STATEMENT,
    "Dov'è la cartella viaggi/2019?": Intent.QUESTION,
}


def folder_path_right(text: str) -> bool:
    return read_message(text).intent is Intent.FILE_CHANGE


@pytest.mark.parametrize("text", sorted(FOLDER_PATH_CONTROLS))
def test_a_folder_path_outside_a_change_request_keeps_its_reading(text: str) -> None:
    assert read_message(text).intent is FOLDER_PATH_CONTROLS[text]


# praise of the answer or of the listener's work as a closing: small talk, nothing kept
PRAISE_ANSWER: dict[str, list[str]] = {
    "en": ["That answer was really useful, well done", "great answer, spot on"],
    "es": ["Esa explicación estuvo genial, buen trabajo", "tremenda respuesta, de diez"],
    "de": ["Die Antwort war echt hilfreich, gut gemacht", "Hut ab, das hast du super hingekriegt"],
    "fr": ["Cette réponse était vraiment utile, bien joué", "super réponse, nickel"],
    "pt": ["Essa resposta foi muito útil, mandou bem", "Arrasou nessa explicação"],
    "it": ["Questa risposta è stata utilissima, bravo", "Grazie, sei stato di grande aiuto"],
}
PRAISE_ANSWER_CONTROLS = {  # praise with a fact beside it: the fact kept
    "The answer from the bank came on 3 May, well done them": "3 May",
    "La respuesta del seguro llegó el 4 de mayo": "4 de mayo",
    "Die Antwort vom Amt kam am 5. Mai": "5. Mai",
    "La réponse de la mairie est arrivée le 6 mai": "6 mai",
    "A resposta do banco chegou no dia 7 de maio": "7 de maio",
    "La risposta del comune è arrivata l'8 maggio": "8 maggio",
}


def praise_answer_right(text: str) -> bool:
    r = read_message(text)
    return r.intent is Intent.SMALL_TALK and not r.facts


@pytest.mark.parametrize("text", sorted(PRAISE_ANSWER_CONTROLS))
def test_an_answer_with_a_date_is_kept(text: str) -> None:
    r = read_message(text)
    assert any(PRAISE_ANSWER_CONTROLS[text] in f for f in r.facts)


# a remember idiom before a colon ("Burn this into your memory: …"): remember, the rest kept
REMEMBER_IDIOM: dict[str, list[tuple[str, str]]] = {
    "en": [("Burn this into your brain: the gate code is 4471", "the gate code is 4471"),
           ("Etch this in stone: Milo's vet is Dr Haines", "Milo's vet is Dr Haines")],
    "es": [("Grábatelo en la cabeza: el portal es el 12B", "el portal es el 12B"),
           ("Apúntatelo a fuego: Lola es alérgica al kiwi", "Lola es alérgica al kiwi")],
    "de": [("Brenn dir das ein: der Torcode ist 4471", "der Torcode ist 4471"),
           ("Schreib dir das hinter die Ohren: Milo frisst kein Huhn", "Milo frisst kein Huhn")],
    "fr": [("Grave-toi ça dans le marbre : le code du portail est 4471", "le code du portail est 4471"),
           ("Mets-toi bien ça dans le crâne : Milo ne mange pas de poulet", "Milo ne mange pas de poulet")],
    "pt": [("Grava isso a fogo: o código do portão é 4471", "o código do portão é 4471"),
           ("Enfia isso na cabeça: o Milo não come frango", "o Milo não come frango")],
    "it": [("Stampatelo in testa: il codice del cancello è 4471", "il codice del cancello è 4471"),
           ("Mettiti in testa questa cosa: Milo non mangia pollo", "Milo non mangia pollo")],
}
REMEMBER_IDIOM_CONTROLS = [  # the same verbs about something else: no remember request
    "I burned my hand on the oven this morning",
    "Grabé un vídeo de la boda de Lola",
    "Ich habe mir die Hand am Ofen verbrannt",
    "J'ai gravé un CD pour la voiture",
    "Gravei um vídeo do casamento da Ana",
    "Ho stampato i biglietti del treno",
]


def remember_idiom_right(case: tuple[str, str]) -> bool:
    r = read_message(case[0])
    return r.intent is Intent.REMEMBER and any(f.rstrip(" .").lower() == case[1].lower() for f in r.facts)


@pytest.mark.parametrize("text", REMEMBER_IDIOM_CONTROLS)
def test_the_idiom_verbs_about_something_else_ask_nothing_kept(text: str) -> None:
    assert read_message(text).intent is not Intent.REMEMBER


FAMILIES = {
    "folder_path": (FOLDER_PATH, folder_path_right),
    "praise_answer": (PRAISE_ANSWER, praise_answer_right),
    "remember_idiom": (REMEMBER_IDIOM, remember_idiom_right),
}
FLOOR = {
    "folder_path": {lang: len(FOLDER_PATH[lang]) for lang in LANGS},
    "praise_answer": {"en": 2, "es": 1, "de": 2, "fr": 2, "pt": 2, "it": 2},  # "tremenda respuesta, de diez": no language is told
    "remember_idiom": {lang: len(REMEMBER_IDIOM[lang]) for lang in LANGS},
}

test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
