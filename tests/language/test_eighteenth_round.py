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

from openclaw_tui.language.reading import Intent
from tests.language.family_floor import LANGS, all_read, every, floor_test
from tests.language.family_checks import (control_test, fact_table_test, intent_table_test, keeps, keeps_clause,
                                          keeps_nothing, reads_as, reads_other_than, small_talk, whole, withholds)

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


folder_path_right = reads_as(Intent.FILE_CHANGE)


test_a_folder_path_outside_a_change_request_keeps_its_reading = intent_table_test(FOLDER_PATH_CONTROLS)


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


praise_answer_right = small_talk(facts=False)


test_an_answer_with_a_date_is_kept = fact_table_test(PRAISE_ANSWER_CONTROLS)


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


remember_idiom_right = keeps_clause(Intent.REMEMBER, how="is", strip=" .")


test_the_idiom_verbs_about_something_else_ask_nothing_kept = control_test(REMEMBER_IDIOM_CONTROLS, reads_other_than(Intent.REMEMBER))


# a refusal: "Not for saving: …", "Off the books: …" before a colon, or "…, try not to remember
# it" after a comma: nothing kept, the secret never in the facts
REFUSAL: dict[str, list[tuple[str, str]]] = {
    "en": [("Not for saving: my gym locker code is 5512", "5512"), ("Off the books: the safe combination is 19-44-02", "19-44-02"),
           ("Tigerlily#88 is the router password, try not to remember it", "Tigerlily#88")],
    "es": [("No es para la libreta: mi PIN del banco es 6631", "6631"), ("Fuera de la libreta: la clave del portal es 7720", "7720"),
           ("Gato$Azul44 es la clave del wifi, evita guardarla", "Gato$Azul44")],
    "de": [("Nicht fürs Notizbuch: der Tresorcode ist 194402", "194402"), ("Außerhalb der Notizen: meine Spind-PIN ist 5512", "5512"),
           ("Tiger!Lilie88 ist das WLAN-Passwort, vermeide es zu speichern", "Tiger!Lilie88")],
    "fr": [("Pas pour le carnet : le code du casier est 5512", "5512"), ("Hors notes : mon code de coffre est 194402", "194402"),
           ("Tigre!Lys88, c'est le mot de passe du routeur, évite de le noter", "Tigre!Lys88")],
    "pt": [("Não é pro caderno: o PIN do cartão é 6631", "6631"), ("Fora do caderno: a senha do cofre é 194402", "194402"),
           ("Gato$Azul44 é a senha do wifi, evita guardar isso", "Gato$Azul44")],
    "it": [("Non da salvare: il PIN della carta è 6631", "6631"), ("Fuori verbale: il codice della cassaforte è 194402", "194402"),
           ("Gatto$Blu44 è la password del wifi, nun t'a segnà", "Gatto$Blu44")],
}
REFUSAL_CONTROLS = {  # a confidence kept private, or "avoid" about something else: kept
    "Just between us: I'm applying for a job in Leeds": "Leeds",
    "Entre nosotros: estoy buscando piso en Cádiz": "Cádiz",
    "Unter uns: ich bewerbe mich in Graz": "Graz",
    "Entre nous : je cherche un appart à Annecy": "Annecy",
    "Cá entre nós: ando a ver casas em Tavira": "Tavira",
    "Tra noi: sto cercando casa a Lecce": "Lecce",
}


refusal_right = withholds(Intent.DO_NOT_KEEP, fold=False)


test_a_confidence_between_us_is_still_kept = fact_table_test(REFUSAL_CONTROLS, other_than=Intent.DO_NOT_KEEP)


# the redactor: a value put first and named after it ("Baobab!Thies7, c'est le code wifi chez
# nous"), a wifi password or code: withheld; a word with no digit there is kept
from openclaw_tui.language.secrets import redact_for_disk  # noqa: E402

