"""Twenty-fourth-round families of the lexicon reader (issue 35), written from the first
reading of wide2 (short everyday messages; development data) and measured on sentences written
for this file before the mechanism was (none of them is in a split; same author as the
mechanism, so weaker evidence than a blind split): a short first-person habit, ability or
dislike kept as a fact ("I can't ski.", "Nunca vuelo con low cost."); a bare "No," before a
corrected fact naming a day, a time, a number or a name, and a soft opener before a plain fact
naming someone ("Actually, Biscuit is a girl."): corrections; a short fact before a question
joined by a comma, kept and the question answered; a note or a rename of a named file: a file
change.

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed; the controls are sentences that must keep their reading."""

from __future__ import annotations

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent
from tests.language.family_checks import (control_test, intent_table_test, keeps, keeps_nothing, lead, reads_as,
                                          reads_other_than)
from tests.language.family_floor import LANGS, all_read, floor_test



# a short first-person habit, ability or dislike (negated, with a frequency word, pro-drop):
# a statement, kept
HABIT: dict[str, list[str]] = {
    "en": ["I can't ski.", "I never fly long haul.", "Not a fan of olives.", "Loathe escalators, I always take the stairs."],
    "es": ["No sé nadar.", "Nunca vuelo con aerolíneas baratas.", "Jamás bebo refrescos.", "No conduzco por autopista."],
    "de": ["Ich kann nicht schwimmen.", "Ich fliege nie mit Billigfliegern.", "Ich kann nicht Auto fahren.",
           "Ich fahre kein Auto.", "Kreuzfahrten find ich schrecklich."],
    "fr": ["Je ne sais pas nager.", "Je ne prends jamais l'avion.", "Jamais d'alcool pour moi.", "Je bosse dans une boulangerie.",
           "Je fais une allergie au pollen."],
    "pt": ["Não sei nadar.", "Nunca viajo de avião.", "Não fumo.", "Não conduzo à noite."],
    "it": ["Non so nuotare.", "Non prendo mai l'aereo.", "Non guido di notte.", "Non fumo."],
}
HABIT_CONTROLS = [  # a one-off, not knowing, not finding, a mood, a remark: nothing kept
    "I can't make it", "I don't know", "I can't find my keys", "I never thought of that", "I'm so tired",
    "No sé", "No puedo hoy", "No encuentro las llaves", "Estoy cansadísimo",
    "Ich weiß nicht", "Ich kann heute nicht", "Ich finde meine Schlüssel nicht",
    "Je ne sais pas", "Je ne peux pas venir", "Je ne trouve pas mes clés",
    "Não sei", "Não posso hoje", "Não encontro as chaves",
    "Non lo so", "Non posso venire", "Non trovo le chiavi",
    "Hate that.", "Odio esto.", "Das find ich schrecklich.", "Dich find ich ätzend.", "Not again", "Non ancora",
    "Sempre vou atrasado.", "Non vado mai.", "Ich fahre nicht.", "Ich kann nicht kochen heute.", "I never run out of ideas.",
]
habit_right = reads_as(Intent.STATEMENT, facts=True)
test_a_one_off_or_a_mood_keeps_nothing = control_test(HABIT_CONTROLS, keeps_nothing)


# a bare "No," before a corrected fact naming a day, a time, a number or a name; a soft opener
# before a plain fact naming someone: a correction, the lead word not kept
CORRECT_NO: dict[str, list[tuple[str, str]]] = {
    "en": [("No, the vet is on Friday.", "the vet is on Friday"), ("No, the flight lands at 18:40.", "the flight lands at 18:40"),
           ("Actually, Biscuit is a girl.", "Biscuit is a girl")],
    "es": [("No, la cita es el jueves.", "la cita es el jueves"), ("No, el vuelo sale a las 7.", "el vuelo sale a las 7"),
           ("En realidad, Toby es una perra.", "Toby es una perra")],
    "de": [("Nein, das Training ist am Donnerstag.", "das Training ist am Donnerstag"),
           ("Nein, die Party ist um 20 Uhr.", "die Party ist um 20 Uhr")],
    "fr": [("Non, le dentiste est mardi.", "le dentiste est mardi"), ("Non, la réunion commence à 9 h.", "la réunion commence à 9 h"),
           ("En fait, Caramel est un mâle.", "Caramel est un mâle")],
    "pt": [("Não, a consulta é na sexta.", "a consulta é na sexta"), ("Não, o voo sai às 7.", "o voo sai às 7"),
           ("Na verdade, o Tobias é uma cadela.", "o Tobias é uma cadela")],
    "it": [("No, il dentista è martedì.", "il dentista è martedì"), ("No, la riunione comincia alle 9.", "la riunione comincia alle 9"),
           ("In realtà, Briciola è un maschio.", "Briciola è un maschio")],
}
CORRECT_NO_CONTROLS = [  # a "no" answer with no fact after it: no correction
    "No, thanks", "No, I don't think so", "No, not yet", "No, I'm fine",
    "No, gracias", "No, todavía no", "Nein, danke", "Nein, noch nicht",
    "Non, merci", "Non, pas encore", "Não, obrigado", "Não, ainda não", "No, non ancora", "No, grazie",
    "Actually, Maybe later", "No, I'm off on Tuesday", "No, tomorrow I can't", "Nein, ich kann erst am Montag",
]


