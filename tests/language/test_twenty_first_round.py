"""Twenty-first-round families of the lexicon reader (issue 35), written from holdout17's and
holdout18's misses (development data now) and measured on sentences written for this file
before the mechanism was (none of them is in a split; same author as the mechanism, so weaker
evidence than a blind split): taking leave with a time word or a mood ("Ora chiudo, a domani");
a keep idiom before a colon ("Make sure this stays with you: …"); a refusal after a secret
("… — forget I pasted it"); a file change by a rename of two names or a folder made with a file
in it.

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Twenty-first round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent
from tests.language.family_checks import control_test, intent_table_test, kept, reads_as, reads_other_than
from tests.language.family_floor import LANGS, all_read, floor_test



# taking leave with a time word ("now", "tonight", "for today") or a mood: small talk, nothing kept
LEAVE_TIMED: dict[str, list[str]] = {
    "en": ["Done for today, catch you tomorrow", "Wiped out, heading to bed now x"],
    "es": ["Ya me desconecto, hasta mañana 😴", "Esta noche cierro el chiringuito, buenas noches"],
    "de": ["Ich klink mich jetzt aus, bis morgen 😴", "Heut mach ich früher zu, gute Nacht"],
    "fr": ["Ce soir je ferme boutique, bonne nuit", "Je décroche pour ce soir, à demain 😴"],
    "pt": ["Agora vou desligar, até amanhã 😴", "Hoje fecho a loja cedo, boa noite"],
    "it": ["Ora chiudo, a domani 😴", "Stasera chiudo baracca, buona notte"],
}
LEAVE_TIMED_CONTROLS = {  # a goodbye naming an appointment: the appointment kept
    "See you tomorrow at 9 at the dentist, I'm off now": "9",
    "Mañana a las 9 tengo el dentista, me desconecto ya": "9",
    "Morgen um 9 hab ich den Zahnarzt, ich klink mich jetzt aus": "9",
    "Demain à 9 h j'ai le dentiste, je décroche pour ce soir": "9",
    "Amanhã às 9 tenho dentista, agora vou desligar": "9",
    "Domani alle 9 ho il dentista, ora chiudo": "9",
    "Stasera chiudo il negozio alle 20": "20",
    "Hoje fecho a loja às 18h": "18",
}


def leave_timed_right(text: str) -> bool:
    got = read_message(text)
    return got.intent is Intent.SMALL_TALK and not got.facts


@pytest.mark.parametrize("text", sorted(LEAVE_TIMED_CONTROLS))
def test_a_goodbye_beside_an_appointment_keeps_it(text: str) -> None:
    got = read_message(text)
    assert got.intent is not Intent.SMALL_TALK and LEAVE_TIMED_CONTROLS[text] in " ".join(got.facts)


# a keep idiom before a colon: a keep request, the fact after the colon kept
KEEP_IDIOM: dict[str, list[tuple[str, str]]] = {
    "en": [("Make sure this stays with you: bins go out on Thursdays", "bins go out on Thursdays"),
           ("Make sure this one sticks: the boiler reset is the red button", "the boiler reset is the red button")],
    "es": [("Que se te quede bien esto: la basura se saca los jueves", "la basura se saca los jueves"),
           ("Métete esto en la cabeza: el gas se revisa en marzo", "el gas se revisa en marzo")],
    "de": [("Das muss hängen bleiben: der Müll kommt donnerstags raus", "der Müll kommt donnerstags raus"),
           ("Schreib dir das hinter die Ohren: die Heizung wird im März gewartet", "die Heizung wird im März gewartet")],
    "fr": [("Mets-toi bien ça dans le crâne : les poubelles sortent le jeudi", "les poubelles sortent le jeudi"),
           ("Que ça te reste en tête : la chaudière est révisée en mars", "la chaudière est révisée en mars")],
    "pt": [("Fica com isto na cabeça: o lixo sai às quintas", "o lixo sai às quintas"),
           ("Mete isto na cabeça: a caldeira é revista em março", "a caldeira é revista em março")],
    "it": [("Segnatevi 'sta cosa: la palestra chiude alle 8 la domenica", "la palestra chiude alle 8 la domenica"),
           ("Stampatelo in testa: la caldaia si revisiona a marzo", "la caldaia si revisiona a marzo")],
}
KEEP_IDIOM_CONTROLS = {  # the idiom as a question or a remark with no colon: no keep request
    "Does this stay with you after a week?": Intent.QUESTION,
    "Fica com isto, é teu": Intent.STATEMENT,
    "I cooked it without saving any leftovers: it was delicious": Intent.STATEMENT,
}


def keep_idiom_right(case: tuple[str, str]) -> bool:
    text, fact = case
    got = read_message(text)
    return got.intent is Intent.REMEMBER and kept(got.facts, fact, how="flat") and not any(":" in f for f in got.facts)


@pytest.mark.parametrize("text", sorted(KEEP_IDIOM_CONTROLS))
def test_the_idiom_without_a_colon_is_no_keep_request(text: str) -> None:
    assert read_message(text).intent is KEEP_IDIOM_CONTROLS[text]


# a refusal after (or before) a secret: nothing kept, the secret never
REFUSAL: dict[str, list[tuple[str, str]]] = {
    "en": [("my deploy token is ghp_9aB3cD5eF7gH9iJ1kL3mN5oP7qR9sT1uV3wX — forget I pasted it", "ghp_9aB3cD5eF7gH9iJ1kL3mN5oP7qR9sT1uV3wX"),
           ("the router password is Heron-7712, forget I posted that", "Heron-7712"),
           ("My bank password is Oak-4471 and the PIN 5521, don't even think about writing them down", "Oak-4471")],
    "es": [("La clave del router es Tigre-9921, ni se te ocurra apuntarla", "Tigre-9921"),
           ("El pin de la tarjeta es 4417, ni se te ocurra guardarlo", "4417"),
           ("La clave del banco es Roble-4471 y el pin 5521, ni se te ocurra anotarlas", "Roble-4471")],
    "de": [("Das Passwort vom Router ist Fuchs-4410, vergiss, dass ich es reinkopiert hab", "Fuchs-4410"),
           ("Vertraulich und ohne es zu speichern: der PIN der Karte ist 5521", "5521"),
           ("Das Bankpasswort ist Eiche-4471 und die PIN 5521, denk nicht mal dran, sie aufzuschreiben", "Eiche-4471")],
    "fr": [("Le code de l'alarme est Biche-7781, oublie que je l'ai collé", "Biche-7781"),
           ("En toute discrétion et sans l'enregistrer : le code de la carte est 5521", "5521"),
           ("Le mot de passe de la banque est Chêne-4471 et le code 5521, ne t'avise pas de les noter", "Chêne-4471")],
    "pt": [("A senha do router é Gato-3381, esquece que colei isso", "Gato-3381"),
           ("Em sigilo e sem guardar: o pin do cartão é 5521", "5521"),
           ("A senha do banco é Carvalho-4471 e o pin 5521, nem penses em anotá-las", "Carvalho-4471")],
    "it": [("In via riservata e senza salvarlo: il pin della carta è 5521", "5521"),
           ("La password del router è Lupo-4471, dimentica che l'ho incollata", "Lupo-4471"),
           ("La password della banca è Quercia-4471 e il pin 5521, non pensarci nemmeno a segnarle", "Quercia-4471")],
}


REFUSAL_CONTROLS = {  # a habit of not writing down, told: a statement
    "I don't even think about writing them down anymore, I use a password manager": Intent.STATEMENT,
    "Se te ocurra algo, avísame": Intent.STATEMENT,
}


@pytest.mark.parametrize("text", sorted(REFUSAL_CONTROLS))
def test_a_told_habit_is_no_refusal(text: str) -> None:
    assert read_message(text).intent is REFUSAL_CONTROLS[text]


def refusal_right(case: tuple[str, str]) -> bool:
    text, secret = case
    got = read_message(text)
    return got.intent is Intent.DO_NOT_KEEP and secret.lower() not in " ".join(got.facts).lower()


# a file change: a rename of one name-like token to another, a folder made with a file in it, a
# path got rid of
FILE_CHANGE: dict[str, list[str]] = {
    "en": ["Get rid of trips/2022, the whole folder", "Rename drafts_old to drafts_2026"],
    "es": ["Haz una carpeta recetas/tartas con un bizcocho.md adentro", "Renombra borradores_viejos a borradores_2026"],
    "de": ["Benenne rezepte_alt in rezepte_2026 um", "Die Datei alte_rechnungen.txt kannst du wegwerfen"],
    "fr": ["Renomme brouillons_vieux en brouillons_2026", "Débarrasse-toi de voyages/2022, tout le dossier"],
    "pt": ["Renomeia rascunhos_velhos para rascunhos_2026", "Faz-me uma pasta viagens/roma com um roteiro.md lá dentro"],
    "it": ["Fammi una cartella ricette/pane con dentro un lievito.md", "Rinomina bozze_vecchie in bozze_2026"],
}
FILE_CHANGE_CONTROLS_NOT = [  # a rename of no name-like token, or a question about one: no file change
    "Rename the meeting to Friday",
    "Rinomina il gatto in Micio",
    "Haz una carpeta de cartón para el cole",
    "Fammi una cartella clinica nuova",
]
FILE_CHANGE_CONTROLS = {
    "Did you rename drafts_old to drafts_2026?": Intent.QUESTION,
}


file_change_right = reads_as(Intent.FILE_CHANGE)


test_a_rename_without_names_is_no_file_change = control_test(FILE_CHANGE_CONTROLS_NOT, reads_other_than(Intent.FILE_CHANGE))
test_a_question_about_a_rename_stays_a_question = intent_table_test(FILE_CHANGE_CONTROLS)


# a greeting, praise of speed, a blessing or a good wish as the whole message: small talk, nothing kept
GREETING: dict[str, list[str]] = {
    "en": ["Hey stranger! Long time, huh?", "Have a lovely evening, madam"],
    "es": ["Qué rapidez, eres un rayo!", "Adiós, que Dios te acompañe"],
    "de": ["Na, du Fremder! Lange nicht gesehen, was?", "Wahnsinn, wie schnell, du bist eine Rakete!"],
    "fr": ["Quelle rapidité, t'es une fusée !", "Salut ! Quoi de beau ce matin ?"],
    "pt": ["Tchau, vai com Deus", "Tenha uma ótima noite, senhora"],
    "it": ["Che rapidità, sei un fulmine!", "Ciao, che fine avevi fatto? Quanto tempo!"],
}
GREETING_CONTROLS = {  # a speed asked about, an address or a wish beside a fact: the reading kept
    "Che velocità ha la fibra a casa tua?": Intent.QUESTION,
    "What speed is the train to Leeds?": Intent.QUESTION,
    "Madam, my flight is on 14 March": Intent.STATEMENT,
    "Passez une belle soirée au restaurant Le Cygne le 14 mars": Intent.STATEMENT,
}


def greeting_right(text: str) -> bool:
    got = read_message(text)
    return got.intent is Intent.SMALL_TALK and not got.facts


@pytest.mark.parametrize("text", sorted(GREETING_CONTROLS))
def test_a_greeting_word_beside_a_fact_or_question_keeps_its_reading(text: str) -> None:
    assert read_message(text).intent is GREETING_CONTROLS[text]


# a plan of moving or marrying with an address and a day, opened by "vamos (a)": a statement, kept
MOVE_PLAN: dict[str, list[tuple[str, str]]] = {
    "en": [("We're moving to 14 Elm Street, flat 2, on 3 April", "3 April"), ("We're getting married in Bath on 14 June", "14 June")],
    "es": [("Vamos a mudarnos a la calle Mayor 12, 3.º izda., el 9 de marzo", "9 de marzo"),
           ("Vamos a casarnos en Cádiz el 14 de junio", "14 de junio")],
    "de": [("Wir ziehen am 3. April in die Lindenstraße 14, 2. Stock", "3. April"), ("Wir heiraten am 14. Juni in Lindau", "14. Juni")],
    "fr": [("On déménage au 14 rue des Lilas, 2e étage, le 3 avril", "3 avril"), ("On se marie à Annecy le 14 juin", "14 juin")],
    "pt": [("Vamos mudar-nos para a Rua do Almada n.º 12, 3.º dto., no dia 9 de março", "9 de março"),
           ("Vamos nos mudar para a Rua Augusta 12 no dia 9 de março", "9 de março")],
    "it": [("Ci trasferiamo in via Roma 12, interno 3, il 9 marzo", "9 marzo"), ("Ci sposiamo a Lecce il 14 giugno", "14 giugno")],
}
MOVE_PLAN_CONTROLS = {  # "vamos" moving a thing, asked: a question
    "Vamos mudar a mesa para a sala?": Intent.QUESTION,
    "Vamos a mudar los muebles el 3 de mayo?": Intent.QUESTION,
}


def move_plan_right(case: tuple[str, str]) -> bool:
    text, day = case
    got = read_message(text)
    return got.intent is Intent.STATEMENT and kept(got.facts, day, how="flat")


@pytest.mark.parametrize("text", sorted(MOVE_PLAN_CONTROLS))
def test_moving_a_thing_asked_stays_a_question(text: str) -> None:
    assert read_message(text).intent is MOVE_PLAN_CONTROLS[text]


FAMILIES = {
    "leave_timed": (LEAVE_TIMED, leave_timed_right),
    "keep_idiom": (KEEP_IDIOM, keep_idiom_right),
    "refusal": (REFUSAL, refusal_right),
    "file_change": (FILE_CHANGE, file_change_right),
    "greeting": (GREETING, greeting_right),
    "move_plan": (MOVE_PLAN, move_plan_right),
}
FLOOR = {
    "leave_timed": all_read(LEAVE_TIMED),
    "keep_idiom": all_read(KEEP_IDIOM),
    "refusal": all_read(REFUSAL),
    "file_change": all_read(FILE_CHANGE),
    "greeting": all_read(GREETING),
    "move_plan": all_read(MOVE_PLAN),
}

test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