VALUE_FIRST = [
    ("Kiwi#Moon42, that's the wifi code at ours", "Kiwi#Moon42"),
    ("Kiwi#Moon42 is the wifi password at home", "Kiwi#Moon42"),
    ("Kiwi#Moon42, esa es la clave del wifi de casa", "Kiwi#Moon42"),
    ("Kiwi#Moon42, das ist der WLAN-Code bei uns", "Kiwi#Moon42"),
    ("Kiwi#Moon42 ist das WLAN-Passwort im Büro", "Kiwi#Moon42"),
    ("Kiwi#Moon42, c'est le code wifi du chalet", "Kiwi#Moon42"),
    ("Kiwi#Moon42, essa é a senha do wifi da casa", "Kiwi#Moon42"),
    ("Kiwi#Moon42, questa è la password del wifi di casa", "Kiwi#Moon42"),
]
VALUE_FIRST_CONTROLS = [
    "Sunday, that's the wifi password day",
    "Domingo, esa es la clave del asunto",
    "Sonntag, das ist der WLAN-Tag",
    "Dimanche, c'est le code wifi qui change",
    "Domingo, essa é a senha do dia",
    "Domenica, questa è la password del giorno",
]


@pytest.mark.parametrize("case", VALUE_FIRST)
def test_a_value_put_first_and_named_after_is_withheld(case: tuple[str, str]) -> None:
    assert case[1] not in redact_for_disk(case[0]).text


@pytest.mark.parametrize("text", VALUE_FIRST_CONTROLS)
def test_a_word_with_no_digit_before_a_name_is_kept(text: str) -> None:
    assert redact_for_disk(text).text == text


# a greeting, then a how-opener of more than one word and only light words after it (a period of
# the day or week, "that", a name for the listener): small talk
GREETING_HOW: dict[str, list[str]] = {
    "en": ["Hiya! How was the weekend, buddy?", "Morning! How's the week been so far?"],
    "es": ["¡Buenas! ¿Cómo ha ido el finde, amigo?", "Hola, ¿cómo fue el día?"],
    "de": ["Servus! Wie war das Wochenende, Kumpel?", "Hallo! Wie läuft's heute so?"],
    "fr": ["Salut ! T'es en forme ce matin ?", "Coucou ! Comment s'est passée la semaine, mon pote ?"],
    "pt": ["Olá! Como foi o fim de semana?", "Oi! Como é que vai a vida?"],
    "it": ["Ciao! Che si dice di bello oggi?", "Ehi! Com'è andata la settimana?"],
}
GREETING_HOW_CONTROLS = [  # a how-opener before a thing asked about: a question
    "Hiya! How was the meeting with the landlord?",
    "¡Buenas! ¿Cómo ha ido la reparación del coche?",
    "Servus! Wie war der Termin beim Zahnarzt?",
    "Salut ! Comment s'est passée la réunion chez le notaire ?",
    "Olá! Como foi a consulta no dentista?",
    "Ciao! Com'è andata la visita dal dentista?",
]


greeting_how_right = small_talk()


test_a_how_opener_before_a_thing_asked_about_stays_a_question = control_test(GREETING_HOW_CONTROLS, reads_as(Intent.QUESTION))


# where I hid or put something, with no keep word ("I stashed the passports under …", "Le chiavi
# … le ho messe nel cassetto …"): durable, the sentence kept
HID_PLACE: dict[str, list[str]] = {
    "en": ["I hid the spare shed key inside the blue watering can by the back door",
           "I stashed the passports under the drawer liner in the hall cabinet"],
    "es": ["Escondí el mando del garaje debajo del felpudo de la entrada", "Metí los pasaportes dentro de la caja azul del altillo"],
    "de": ["Den Kellerschlüssel hab ich in die Schublade unter der Spüle gelegt",
           "Ich habe die Pässe hinter die Bücher im Regal gesteckt"],
    "fr": ["J'ai caché la clé du garage dans la boîte à chaussures du placard", "J'ai rangé les passeports sous le tiroir du bureau"],
    "pt": ["Escondi a chave do portão dentro da bota velha na garagem", "Guardei os passaportes debaixo da gaveta da cómoda"],
    "it": ["Ho nascosto la chiave della cantina sotto il vaso di basilico", "Le chiavi del garage le ho messe nel cassetto della credenza"],
}
HID_PLACE_CONTROLS = [  # hiding oneself, lying down: a moment, nothing kept
    "I hid from the rain under a bridge this morning",
    "Me escondí del sol debajo de un árbol esta tarde",
    "Ich habe mich vorhin kurz ins Bett gelegt",
    "Je me suis caché sous la couette ce matin",
    "Mi sono nascosto sotto le coperte stamattina",
]