def correct_no_right(case: tuple[str, str]) -> bool:
    text, fact = case
    got = read_message(text)
    lead_word = text.split(",")[0].lower()
    return (got.intent is Intent.CORRECTION and any(fact.lower() in f.lower() for f in got.facts)
            and not any(f.lower().startswith(lead_word) for f in got.facts))


test_a_no_answer_without_a_fact_is_no_correction = control_test(CORRECT_NO_CONTROLS, reads_other_than(Intent.CORRECTION))


# a short fact before a question joined by a comma: the fact kept, the question answered
FACT_ASK: dict[str, list[str]] = {
    "en": ["I'm 70 years old, do I get a senior railcard?", "I have asthma, can I take ibuprofen?", "Diabetic here, are figs fine?"],
    "es": ["Tengo 66 años, ¿me toca la tarjeta dorada?", "Soy celíaca, ¿puedo comer avena?", "Tengo gota, ¿la cerveza está bien?"],
    "de": ["Ich hab Diabetes, darf ich Honig essen?", "Ich bin 68 Jahre alt, krieg ich Seniorenrabatt?"],
    "fr": ["J'ai 70 ans, j'ai droit au tarif réduit ?", "Je suis diabétique, je peux manger des dattes ?",
           "J'ai de la goutte, la bière ça passe ?"],
    "pt": ["Tenho 66 anos, tenho direito ao desconto?", "Sou diabética, posso comer tâmaras?", "Tenho hipertensão, café pode?"],
    "it": ["Ho 70 anni, ho diritto alla riduzione?", "Sono celiaca, posso mangiare il farro?", "Ho la gotta, la birra va bene?"],
}
FACT_ASK_CONTROLS = [  # no durable fact before the question: nothing kept
    "Tengo una pregunta, ¿me ayudas?", "I'm bored, any ideas?", "J'ai une question, tu peux m'aider ?",
    "Ho una domanda, mi aiuti?", "Tenho uma dúvida, podes ajudar?", "Ich hab eine Frage, kannst du helfen?",
]
fact_ask_right = reads_as(Intent.QUESTION, asks=True) & keeps(lead(","))
test_a_question_after_no_fact_keeps_nothing = control_test(FACT_ASK_CONTROLS, keeps_nothing)


# a note put in a named file, a named file renamed: a file change
FILE_NOTE: dict[str, list[str]] = {
    "en": ["Jot down milk in groceries.md", "Change the name of scan2.pdf to lease.pdf", "Change the name of holiday1.jpg to rome.jpg"],
    "es": ["Apunta pan en lista.md", "Cambia el nombre de foto3.jpg a dni.jpg"],
    "de": ["Notier Eier in einkauf.md", "Ändere den Namen von scan2.pdf in mietvertrag.pdf"],
    "fr": ["Note du lait dans courses.md", "Change le nom de photo2.jpg en permis.jpg"],
    "pt": ["Anota ovos em compras.md", "Muda o nome de scan2.pdf para contrato.pdf"],
    "it": ["Segna il latte in spesa.md", "Cambia il nome di foto2.jpg in patente.jpg"],
}
FILE_NOTE_CONTROLS = {  # a note with no file named: a remember request
    "Note that the dentist is on Tuesday": Intent.REMEMBER,
    "Apunta que el dentista es el martes": Intent.REMEMBER,
    "Notier dir, dass der Zahnarzt am Dienstag ist": Intent.REMEMBER,
    "Note que le dentiste est mardi": Intent.REMEMBER,
    "Anota que o dentista é na terça": Intent.REMEMBER,
    "Segna che il dentista è martedì": Intent.REMEMBER,
}
FILE_NOTE_NOT = [  # a name changed that is no file: no file change
    "Change the name of the meeting to Planning", "Cambia el nombre del grupo a Familia",
    "Muda o nome do grupo para Família", "Cambia il nome del gruppo in Famiglia",
]
file_note_right = reads_as(Intent.FILE_CHANGE)
test_a_note_without_a_file_stays_a_remember = intent_table_test(FILE_NOTE_CONTROLS)
test_a_renamed_group_is_no_file_change = control_test(FILE_NOTE_NOT, reads_other_than(Intent.FILE_CHANGE))


FAMILIES = {
    "habit": (HABIT, habit_right),
    "correct_no": (CORRECT_NO, correct_no_right),
    "fact_ask": (FACT_ASK, fact_ask_right),
    "file_note": (FILE_NOTE, file_note_right),
}
FLOOR = {name: all_read(cases) for name, (cases, _) in FAMILIES.items()}
test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
