"""Eleventh-round phrase families of the lexicon reader (issue 35, from holdout6's misses): each
row is a family member no split holds, in the six tabled languages, with negatives that must
not fire."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent
from tests.language.family_checks import drops, expect, keeps, reads_as, reads_other_than, small_talk


@pytest.mark.parametrize("text,fact", [
    # remember requests as idioms, or a keep verb in a polite frame with the fact after
    # "that", a colon or a dash
    ("Could you hold on to the fact that the boiler service is on 3 March?", "boiler service is on 3 March"),
    ("Would you mind storing somewhere in your head that Priya's flat is number 14?", "Priya's flat is number 14"),
    ("Can you stash this away for later — the locker code is 5512", "the locker code is 5512"),
    ("For future reference: the vet is Dr Ahmed", "the vet is Dr Ahmed"),
    ("Quiero que te quedes con esto: mi vuelo sale el 12 a las 7", "mi vuelo sale el 12 a las 7"),
    ("Agendá que la reunión es el martes 4", "la reunión es el martes 4"),
    ("Behalte bitte, dass Tante Ilse am 3. Mai Geburtstag hat", "Tante Ilse am 3. Mai Geburtstag hat"),
    ("Schreibt euch hinter die Ohren: der Müll geht dienstags raus", "der Müll geht dienstags raus"),
    ("Mets ça dans un coin de ta tête : le dentiste est le 9 avril", "le dentiste est le 9 avril"),
    ("J'aimerais que tu le saches : mon frère s'appelle Yanis", "mon frère s'appelle Yanis"),
    ("Fixa aí que o aniversário da Bia é dia 17", "o aniversário da Bia é dia 17"),
    ("Se faz favor, grava aí que a consulta é às 15h", "a consulta é às 15h"),
    ("Stampatelo bene in testa: il mio numero di scarpe è 44", "il mio numero di scarpe è 44"),
    ("Mettitelo in testa che il martedì vado in palestra alle 19", "il martedì vado in palestra alle 19"),
])
def test_remember_idioms(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER) & keeps(1))


@pytest.mark.parametrize("text,secret", [
    # refusals as idioms; a tag question after them changes nothing
    ("Not for your records: my PIN is 4471", "4471"),
    ("Mi PIN es 2290, esto no va a tu memoria, ¿eh?", "2290"),
    ("Lass das aus deinen Notizen raus: mein PIN ist 6613", "6613"),
    ("Mon NIP c'est 7781. Note-le pas, là.", "7781"),
    ("Meu PIN é 3304, isto não vai para a memória, tá?", "3304"),
    ("Il PIN è 5590, te lo scordi subito, ok?", "5590"),
])
def test_refusal_idioms_keep_nothing(text: str, secret: str) -> None:
    expect((text, secret), reads_as(Intent.DO_NOT_KEEP) & drops(1, fold=False))


@pytest.mark.parametrize("text,fact", [
    # a private lead ending on a tag question marks the rest private and asks nothing
    ("Isto é entre nós, ok? O Rui vai sair da empresa em março", "O Rui vai sair da empresa em março"),
    ("Entre estas cuatro paredes, ¿eh? Mi hermana se casa en junio", "Mi hermana se casa en junio"),
    ("Rimanga fra noi: Marco lascia il lavoro a maggio", "Marco lascia il lavoro a maggio"),
])
def test_private_leads_with_a_tag(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.STATEMENT, asks=False, private=True) & keeps(1))


@pytest.mark.parametrize("text,fact", [
    ("I said something stupid, the dentist is on the 14th", "the dentist is on the 14th"),
    ("Dije una tontería: la cena es el viernes", "la cena es el viernes"),
    ("Kleine Korrektur: das Treffen ist am 5. Juni", "das Treffen ist am 5. Juni"),
    ("J'ai dit une bêtise, le rendez-vous est à 15 h", "le rendez-vous est à 15 h"),
    ("Falei besteira, a consulta é na sexta às 10h", "a consulta é na sexta às 10h"),
    ("Piccola correzione: il volo è alle 8", "il volo è alle 8"),
])
def test_corrections_opened_by_nonsense(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.CORRECTION) & keeps(1))


@pytest.mark.parametrize("text", [
    "you're a legend", "Eres un crack", "Du bist ein Schatz", "Tu gères grave", "Você é demais",
    "Sei un mito", "that's me off for the day", "Mañana seguimos", "On continue demain",
    "Domani riprendiamo", "how's the day treating you?", "Wie läuft dein Tag so?",
    "roger that 👍",
])
def test_small_talk_idioms(text: str) -> None:
    expect(text, small_talk(facts=False))


@pytest.mark.parametrize("text", [
    "the 17:40 bus is crawling again",
    "Me estoy comiendo una empanada",
    "Ich esse gerade einen Apfel",
    "Tô comendo uma coxinha",
    "Mi sto bevendo un caffè, troppo buono",
])
def test_remarks_of_the_moment_are_not_kept(text: str) -> None:
    expect(text, reads_as(facts=False, asks=False))


@pytest.mark.parametrize("text", [
    "please ditch scratch.md, it's old", "Balance-moi brouillon.txt", "Tírame borrador.md",
    "Schmeiß notizen-alt.md", "Deleta rascunho.txt", "Cestina bozza.md",
])
def test_slang_file_verbs(text: str) -> None:
    expect(text, reads_as(Intent.FILE_CHANGE))


@pytest.mark.parametrize("text", [
    "c koi le code de la porte deja", "qdo é o jantar da empresa", "Me lembra onde deixei o passaporte",
    "cdo es la cita con el dentista",
])
def test_texting_questions(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, asks=True))


@pytest.mark.parametrize("text,fact", [
    ("Faz dois meses que moro em Braga", "Faz dois meses que moro em Braga"),
    ("Ho tre figli di 2, 5 e 8 anni qual è un buon gioco da tavolo", "Ho tre figli di 2, 5 e 8 anni"),
    ("Tengo dos hijos de 4 y 9 años cuál es un buen juego de mesa", "Tengo dos hijos de 4 y 9 años"),
])
def test_statements_not_questions(text: str, fact: str) -> None:
    expect((text, fact), keeps(1))


@pytest.mark.parametrize("text,intent", [
    # negatives: the families must not fire here
    ("Faz isso para mim, por favor", Intent.QUESTION),  # "faz" asks when no duration follows
    ("I started a new job at Acme in May", Intent.STATEMENT),  # "start" with no file
    ("Domani piove o no", Intent.STATEMENT),  # too short for an asking tail
    ("Oggi mangio un panino buono", Intent.STATEMENT),  # "buono" holds no "o no"
    ("Petite question : tu as vu mes clés ?", Intent.QUESTION),
    ("I said I'd call her tomorrow", Intent.STATEMENT),
])
def test_families_do_not_fire(text: str, intent: Intent) -> None:
    assert read_message(text).intent is intent


@pytest.mark.parametrize("text", [
    "Hang on to your ticket until we board",  # "hang on to" with no fact after it
    "Je veux que tu le saches, je t'aime",  # no colon: a feeling, nothing to keep
    "Could you file the tax return by Friday?",  # "file" with no "away" and no fact after
])
def test_keep_idioms_need_a_fact_after(text: str) -> None:
    expect(text, reads_other_than(Intent.REMEMBER))


@pytest.mark.parametrize("text,fact", [
    # a keep verb, then words naming where to keep (``keep_places``), then "that": a remember request
    ("Could you note somewhere that Mia is vegan?", "Mia is vegan"),
    ("Puedes guardar en algún sitio que mi taquilla es la 112?", "mi taquilla es la 112"),
    ("Tu peux noter quelque part que mon casier c'est le 112 ?", "mon casier c'est le 112"),
    ("Podes guardar algures que o meu cacifo é o 112?", "o meu cacifo é o 112"),
    ("Puoi salvare da qualche parte che il mio armadietto è il 112?", "il mio armadietto è il 112"),
])
def test_keep_verb_with_a_place_before_that(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER) & keeps(1))


@pytest.mark.parametrize("text", [
    "Can you note down the name of the restaurant that we went to?",  # "name" is no place
    "Puoi ricordare in che giorno arriva Luca?",  # "in che": a question word after the place word
    "Você consegue lembrar o que eu comprei ontem?",
])
def test_place_words_do_not_hide_a_question(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, asks=True))


@pytest.mark.parametrize("text,intent", [
    ("Could you squirrel away the fact that my passport expires in May 2027?", Intent.REMEMBER),
    ("Grábate esto: mi hija sale del cole a las 14", Intent.REMEMBER),
    ("Kannst du dir bitte hinter die Ohren schreiben, dass der Termin am 8. ist?", Intent.REMEMBER),
    ("Mea culpa: la cena es el sábado", Intent.CORRECTION),
    ("Quatsch, das Meeting ist am Dienstag", Intent.CORRECTION),
    ("Me enganei feio: a reunião é na terça", Intent.CORRECTION),
    ("Bin weg, ciao", Intent.SMALL_TALK),
    ("Scappo, ciao", Intent.SMALL_TALK),
    ("Elimíname viejo.txt", Intent.FILE_CHANGE),
    ("Weg mit alt.txt", Intent.FILE_CHANGE),
    # negatives
    ("Grábate un vídeo para mí", Intent.STATEMENT),
    ("Quatsch mit Soße ist lecker", Intent.STATEMENT),
])
def test_more_members_and_look_alikes(text: str, intent: Intent) -> None:
    assert read_message(text).intent is intent
