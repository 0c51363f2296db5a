"""Twentieth-round families of the lexicon reader (issue 35), written from holdout15's and
holdout16's misses (development data now) and measured on sentences written for this file
before the mechanism was (none of them is in a split; same author as the mechanism, so weaker
evidence than a blind split): a statement followed by a question clause with no mark between
them ("… comes on Friday which film could we see"); an imperative change of a folder named by a
name-like token before or after its noun ("Delete the old-scans folder"); thanks and good
wishes as closings; texting-style questions with no mark; a refusal after a secret ("…, forget
I sent it").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Twentieth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent
from openclaw_tui.language.secrets import redact_for_disk
from tests.language.family_checks import control_test, intent_table_test, kept, reads_as, reads_other_than
from tests.language.family_floor import LANGS, floor_test



# a statement, then a question clause with no mark or comma: a question, the statement kept, the question not
JOINED_WH: dict[str, list[tuple[str, str, str]]] = {
    "en": [("my nephew Callum turns ten next Saturday what could we get him", "my nephew Callum turns ten next Saturday", "what could we get him"),
           ("my sister Ines lands in Glasgow on Thursday where should I take her for dinner", "my sister Ines lands in Glasgow on Thursday", "where should I take her")],
    "es": [("mi cuñado Rodrigo viene a cenar el sábado qué vino le podría llevar", "mi cuñado Rodrigo viene a cenar el sábado", "qué vino le podría llevar"),
           ("mis primos llegan el 3 de enero a Sevilla qué museo podríamos visitar", "mis primos llegan el 3 de enero a Sevilla", "qué museo podríamos visitar")],
    "de": [("mein Neffe Jonas wird am Samstag zehn welches Geschenk könnten wir ihm kaufen", "mein Neffe Jonas wird am Samstag zehn", "welches Geschenk könnten wir"),
           ("das Sommerfest ist am 21. Juni im Stadtpark was bring ich da mit", "das Sommerfest ist am 21. Juni im Stadtpark", "was bring ich da mit")],
    "fr": [("mon neveu Théo a dix ans samedi prochain quel cadeau on pourrait lui offrir", "mon neveu Théo a dix ans samedi prochain", "quel cadeau on pourrait"),
           ("la fête des voisins c'est le 30 mai dans la cour j'apporte quoi", "la fête des voisins c'est le 30 mai dans la cour", "j'apporte quoi")],
    "pt": [("o meu sobrinho Tiago faz dez anos no sábado que presente lhe posso dar", "o meu sobrinho Tiago faz dez anos no sábado", "que presente lhe posso dar"),
           ("a festa da empresa é dia 12 de dezembro no Porto que sapatos eu levo", "a festa da empresa é dia 12 de dezembro no Porto", "que sapatos eu levo")],
    "it": [("mio nipote Matteo compie dieci anni sabato che regalo potremmo fargli", "mio nipote Matteo compie dieci anni sabato", "che regalo potremmo fargli"),
           ("la cena aziendale è il 15 dicembre a Torino che vestito potrei mettere", "la cena aziendale è il 15 dicembre a Torino", "che vestito potrei mettere")],
}
JOINED_WH_CONTROLS = {  # a relative "that/que/che/was/qui" after a noun, or a wh-word in an indirect clause: a statement
    "The film that we saw on Friday was about Lisbon": Intent.STATEMENT,
    "La película que vimos el viernes era sobre Lisboa": Intent.STATEMENT,
    "Das Buch, was ich am Montag gekauft habe, ist von Fontane": Intent.STATEMENT,
    "Le film qui passe samedi au Rex dure 3 heures": Intent.STATEMENT,
    "O vinho que a Rita trouxe no sábado era do Douro": Intent.STATEMENT,
    "Il film che abbiamo visto venerdì era di Sorrentino": Intent.STATEMENT,
}


def joined_wh_right(case: tuple[str, str, str]) -> bool:
    text, head, tail = case
    got = read_message(text)
    return got.intent is Intent.QUESTION and kept(got.facts, head, how="flat") and not kept(got.facts, tail, how="flat")


@pytest.mark.parametrize("text", sorted(JOINED_WH_CONTROLS))
def test_a_relative_clause_stays_a_statement(text: str) -> None:
    assert read_message(text).intent is JOINED_WH_CONTROLS[text]


# an imperative change of a folder named by a name-like token before or after its noun: a file change
FOLDER_IMPERATIVE: dict[str, list[str]] = {
    "en": ["Delete the old-scans folder and whatever is inside", "Rename the folder garden to garden-2026"],
    "es": ["Borra la carpeta facturas y muévela a archivo-2025", "Renombra la carpeta recetas a recetas-mamá"],
    "de": ["Benenne den Ordner Fotos in fotos-2026 um", "Verschiebe den Ordner Rechnungen nach archiv-2025"],
    "fr": ["Renomme le dossier vacances en vacances-2026", "Déplace le dossier factures vers archives-2025"],
    "pt": ["Renomeie a pasta receitas para receitas-avó", "Mova a pasta contas para arquivo-2025"],
    "it": ["Rinomina la cartella viaggi in viaggi-2026", "Sposta la cartella bollette in archivio-2025"],
}
FOLDER_IMPERATIVE_CONTROLS_NOT = [  # a folder or paste with no name-like token, or a question: no file change
    "Put the blue folder back in the drawer",
    "Coloca a pasta de dentes na mala",
]
FOLDER_IMPERATIVE_CONTROLS = {
    "Where did I put the old-scans folder?": Intent.QUESTION,
    "Dov'è la cartella viaggi-2026?": Intent.QUESTION,
}


folder_imperative_right = reads_as(Intent.FILE_CHANGE)


test_a_folder_without_a_name_is_no_file_change = control_test(FOLDER_IMPERATIVE_CONTROLS_NOT, reads_other_than(Intent.FILE_CHANGE))
test_a_question_about_a_named_folder_stays_a_question = intent_table_test(FOLDER_IMPERATIVE_CONTROLS)


# thanks and good wishes as a closing: small talk, nothing kept
THANKS_CLOSING: dict[str, list[str]] = {
    "en": ["Thanks ever so much for the help with the visa forms", "That was exactly what I was after, cheers"],
    "es": ["Mil gracias por echarme una mano con la mudanza", "Era justo lo que me hacía falta, gracias"],
    "de": ["Vielen lieben Dank für die Hilfe mit dem Umzug", "Das war genau das, was ich gebraucht habe, danke"],
    "fr": ["Merci infiniment pour l'aide avec le déménagement", "Je te souhaite une très bonne soirée"],
    "pt": ["Era exatamente isso que eu queria, obrigada", "Desejo-te uma ótima noite"],
    "it": ["Ti ringrazio tantissimo per l'aiuto con il trasloco", "Era proprio quello che cercavo, grazie"],
}
THANKS_CLOSING_CONTROLS = {  # thanks beside a fact, or a wish with a date: the fact kept
    "Thanks, my flight is on 14 March": "14 March",
    "Gracias, mi vuelo es el 14 de marzo": "14 de marzo",
    "Danke, mein Flug ist am 14. März": "14. März",
    "Merci, mon vol est le 14 mars": "14 mars",
    "Obrigada, o meu voo é a 14 de março": "14 de março",
    "Grazie, il mio volo è il 14 marzo": "14 marzo",
}


def thanks_closing_right(text: str) -> bool:
    got = read_message(text)
    return got.intent is Intent.SMALL_TALK and not got.facts


@pytest.mark.parametrize("text", sorted(THANKS_CLOSING_CONTROLS))
def test_thanks_beside_a_fact_keeps_it(text: str) -> None:
    assert kept(read_message(text).facts, THANKS_CLOSING_CONTROLS[text], how="flat")


# a texting-style question: an abbreviated or unaccented question word, no mark
TEXTING_WH: dict[str, list[str]] = {
    "en": ["wen is the dentist again", "wat time is practice tmrw"],
    "es": ["cuanto sale el alquiler del local x mes", "a q hora sale el bus pal centro"],
    "de": ["wann is nochma das elterngespräch", "wo trifft sich die gruppe morgen nochma"],
    "fr": ["cest quand le resto avec les collegues", "ca commence a quelle heure le match deja"],
    "pt": ["q horas é o jantar msm", "qnd é a consulta do dentista"],
    "it": ["qnd è la cena di classe", "a ke ora inizia la partita"],
}
TEXTING_WH_CONTROLS_NOT = [  # a statement in the same style: no question
    "q bom que deu certo o jantar",
]
TEXTING_WH_CONTROLS = {
    "cuando llegue te aviso": Intent.STATEMENT,
}


texting_wh_right = reads_as(Intent.QUESTION)


test_a_texting_statement_asks_nothing = control_test(TEXTING_WH_CONTROLS_NOT, reads_other_than(Intent.QUESTION))
test_a_texting_statement_reads_as_a_statement = intent_table_test(TEXTING_WH_CONTROLS)


# a refusal after a secret ("…, forget I sent it"): nothing kept, the secret never
REFUSAL_AFTER: dict[str, list[tuple[str, str]]] = {
    "en": [("The wifi password at the cabin is Tr0mso-Lake-88, forget I ever sent you that", "Tr0mso-Lake-88"),
           ("My locker code is 4471, forget I told you", "4471")],
    "es": [("La clave del wifi de la casa rural es Pinar-2291, olvídate de que te la mandé", "Pinar-2291"),
           ("El código del trastero es 8812, olvidate de que te lo dije", "8812")],
    "de": [("Das WLAN-Passwort im Ferienhaus ist Moewe-7731, vergiss, dass ich dir das geschickt habe", "Moewe-7731"),
           ("Der Code vom Spind ist 5520, vergiss, dass ich es dir gesagt hab", "5520")],
    "fr": [("Le mot de passe du wifi du chalet est Sapin-4419, oublie que je te l'ai envoyé", "Sapin-4419"),
           ("Le code du casier est 6634, oublie que je te l'ai dit", "6634")],
    "pt": [("A senha do wifi da casa de praia é Onda-5582, esquece que te mandei isso", "Onda-5582"),
           ("O código do cacifo é 7713, esquece que eu te disse", "7713")],
    "it": [("La password del wifi della baita è Larice-3347, dimentica che te l'ho mandata", "Larice-3347"),
           ("Il codice dell'armadietto è 9921, scordati che te l'ho detto", "9921")],
}
REFUSAL_AFTER_CONTROLS = {  # forgetting something else: kept, no refusal
    "I always forget that the bins go out on Tuesday": Intent.STATEMENT,
    "Siempre me olvido de que la basura sale el martes": Intent.STATEMENT,
}


def refusal_after_right(case: tuple[str, str]) -> bool:
    text, secret = case
    got = read_message(text)
    return got.intent is Intent.DO_NOT_KEEP and secret.lower() not in " ".join(got.facts).lower()


@pytest.mark.parametrize("text", sorted(REFUSAL_AFTER_CONTROLS))
def test_forgetting_something_else_is_no_refusal(text: str) -> None:
    assert read_message(text).intent is REFUSAL_AFTER_CONTROLS[text]


@pytest.mark.parametrize("text, secret", [
    ("Nu păstra asta: parola mea de la bancă este Brad-Verde-5521", "Brad-Verde-5521"),
    ("Nu salva asta, cheia mea de API este AKIAQ7PLM4XR2ZT9WBNE", "AKIAQ7PLM4XR2ZT9WBNE"),
])
def test_a_refusal_in_an_untabled_language_is_read_neutrally_and_its_secret_redacted(text: str, secret: str) -> None:
    got = read_message(text)
    assert (got.language, got.intent, got.facts) == ("ro", Intent.UNKNOWN, ())
    assert secret not in redact_for_disk(text).text


# a statement naming something that read as a question or kept nothing: "Para …" opening a
# recipe, a number then "and I must …", a dislike or habit in colloquial words
STATED: dict[str, list[tuple[str, str]]] = {
    "en": [("cant stand coriander, never order it in curries", "cant stand coriander"),
           ("My visa expires on 3 June 2027 and I must renew it in Croydon", "expires on 3 June 2027")],
    "es": [("Para el gazpacho uso 1 kg de tomates, 2 pimientos y un pepino", "uso 1 kg de tomates"),
           ("Mi carnet caduca el 8 de mayo de 2027 y debo pedir cita para renovarlo", "caduca el 8 de mayo de 2027")],
    "de": [("Zum Bäcker geh ich nur samstags, da gibt es frische Brezeln", "geh ich nur samstags"),
           ("Mein Ausweis läuft am 2. März 2027 ab und ich muss einen Termin machen", "2. März 2027")],
    "fr": [("J'haïs le céleri, jamais dans mes soupes", "J'haïs le céleri"),
           ("Mon passeport expire le 9 juin 2027 et je dois prendre rendez-vous en mairie", "9 juin 2027")],
    "pt": [("Para o arroz de pato uso 500 g de arroz e 1 pato inteiro", "uso 500 g de arroz"),
           ("O meu cartão de cidadão caduca a 5 de maio de 2027 e devo marcar a renovação", "5 de maio de 2027")],
    "it": [("Nun me piace 'o coriandolo, nun 'o ordino maje", "Nun me piace 'o coriandolo"),
           ("La mia patente scade il 12 ottobre 2027 e devo rinnovarla alla motorizzazione", "12 ottobre 2027")],
}
STATED_CONTROLS_NOT = [  # "para" as "stop", a number then a question: the reading kept
    "Para, por favor, ya está bien",
    "Para de me mandar lembretes",
]
STATED_CONTROLS = {
    "My flight lands at 6 can I make the 7:15 bus": Intent.QUESTION,
    "Il treno arriva alle 18 posso prendere il bus delle 18:20": Intent.QUESTION,
}


def stated_right(case: tuple[str, str]) -> bool:
    text, fact = case
    got = read_message(text)
    return got.intent is Intent.STATEMENT and kept(got.facts, fact, how="flat")


test_stop_and_a_question_after_a_number_keep_their_reading = control_test(STATED_CONTROLS_NOT, reads_other_than(Intent.STATEMENT))
test_a_number_then_a_question_asks = intent_table_test(STATED_CONTROLS)


@pytest.mark.parametrize("text", [
    "debo a mi cuñado 1.500 € del coche",
    "devo ao senhorio 800 euros da renda",
    "Devo alla banca 2.300 euro del prestito",
    "devo all'idraulico 180 euro",
])
def test_an_amount_owed_to_someone_is_stated(text: str) -> None:
    got = read_message(text)
    assert got.intent is Intent.STATEMENT and got.facts


@pytest.mark.parametrize("text", ["can I bring a 20 dollar bill", "posso spendere 50 euro per il regalo",
                                  "¿puedo pagar con 20 euros en efectivo?"])
def test_an_amount_after_a_modal_still_asks(text: str) -> None:
    assert read_message(text).intent is Intent.QUESTION


# a habit told by how often, with nothing else named: kept
HABIT_FREQUENCY: dict[str, list[str]] = {
    "en": ["My orchids sit on the bathroom sill and I mist them twice a week", "I run along the canal once a week"],
    "es": ["Mis helechos están en el balcón y los riego dos veces por semana", "Voy a nadar una vez a la semana"],
    "de": ["Meine Kakteen stehen im Flur und ich gieße sie einmal im Monat", "Ich gehe zweimal pro Woche schwimmen"],
    "fr": ["Mes fougères sont sur le balcon et je les arrose deux fois par semaine", "Je vais nager une fois par semaine"],
    "pt": ["As minhas orquídeas estão na varanda e rego-as uma vez por semana", "Vou nadar duas vezes por semana"],
    "it": ["Le mie felci sono sul balcone e le annaffio due volte a settimana", "Vado a nuotare una volta a settimana"],
}


def habit_frequency_right(text: str) -> bool:
    got = read_message(text)
    return got.intent is Intent.STATEMENT and kept(got.facts, text, how="flat")


FAMILIES = {
    "joined_wh": (JOINED_WH, joined_wh_right),
    "folder_imperative": (FOLDER_IMPERATIVE, folder_imperative_right),
    "thanks_closing": (THANKS_CLOSING, thanks_closing_right),
    "texting_wh": (TEXTING_WH, texting_wh_right),
    "refusal_after": (REFUSAL_AFTER, refusal_after_right),
    "stated": (STATED, stated_right),
    "habit_frequency": (HABIT_FREQUENCY, habit_frequency_right),
}
FLOOR = {
    "joined_wh": {lang: len(JOINED_WH[lang]) for lang in LANGS},
    "folder_imperative": {lang: len(FOLDER_IMPERATIVE[lang]) for lang in LANGS},
    "thanks_closing": {lang: len(THANKS_CLOSING[lang]) for lang in LANGS},
    "texting_wh": {lang: len(TEXTING_WH[lang]) for lang in LANGS},
    "refusal_after": {lang: len(REFUSAL_AFTER[lang]) for lang in LANGS},
    "stated": {lang: len(STATED[lang]) for lang in LANGS},
    "habit_frequency": {lang: len(HABIT_FREQUENCY[lang]) for lang in LANGS},
}

test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