hid_place_right = keeps(whole, how="is", strip=" .", fold=False)


test_hiding_oneself_for_a_moment_keeps_nothing = control_test(HID_PLACE_CONTROLS, keeps_nothing)


# "for the attention of" written short ("z. Hd.", "attn.", "att.", "à l'att.", "a/c", "c.a."):
# the sentence is not cut after it; the name after it is kept with the rest
ATTENTION_OF: dict[str, list[str]] = {
    "en": ["The lease renewal goes to Parkside Lettings, attn. Mrs Okafor"],
    "es": ["El presupuesto se manda a Reformas Gil, att. Sra. Molina"],
    "de": ["Die Kündigung schicke ich an die Firma Lenz AG, z. Hd. Herrn Brandt"],
    "fr": ["La lettre part chez Dumas SARL, à l'att. de Mme Roux"],
    "pt": ["A fatura vai para a Construtora Lima, a/c Sr. Paiva"],
    "it": ["La disdetta va spedita alla Edil Rossi, alla c.a. del sig. Bruni"],
}


attention_of_right = keeps(whole, how="is", strip=" .", fold=False)


# a fact lead ("since", "como", "da", "vu que", "já que", "visto che") before a clause about
# someone named, no digit and no span of time, then a question: the clause kept
NAMED_STATE: dict[str, list[tuple[str, str]]] = {
    "en": [("Since Biscuit refuses dry food, what else could I try?", "Biscuit refuses dry food")],
    "es": [("Como Inés no soporta el ruido, ¿qué zona me recomiendas?", "Inés no soporta el ruido")],
    "de": [("Da Bruno keine Treppen mehr schafft, welches Hotel passt?", "Bruno keine Treppen mehr schafft")],
    "fr": [("Vu que Caramel déteste la voiture, je fais comment pour le vétérinaire ?", "Caramel déteste la voiture")],
    "pt": [("Já que o Tobias não come glúten, que bolo eu faço?", "o Tobias não come glúten")],
    "it": [("Visto che Pepe odia il trasportino, come lo porto dal veterinario?", "Pepe odia il trasportino")],
}
NAMED_STATE_CONTROLS = [  # someone named who only asked: nothing kept
    "Since Anna asked, what's the capital of Peru?",
    "Como dijo Marta, ¿qué hora es?",
    "Da Jonas fragt, wie spät ist es?",
    "Comme Léa demande, quelle heure est-il ?",
    "Visto che Sara chiede, che ore sono?",
]


named_state_right = keeps_clause(Intent.QUESTION, how="is", strip=" .")


test_someone_who_only_asked_is_not_kept = control_test(NAMED_STATE_CONTROLS, keeps_nothing)


FAMILIES = {
    "folder_path": (FOLDER_PATH, folder_path_right),
    "praise_answer": (PRAISE_ANSWER, praise_answer_right),
    "remember_idiom": (REMEMBER_IDIOM, remember_idiom_right),
    "refusal": (REFUSAL, refusal_right),
    "greeting_how": (GREETING_HOW, greeting_how_right),
    "hid_place": (HID_PLACE, hid_place_right),
    "attention_of": (ATTENTION_OF, attention_of_right),
    "named_state": (NAMED_STATE, named_state_right),
}
FLOOR = {
    "folder_path": all_read(FOLDER_PATH),
    "praise_answer": every(2, es=1),  # "tremenda respuesta, de diez": no language is told
    "remember_idiom": all_read(REMEMBER_IDIOM),
    "refusal": all_read(REFUSAL),
    "greeting_how": all_read(GREETING_HOW),
    "hid_place": all_read(HID_PLACE),
    "attention_of": all_read(ATTENTION_OF),
    "named_state": all_read(NAMED_STATE),
}

test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
