"""Phrase families and general signals of the lexicon reader (issue 35): each row is a
family member the tables must read, not a sentence they were tuned on."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.detect import detect
from openclaw_tui.language.lexicon import lexicon
from openclaw_tui.language.reading import Intent
from openclaw_tui.language.sentences import split
from tests.language.family_checks import (drops, expect, keeps, keeps_nothing, keeps_something, reads_as, reads_other_than,
                                          small_talk, whole)


@pytest.mark.parametrize("text,fact", [
    ("Please remember I'm allergic to penicillin.", "I'm allergic to penicillin"),
    ("Would you mind noting that the gate code is 1234?", "the gate code is 1234"),
    ("Jot down that the plumber comes on Monday.", "the plumber comes on Monday"),
    ("Apúntate esto: la cita es el 4 de mayo.", "la cita es el 4 de mayo"),
    ("Schreib dir bitte auf, dass der Zug um 7 Uhr fährt.", "der Zug um 7 Uhr fährt"),
    ("J'aimerais que tu notes que le train part à 7 h.", "le train part à 7 h"),
    ("Podes lembrar-te de que o jantar é às 20h?", "o jantar é às 20h"),
    ("Segnati che la cena è alle 20.", "la cena è alle 20"),
])
def test_remember_family(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER) & keeps(1))


@pytest.mark.parametrize("text", [
    "remember the name of my dentist?",
    "¿Puedes recordar qué te dije del hotel?",
    "Lembra-me em que dia é a consulta.",
    "Tu pourrais te rappeler à quelle heure part le train",
])
def test_a_remember_verb_put_as_a_question_recalls(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, asks=True))


@pytest.mark.parametrize("text,secret", [
    ("My PIN is 5521, don't hold on to that.", "5521"),
    ("Der Code ist 4711, speicher das bitte nicht.", "4711"),
    ("Le code est 8812. Ne le note nulle part.", "8812"),
    ("O código é 3390, não guarde isso.", "3390"),
    ("Il codice è 6677, non salvarlo da nessuna parte.", "6677"),
    ("La clave es 9090, no la apuntes.", "9090"),
])
def test_refusal_in_any_placement(text: str, secret: str) -> None:
    expect((text, secret), reads_as(Intent.DO_NOT_KEEP) & drops(1, fold=False))


@pytest.mark.parametrize("text", [
    "My bad, the meeting is at 3.", "Me he confundido: la reunión es a las 3.",
    "Falsch gesagt: das Treffen ist um 3.", "En fait non, la réunion est à 15 h.",
    "Afinal a reunião é às 15h.", "Anzi, la riunione è alle 15.",
])
def test_correction_openers(text: str) -> None:
    expect(text, reads_as(Intent.CORRECTION, facts=True))


@pytest.mark.parametrize("text", [
    "Talk to you tomorrow!", "Hasta el lunes", "Bis morgen!", "À demain !", "Até amanhã", "Ci vediamo domani",
])
def test_goodbyes_name_no_fact(text: str) -> None:
    expect(text, small_talk(facts=False))


@pytest.mark.parametrize("text", [
    "Fix the heading in notes.md.", "Corrige el título en notas.md.", "Kannst du in notizen.md eine Zeile ergänzen?",
    "Corrige le titre dans notes.md.", "Corrija o título em notas.md.", "Correggi il titolo in note.md.",
])
def test_file_change_verbs(text: str) -> None:
    expect(text, reads_as(Intent.FILE_CHANGE))


def test_a_request_to_read_a_named_file_looks_nothing_up() -> None:
    r = read_message("Read USER.md for me")
    assert r.intent is Intent.QUESTION and r.asks and r.query == ""
    assert read_message("Read me what you know about Bruno").query  # no file named: a lookup


@pytest.mark.parametrize("text", [
    "We're godparents to her son.", "Somos voluntarios en el comedor.", "On est témoins.",
    "Somos sócios do clube.", "Siamo testimoni.", "Ich bin Trauzeuge.",
])
def test_first_person_roles_are_facts(text: str) -> None:
    expect(text, keeps_something)


@pytest.mark.parametrize("text,lang", [
    ("Jag bor i Göteborg med min syster.", "sv"),
    ("Bunu bana yarın hatırlat lütfen.", "tr"),
    ("No como pescado.", "es"),
    ("Tack så mycket, vi ses snart!", "sv"),
])
def test_detection(text: str, lang: str) -> None:
    assert detect(text) == lang


# Family 1: refusals after (or before) the content, colloquial, in every language and register:
# "don't you dare save that", "pretend I never said that", "not a word …", "off the books",
# "no me lo guardes", "olvídate de que te mandé esto", "die speicherst du aber bitte nicht",
# "Kein Wort davon …", Swiss "Schriib das nöd uf", "tu le notes pas, hein", "Motus", "c'est off",
# "esquece o que eu te mandei", "finge que eu não disse nada", "acqua in bocca", "fai finta che …".
# A card number (Luhn) among them never reaches the facts.
@pytest.mark.parametrize("text,withheld", [
    ("My door code is 4471, but don't you dare save that.", '4471'),
    ('The alarm code is 9012 — pretend I never said that.', '9012'),
    ("Tom's getting fired next week, you didn't hear it from me.", "Tom's getting fired"),
    ('Not a word of this in your notes: Ana is pregnant.', 'Ana is pregnant'),
    ("Card's 4111 1111 1111 1111, wipe that from your memory after.", '4111 1111 1111 1111'),
    ("Forget I ever told you about Dad's surgery.", "Dad's surgery"),
    ('The safe combo is 12-40-7, keep it out of your notes pls', '12-40-7'),
    ("Please forget what I told you about Lucy's divorce.", "Lucy's divorce"),
    ('This one stays off the books: my PIN is 8830.', '8830'),
    ('The wifi password is hunter22, no need to keep that one.', 'hunter22'),
    ('Mi PIN es 7719, pero eso no me lo guardes, eh.', '7719'),
    ('Olvídate de que te mandé esto: Lucía está embarazada.', 'Lucía está embarazada'),
    ('Haz como si no te hubiera dicho nada de lo de Pablo.', 'Pablo'),
    ('Ni una palabra en tus notas: me voy de la empresa.', 'me voy de la empresa'),
    ('La clave del portal es 3381, borrala de tu memoria después.', '3381'),
    ('Olvidate de lo que te conté sobre mi viejo.', 'mi viejo'),
    ('Esto no lo anotes, eh: mi sueldo es 2.300.', '2.300'),
    ('Mi tarjeta es 4556 7375 8689 9855, no la guardes en ningún lado.', '4556 7375 8689 9855'),
    ('Die PIN ist 6612, die speicherst du aber bitte nicht.', '6612'),
    ('Mein Passwort ist Sonne77 – das merkst du dir bitte nicht.', 'Sonne77'),
    ('Vergiss, was ich dir über Onkel Peter erzählt hab.', 'Onkel Peter'),
    ('Kein Wort davon in deine Notizen: Jana kündigt.', 'Jana kündigt'),
    ('Tu so, als hätte ich nichts gesagt: Timo zieht aus.', 'Timo zieht aus'),
    ('Die Karte ist 4916 3385 0608 2832, schreib die ja nicht auf.', '4916 3385 0608 2832'),
    ('Das hast du nicht von mir: der Chef geht im Mai.', 'der Chef geht im Mai'),
    ('Schriib das bitte nöd uf, de Code isch 5580.', '5580'),
    ('Des brauchst da ned merken, der Code is 2290.', '2290'),
    ("Le code du portail c'est 4410, mais tu le notes pas, hein.", '4410'),
    ('Motus : Julie a démissionné.', 'Julie a démissionné'),
    ("Fais comme si j'avais rien dit pour Marc.", 'Marc'),
    ("Oublie que je t'ai parlé de la maladie de papa.", 'la maladie de papa'),
    ("Ma carte c'est 4532 0151 1283 0366, efface ça de ta mémoire.", '4532 0151 1283 0366'),
    ('Pas un mot à personne, ni dans tes notes : on déménage.', 'on déménage'),
    ("C'est off : Paul a été viré.", 'Paul a été viré'),
    ("Écris pas ça nulle part, le code c'est 7731.", '7731'),
    ('Retiens pas ça : mon mot de passe est soleil88.', 'soleil88'),
    ('O código do portão é 5541, mas não anota isso não.', '5541'),
    ('Finge que eu não disse nada sobre a Carla.', 'Carla'),
    ('Esquece o que eu te mandei sobre o meu chefe.', 'meu chefe'),
    ('Apaga isso da memória: a senha é girassol9.', 'girassol9'),
    ('Meu cartão é 4024 0071 5336 1885, nem anota isso.', '4024 0071 5336 1885'),
    ('Não tomes nota disto: o Rui vai ser despedido.', 'o Rui vai ser despedido'),
    ('Isso não é pra anotar: minha irmã tá grávida.', 'minha irmã tá grávida'),
    ('Il PIN è 3318, ma non segnartelo, eh.', '3318'),
    ("Dimentica che te l'ho scritto: Luca lascia il lavoro.", 'Luca lascia il lavoro'),
    ('Fai finta che non ti abbia detto niente su Marta.', 'Marta'),
    ('Acqua in bocca: Giulia è incinta.', 'Giulia è incinta'),
    ('La mia carta è 4485 2847 2013 4093, cancellala dalla memoria.', '4485 2847 2013 4093'),
    ('Questo non lo segnare: il codice è 6620.', '6620'),
    ('Non prenderne nota, ma la password è mare2024.', 'mare2024'),
])
def test_colloquial_refusals_withhold_everything(text: str, withheld: str) -> None:
    expect((text, withheld), reads_as(Intent.DO_NOT_KEEP, facts=False) & drops(1, fold=False))


# Family 2: a private lead-in ("just between us", "for my eyes only", "solo para ti", "nur für dich",
# "c'est perso", "entre a gente", "detto tra noi", "it's a personal matter") before a remember cue:
# the fact is kept, marked private, without the cue words or the lead-in.
@pytest.mark.parametrize("text,fact,cue", [
    ('Just between us, remember that I lent Sam 80 quid.', 'I lent Sam 80 quid', 'remember that'),
    ('For my eyes only: note that my therapist is Dr. Hale.', 'my therapist is Dr. Hale', 'note that'),
    ("This stays between you and me — make a note that I'm seeing a cardiologist in May.", "I'm seeing a cardiologist in May", 'make a note that'),
    ('Private, but please remember that my salary is 52k.', 'my salary is 52k', 'remember that'),
    ('Strictly between us, keep in mind that Jo is job hunting.', 'Jo is job hunting', 'keep in mind that'),
    ('Entre nosotros, acuérdate de que le presté 300 euros a Nico.', 'le presté 300 euros a Nico', 'acuérdate de que'),
    ('Esto es solo para ti: apunta que mi psicóloga se llama Irene.', 'mi psicóloga se llama Irene', 'apunta que'),
    ('Que quede entre nosotros, pero anotá que me debe 20 lucas el Tano.', 'me debe 20 lucas el Tano', 'anotá que'),
    ('Es algo personal: recuerda que tomo sertralina.', 'tomo sertralina', 'recuerda que'),
    ('Unter uns: merk dir, dass ich 400 Euro bei Tom Schulden habe.', 'ich 400 Euro bei Tom Schulden habe', 'merk dir, dass'),
    ('Das ist privat, aber schreib dir auf, dass mein Therapeut Herr Roth heißt.', 'mein Therapeut Herr Roth heißt', 'schreib dir auf, dass'),
    ('Nur für dich: notier dir, dass ich am 3. Juni zum Kardiologen muss.', 'ich am 3. Juni zum Kardiologen muss', 'notier dir, dass'),
    ('Ganz im Vertrauen – merk dir bitte, dass Lea schwanger ist.', 'Lea schwanger ist', 'merk dir bitte, dass'),
    ('Entre nous, retiens que je dois 200 € à Hugo.', 'je dois 200 € à Hugo', 'retiens que'),
    ("C'est perso : note que mon psy s'appelle Benoît.", "mon psy s'appelle Benoît", 'note que'),
    ("Juste pour toi, n'oublie pas que je prends du Levothyrox.", 'je prends du Levothyrox', "n'oublie pas que"),
    ('De toi à moi, garde en tête que Léa cherche un autre boulot.', 'Léa cherche un autre boulot', 'garde en tête que'),
    ('Cá entre nós, anota que o Beto me deve 150 reais.', 'o Beto me deve 150 reais', 'anota que'),
    ('Isto fica entre nós: lembra-te de que tenho consulta de psiquiatria a 4 de março.', 'tenho consulta de psiquiatria a 4 de março', 'lembra-te de que'),
    ('É só pra você: guarda que minha senha do banco muda em junho.', 'minha senha do banco muda em junho', 'guarda que'),
    ('Entre a gente, lembra que eu tô fazendo terapia às quintas.', 'eu tô fazendo terapia às quintas', 'lembra que'),
    ('Detto tra noi, segnati che devo 80 euro a Franco.', 'devo 80 euro a Franco', 'segnati che'),
    ("È una cosa riservata: ricordati che prendo l'Eutirox.", "prendo l'Eutirox", 'ricordati che'),
    ('Solo per te, tieni a mente che Sara sta cercando casa.', 'Sara sta cercando casa', 'tieni a mente che'),
    ('Questa resta tra me e te, annota che il mio psicologo è il dott. Neri.', 'il mio psicologo è il dott. Neri', 'annota che'),
    ("It's a personal matter, but note that I'm on antidepressants.", "I'm on antidepressants", 'note that'),
    ('Es un asunto privado: recuerda que mi hermano está en rehabilitación.', 'mi hermano está en rehabilitación', 'recuerda que'),
    ('Das ist eine private Sache, merk dir, dass ich am Freitag zum Anwalt gehe.', 'ich am Freitag zum Anwalt gehe', 'merk dir, dass'),
    ("C'est une affaire personnelle : retiens que je vois l'avocat jeudi.", "je vois l'avocat jeudi", 'retiens que'),
    ('Isso é um assunto pessoal, anota que eu vou ao advogado na sexta.', 'eu vou ao advogado na sexta', 'anota que'),
    ("Quella è una faccenda riservata: ricordati che vedo l'avvocato venerdì.", "vedo l'avvocato venerdì", 'ricordati che'),
])
def test_a_private_lead_in_before_a_remember_cue_keeps_the_fact_privately(text: str, fact: str, cue: str) -> None:
    expect((text, fact, cue), reads_as(Intent.REMEMBER, private=True) & keeps(1, how="joined") & drops(2, how="joined"))


# Family 3: polite frames around a remember verb ("would you mind keeping track of the fact that",
# "pls remember", "¿Serías tan amable de apuntar que", "Le ruego que anote que", "¿Puedes
# anotarte que", "Chönntsch dir notiere, dass", "Kannst da merken, dass", "Ça t'ennuierait de
# retenir que", "Tu peux-tu prendre en note que", "Tem como você anotar que", "Agradecia que
# registasses", "Ti andrebbe di segnare che", "Mi segni che"), and a "please" after the verb.
@pytest.mark.parametrize("text,fact,cue", [
    ('Would you mind keeping track of the fact that the gym closes at 9?', 'the gym closes at 9', 'keeping track'),
    ('pls remember my locker is number 212', 'my locker is number 212', 'pls remember'),
    ("Could you possibly make a mental note that Ben's flight is BA117?", "Ben's flight is BA117", 'mental note'),
    ('Mind jotting down that the vet is Dr. Fox?', 'the vet is Dr. Fox', 'jotting down'),
    ("If it's not too much trouble, remember that Mia is lactose intolerant.", 'Mia is lactose intolerant', 'remember that'),
    ('Would you be able to remember that my passport expires in 2027?', 'my passport expires in 2027', 'able to remember'),
    ("I'd be grateful if you could note that the boiler was serviced on 4 March.", 'the boiler was serviced on 4 March', 'note that'),
    ('Kindly log that the meter reading is 40211.', 'the meter reading is 40211', 'log that'),
    ("plz keep track of the fact that Nora's school starts at 8:40", "Nora's school starts at 8:40", 'keep track'),
    ('¿Serías tan amable de apuntar que el fontanero viene el jueves?', 'el fontanero viene el jueves', 'apuntar que'),
    ('¿Me harías el favor de recordar que la cena es el 12?', 'la cena es el 12', 'recordar que'),
    ('Te agradecería que anotaras que el seguro vence en junio.', 'el seguro vence en junio', 'anotaras que'),
    ('¿Podés acordarte de que el turno del dentista es el martes?', 'el turno del dentista es el martes', 'acordarte de que'),
    ('Necesito que te acuerdes de que Lola es alérgica al maní.', 'Lola es alérgica al maní', 'te acuerdes de que'),
    ('¿Le importaría anotar que mi número de socio es 5531?', 'mi número de socio es 5531', 'anotar que'),
    ('Porfa, apuntate que la reunión es a las 10.', 'la reunión es a las 10', 'apuntate que'),
    ('Le ruego que anote que mi vuelo sale a las 7:15.', 'mi vuelo sale a las 7:15', 'anote que'),
    ('¿Puedes anotarte que el gimnasio cierra a las 22?', 'el gimnasio cierra a las 22', 'anotarte que'),
    ('Könntest du dir bitte notieren, dass das Paket am Montag kommt?', 'das Paket am Montag kommt', 'notieren, dass'),
    ('Wärst du so lieb, dir zu merken, dass Oma am 9. Mai Geburtstag hat?', 'Oma am 9. Mai Geburtstag hat', 'merken, dass'),
    ('Würden Sie bitte festhalten, dass meine Kundennummer 88231 ist?', 'meine Kundennummer 88231 ist', 'festhalten, dass'),
    ('Magst du dir aufschreiben, dass der Elektriker 60 Euro kostet?', 'der Elektriker 60 Euro kostet', 'aufschreiben, dass'),
    ('Ich wär dir dankbar, wenn du dir merkst, dass ich kein Gluten vertrage.', 'ich kein Gluten vertrage', 'merkst, dass'),
    ('Kannst dir merken, dass das Training jetzt um 19 Uhr ist?', 'das Training jetzt um 19 Uhr ist', 'merken, dass'),
    ('Chönntsch dir notiere, dass de Zahnarzt am Zischtig isch?', 'de Zahnarzt am Zischtig isch', 'notiere, dass'),
    ('Kannst da merken, dass da Installateur am Freitag kommt?', 'da Installateur am Freitag kommt', 'merken, dass'),
    ('Tu pourrais te noter que le plombier passe jeudi ?', 'le plombier passe jeudi', 'noter que'),
    ('Je vous prie de noter que mon numéro client est 44120.', 'mon numéro client est 44120', 'noter que'),
    ("Ça t'ennuierait de retenir que Zoé est allergique aux noix ?", 'Zoé est allergique aux noix', 'retenir que'),
    ('Tu veux bien garder en tête que le loyer augmente en juillet ?', 'le loyer augmente en juillet', 'garder en tête'),
    ("Auriez-vous l'amabilité de noter que ma réunion est à 14 h ?", 'ma réunion est à 14 h', 'noter que'),
    ('Je te demande de retenir que la fête est samedi.', 'la fête est samedi', 'retenir que'),
    ('Tu peux-tu prendre en note que le garage ferme à 17 h ?', 'le garage ferme à 17 h', 'prendre en note'),
    ('Merci de prendre note que mon vol est le AF 1234.', 'mon vol est le AF 1234', 'prendre note'),
    ('Você pode anotar aí que o dentista é dia 14?', 'o dentista é dia 14', 'anotar aí que'),
    ('Consegue guardar que a senha do Wi-Fi mudou para casa2024?', 'a senha do Wi-Fi mudou para casa2024', 'guardar que'),
    ('Podias tomar nota de que o jantar é às 20h?', 'o jantar é às 20h', 'tomar nota de que'),
    ('Te peço que anote: a vistoria do carro é em maio.', 'a vistoria do carro é em maio', 'anote:'),
    ('Será que você podia lembrar que a Bia não come carne?', 'a Bia não come carne', 'lembrar que'),
    ('Faz um favor, anota que o encanador vem na terça.', 'o encanador vem na terça', 'anota que'),
    ('Tem como você anotar que meu voo sai às 6h?', 'meu voo sai às 6h', 'anotar que'),
    ('Agradecia que registasses que o seguro vence em abril.', 'o seguro vence em abril', 'registasses que'),
    ('Ti chiedo di annotare che il meccanico chiude alle 18.', 'il meccanico chiude alle 18', 'annotare che'),
    ('Le chiedo di prendere nota: il mio codice cliente è 77120.', 'il mio codice cliente è 77120', 'prendere nota'),
    ('Saresti così gentile da segnarti che la cena è sabato?', 'la cena è sabato', 'segnarti che'),
    ('Ti dispiacerebbe ricordarti che Anna è celiaca?', 'Anna è celiaca', 'ricordarti che'),
    ("Mi faresti il piacere di annotare che l'idraulico viene giovedì?", "l'idraulico viene giovedì", 'annotare che'),
    ('Ti andrebbe di segnare che il corso inizia il 3 ottobre?', 'il corso inizia il 3 ottobre', 'segnare che'),
    ('Riusciresti a ricordarti che il volo parte alle 7?', 'il volo parte alle 7', 'ricordarti che'),
    ('Mi segni che la palestra chiude alle 22?', 'la palestra chiude alle 22', 'segni che'),
    ('Note, please, that the bins go out on Tuesday.', 'the bins go out on Tuesday', 'please'),
    ('Anota, por favor, que la cita con el notario es el lunes.', 'la cita con el notario es el lunes', 'por favor'),
    ('Merk dir, bitte, dass der Zug um 8 fährt.', 'der Zug um 8 fährt', 'bitte'),
    ("Retiens, s'il te plaît, que le vol part à 6 h.", 'le vol part à 6 h', "s'il te plaît"),
    ('Guarda aí, por favor: a consulta da minha mãe é na terça.', 'a consulta da minha mãe é na terça', 'por favor'),
    ('Segnati, per favore, che la riunione è alle 9.', 'la riunione è alle 9', 'per favore'),
])
def test_polite_frames_around_a_remember_verb_keep_the_clause(text: str, fact: str, cue: str) -> None:
    expect((text, fact, cue), reads_as(Intent.REMEMBER, asks=False) & keeps(1, how="joined") & drops(2, how="joined"))


# Family 4: a greeting question or a farewell, in any register, is small talk and asks nothing
# ("Hey, you good?", "¿Qué onda, cómo andas?", "Grüezi, wie gaht's?", "Salut, la forme ?",
# "E aí, como é que tá?", "Ciao, come te la passi?", "Tschüss, bis übermorgen!").
@pytest.mark.parametrize("text", [
    'Hey, you good?',
    'Morning! How are things?',
    "Yo, what's new?",
    "Hi there, how've you been?",
    'Evening, all good with you?',
    "Alright mate, how's life?",
    'Cheers, see you the day after tomorrow!',
    'Night, talk to you next week!',
    '¡Buenas! ¿Qué contás?',
    'Hola, ¿cómo te va?',
    '¡Buen día! ¿Todo bien?',
    '¿Qué onda, cómo andas?',
    'Buenas tardes, ¿cómo está usted?',
    '¿Qué tal, cómo has estado?',
    'Chao, hasta pasado mañana.',
    'Nos vemos la semana que viene, cuídate.',
    'Moin, alles klar bei dir?',
    "Hallo, wie läuft's?",
    "Grüezi, wie gaht's?",
    'Na, was geht?',
    'Guten Tag, wie geht es Ihnen?',
    'Tschüss, bis übermorgen!',
    'Servus, bis nächste Woche!',
    'Baba, bis zum nächsten Mal!',
    'Salut toi, ça va bien ?',
    'Coucou, quoi de neuf ?',
    'Bonjour, vous allez bien ?',
    'Allô, comment tu vas ?',
    'Salut, la forme ?',
    'Bon, à après-demain !',
    'Bonne soirée, à la semaine prochaine !',
    'Oi, tudo certo?',
    'Olá, como você está?',
    'Bom dia! Tudo joia?',
    'E aí, como é que tá?',
    'Boa tarde, como tens passado?',
    'Tchau, até depois de amanhã!',
    'Falou, até semana que vem!',
    'Ciao, come te la passi?',
    'Buongiorno, come sta?',
    'Ehi, tutto a posto?',
    'Salve, come andiamo?',
    'Ciao, che si dice?',
    'Ciao, a dopodomani!',
    'Buona serata, ci sentiamo la settimana prossima!',
    # sixth round: regional greeting questions and thanks
    'Servus miteinand, wie schauts aus?', 'Grüezi, alles guet bi dir?', 'Tip top, merci viu mau!', 'Jo eh, danke!',
    "Hey! How's everything on your end?", 'Thanks heaps, talk tomorrow',
    '¡Hola! ¿Todo tranquilo por ahí?', 'Te luciste, gracias de verdad',
    'Bonne fin de journée, on se reparle bientôt', 'Oiii, tudo certo aí?', 'Sei stata gentilissima, grazie davvero',
])
def test_greeting_questions_and_farewells_are_small_talk(text: str) -> None:
    expect(text, small_talk(facts=False, asks=False))


@pytest.mark.parametrize("text", [
    "Qual é o código do portão", "Qué hay para cenar", "Cómo está el tráfico en la M-30",
    "Wie schaut's aus mit dem Termin beim Zahnarzt?", "How are things on your end with the visa?",
    "¿Todo tranquilo por ahí con la mudanza de Ana?", "Tudo certo aí com o voo da Bia?",
])
def test_a_greeting_word_opening_a_real_question_still_asks(text: str) -> None:
    expect(text, reads_as(asks=True))


# Family 5: remind-me and recall requests, with or without "?", in every register ("Recordame …",
# "Recuérdeme …", "Acordate de lo que …", "Tu te rappelles ce que …", "Lembra daquele …", "Ti
# ricordi quel …", "Puoi ricordarmi che cosa …"), and questions opening on a preposition and a
# question word without a mark ("a qué hora …", "um wie viel Uhr …", "avec qui …", "com quem …").
@pytest.mark.parametrize("text", [
    'Remind me what the plumber charged',
    "remind me the name of Leo's teacher",
    'Remember what I told you about the mortgage rate',
    'Do you recall which day the gardener comes',
    'At what time does the pharmacy close on Sundays',
    'in which drawer did I put the spare keys',
    'Recordame cuánto pagué de luz',
    'Recordame el nombre de la pediatra',
    'Recuerda lo que te conté del viaje a Cusco',
    'Acordate de lo que te dije sobre el alquiler',
    'Recuérdeme la dirección del notario',
    '¿Te acordás qué día venía el plomero?',
    'a qué hora abre la farmacia el domingo',
    'con quién quedé el viernes',
    'Erinner mich an die Nummer vom Schlüsseldienst',
    'Weißt du noch, was ich über die Heizung gesagt hab',
    'Erinnere mich, wie der Arzt hieß',
    'um wie viel Uhr macht die Apotheke auf',
    'seit wann hab ich den Handyvertrag',
    'Chasch mi dra erinnere, wo ich s Velo abgstellt ha',
    'Rappelle-moi le nom du pédiatre',
    "Tu te rappelles ce que je t'ai dit sur la voiture",
    "Tu te souviens c'était quand le rendez-vous chez le véto",
    "Te rappelles-tu où j'ai mis le passeport",
    "dans quel tiroir j'ai mis les clés",
    'avec qui je dîne jeudi',
    'Me lembra o nome da pediatra',
    'Lembra daquele restaurante que a gente foi em Lisboa',
    'Lembras-te do que eu disse sobre a renda',
    'Você lembra qual era a senha do Wi-Fi',
    'a que horas o pão fica pronto na padaria',
    'com quem eu marquei na sexta',
    'Ricordami il nome della pediatra',
    'Ti ricordi quanto costava la revisione',
    'Ti ricordi quel ristorante che ti ho detto a Bologna',
    'Puoi ricordarmi che cosa ho detto del mutuo?',
    'a che ora chiude la farmacia domenica',
    'con chi ho appuntamento venerdì',
])
def test_recall_requests_and_unmarked_questions_ask(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.QUESTION and r.asks and r.query


@pytest.mark.parametrize("text,fact", [
    ("Recuerda que el lunes es festivo.", "el lunes es festivo"),
    ("Lembra que a reunião é às 10.", "a reunião é às 10"),
    ("Ricorda che la palestra chiude alle 22.", "la palestra chiude alle 22"),
])
def test_a_remember_verb_before_that_still_keeps(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER) & keeps(1))


# Family 6: a file change put as a polite question or with a colloquial verb, in every language
# ("Stick … at the bottom of todo.md", "Would you mind renaming …", "¿Me borras …?", "Cámbiale el
# título a …", "Löschst du mir in todo.md …?", "… kürzen?", "Tu me rajoutes … ?", "Balance …",
# "Me apaga …?", "Bota …", "Mi cancelli …?", "Potresti sistemarmi …?", "Piazza …").
@pytest.mark.parametrize("text", [
    "Stick 'call the bank' at the bottom of my todo.md",
    'Pop a line about the vet into pets.md',
    "Could you chuck 'buy milk' at the end of shopping.md?",
    'Can you slap a new heading onto journal.md?',
    'Would you mind renaming draft.md to letter.md?',
    'Mind tidying up the intro of cv.md?',
    '¿Me borras la última línea de compras.md?',
    '¿Me agregás una fila al final de gastos.md?',
    'Cámbiale el título a informe.md, que diga "Resumen".',
    'Quítale la última sección a viaje.md',
    'Ponle fecha de hoy al principio de diario.md',
    '¿Le podés sacar el segundo párrafo a carta.md?',
    'Kannst du in notizen.md den zweiten Absatz umschreiben?',
    'Könntest du bei einkauf.md die letzte Zeile rausnehmen?',
    'Magst du in tagebuch.md das Datum anpassen?',
    'Löschst du mir in todo.md den ersten Punkt?',
    'Würdest du die Überschrift von bericht.md kürzen?',
    "Tu peux m'effacer la dernière ligne de courses.md ?",
    'Tu me rajoutes « appeler la banque » à la fin de todo.md ?',
    'Vous pourriez renommer brouillon.md en lettre.md ?',
    'Balance « acheter du pain » tout en bas de courses.md',
    'Me apaga a última linha de compras.md?',
    'Podes acrescentar uma linha no fim de tarefas.md?',
    'Bota "ligar pro banco" no final de todo.md',
    'Dá pra você renomear rascunho.md para carta.md?',
    "Mi cancelli l'ultima riga di spesa.md?",
    'Mi aggiungi "chiamare la banca" in fondo a todo.md?',
    'Ti spiace rinominare bozza.md in lettera.md?',
    "Potresti sistemarmi l'intestazione di diario.md?",
    'Piazza "comprare il pane" alla fine di spesa.md',
])
def test_polite_and_colloquial_file_changes(text: str) -> None:
    expect(text, reads_as(Intent.FILE_CHANGE, facts=False))


def test_mind_you_is_no_polite_request() -> None:
    r = read_message("Mind you, the rent is 800 a month.")
    assert r.intent is Intent.STATEMENT and not r.asks


# Family 7: a correction opened softly ("Actually, …", "Turns out …", "Perdona, …", "Resulta que
# …", "Eigentlich …", "Finalement …", "Na verdade …", "In realtà …") or put in the "X, not Y" frame
# ("… on Friday, not Thursday", "… a las 9, no a las 11", "… am Samstag, nicht am Freitag",
# "… samedi, et non dimanche", "… na quarta, não na terça", "… il 5 maggio, non il 6").
@pytest.mark.parametrize("text,fact", [
    ("Actually, Mia's recital got moved to the 14th", "Mia's recital got moved to the 14th"),
    ("Sorry, Theo's flight lands at 7:30", "Theo's flight lands at 7:30"),
    ('Turns out the plumber is coming on Thursday', 'the plumber is coming on Thursday'),
    ("Wait, Grandma's party is in Leeds, not York", "Grandma's party is in Leeds"),
    ('The quiz night is on Friday, not Thursday', 'The quiz night is on Friday'),
    ('Perdona, la boda de Inés es el 20, no el 27', 'la boda de Inés es el 20'),
    ('En realidad Martina se mudó a Valencia', 'Martina se mudó a Valencia'),
    ('Resulta que el curso empieza el 3 de marzo', 'el curso empieza el 3 de marzo'),
    ('Disculpá, el asado es el domingo, no el sábado', 'el asado es el domingo'),
    ('El vuelo de Ana sale a las 9, no a las 11', 'El vuelo de Ana sale a las 9'),
    ('Sorry, der Elternabend ist am 12., nicht am 19.', 'der Elternabend ist am 12.'),
    ('Warte, Jonas zieht am 3. Mai um, nicht am 10.', 'Jonas zieht am 3. Mai um'),
    ('Eigentlich beginnt der Kurs erst um 19 Uhr', 'beginnt der Kurs erst um 19 Uhr'),
    ('Das Konzert ist am Samstag, nicht am Freitag', 'Das Konzert ist am Samstag'),
    ('Pardon, le mariage de Léa est le 14, pas le 21', 'le mariage de Léa est le 14'),
    ('Attends, Hugo déménage à Nantes, pas à Rennes', 'Hugo déménage à Nantes'),
    ('Finalement la réunion est jeudi à 10 h', 'la réunion est jeudi à 10 h'),
    ('La fête de Chloé est samedi, et non dimanche', 'La fête de Chloé est samedi'),
    ('Desculpa, o casamento da Rita é dia 9, não dia 16', 'o casamento da Rita é dia 9'),
    ('Na verdade o Pedro mudou-se para Braga', 'o Pedro mudou-se para Braga'),
    ('Opa, o voo do Caio sai às 8, não às 10', 'o voo do Caio sai às 8'),
    ('A consulta é na quarta, não na terça', 'A consulta é na quarta'),
    ('Scusa, il matrimonio di Giulia è il 12, non il 19', 'il matrimonio di Giulia è il 12'),
    ('In realtà Marco si è trasferito a Torino', 'Marco si è trasferito a Torino'),
    ('Aspetta, la cena da Luca è venerdì, non sabato', 'la cena da Luca è venerdì'),
    ('La gita è il 5 maggio, non il 6', 'La gita è il 5 maggio'),
])
def test_soft_and_contrast_corrections(text: str, fact: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.CORRECTION and r.replaces
    assert any(fact.lower() in f.lower() for f in r.facts)


@pytest.mark.parametrize("text,intent", [
    ("Sorry, I'm running a bit late.", Intent.STATEMENT),
    ("Sorry, what time is the dentist?", Intent.QUESTION),
    ("Actually, remember that the gym closes at 9.", Intent.REMEMBER),
    ("Perdón, apunta que el gimnasio cierra a las 22.", Intent.REMEMBER),
])
def test_a_soft_opener_before_nothing_specific_corrects_nothing(text: str, intent: Intent) -> None:
    assert read_message(text).intent is intent


# Family 8: a weekday or month abbreviation with a dot, followed by a number or another date word,
# ends no sentence ("Thurs. 6 Mar. at 8.30", "el mié. 5 de feb.", "am Mi. 12. Feb.", "le jeu. 6
# févr.", "na qua. 9 abr.", "mer. 5 febbr."); before anything else it still may.
@pytest.mark.parametrize("text", [
    'The school trip is Thurs. 6 Mar. at 8.30 from the main gate',
    'Dentist moved to Fri. 14 Nov. at 10 with Dr. Patel',
    'La revisión del coche es el mié. 5 de feb. a las 9 en el taller de Ramón',
    'La cena con Lucía es el sáb. 12 oct. a las 21 h',
    'Der Elternabend ist am Mi. 12. Feb. um 19 Uhr in der Aula',
    'Mein Termin beim Zahnarzt ist am Do. 3. Apr. um 8 Uhr',
    'La réunion de copro est le jeu. 6 févr. à 18 h 30',
    'Le vol de Marc part le ven. 21 mars à 7 h',
    'A consulta da Inês é na qua. 9 abr. às 14h',
    'O jantar com o Rui é sáb. 15 fev. às 20h',
    'Il colloquio con Sara è mer. 5 febbr. alle 10',
    'La partita di Luca è sab. 8 mar. alle 15',
])
def test_date_abbreviations_keep_the_fact_whole(text: str) -> None:
    expect(text, keeps(whole, how="joined"))


@pytest.mark.parametrize("text,lang,n", [
    ("We sat. Then we left.", "en", 2), ("Il va au bord de la mer. Demain il rentre.", "fr", 2),
    ("Fr. 3. Mai ist frei.", "de", 1),
])
def test_a_date_abbreviation_before_a_new_sentence_still_ends_it(text: str, lang: str, n: int) -> None:
    assert len(split(text, lexicon(lang))) == n


# Family 9: a remark of the moment names a place, a line or a time and is still nothing to keep
# ("stuck outside Leeds station again", "Sigo esperando el 34", "Steh schon wieder im Stau auf der
# A9", "Bin grad beim Aldi" (no question: the subject is dropped), Québécois "Chu pogné dans le
# trafic", "Tô na fila do Itaú", "Il 64 è di nuovo in ritardo").
@pytest.mark.parametrize("text,remark", [
    ('Ugh, stuck outside Leeds station again', 'stuck outside Leeds station'),
    ('Running 10 mins late, the M25 is a car park', 'Running 10 mins late'),
    ('Just got off the bus at Kings Cross', 'got off the bus'),
    ("Sitting in the waiting room at Dr. Lee's", 'waiting room'),
    ("On the 8:15 train and it's packed", '8:15 train'),
    ('Otra vez atascado en la M-30', 'atascado en la M-30'),
    ('Acabo de salir del Mercadona', 'salir del Mercadona'),
    ('Estoy en la cola del Carrefour', 'cola del Carrefour'),
    ('Ando en el bondi, llego en 10', 'llego en 10'),
    ('Sigo esperando el 34', 'esperando el 34'),
    ('Steh schon wieder im Stau auf der A9', 'Stau auf der A9'),
    ('Bin grad beim Aldi', 'beim Aldi'),
    ('Sitz noch im Zug nach Köln', 'im Zug nach Köln'),
    ('Komm 10 Minuten später, die S-Bahn hat Verspätung', 'S-Bahn hat Verspätung'),
    ('Bi grad im Tram uf em Weg zum Bahnhof', 'im Tram'),
    ('Chu pogné dans le trafic sur la 20', 'trafic sur la 20'),
    ('Encore bloqué sur le périph à Porte Maillot', 'bloqué sur le périph'),
    ('Je sors à peine du Carrefour', 'du Carrefour'),
    ("Je suis dans le RER B, ça n'avance pas", 'RER B'),
    ("J'arrive dans 10 minutes", 'dans 10 minutes'),
    ('Tô preso no trânsito da Marginal', 'trânsito da Marginal'),
    ('Acabei de sair do Pão de Açúcar', 'sair do Pão de Açúcar'),
    ('Tô na fila do Itaú', 'fila do Itaú'),
    ('Estou parado na A1 outra vez', 'parado na A1'),
    ('Chego em 10 minutos', 'Chego em 10 minutos'),
    ('Sono bloccato nel traffico sul GRA', 'traffico sul GRA'),
    ("Appena uscito dall'Esselunga", "uscito dall'Esselunga"),
    ('Sono in coda alla Coop', 'coda alla Coop'),
    ('Il 64 è di nuovo in ritardo', 'Il 64 è di nuovo in ritardo'),
    ('Arrivo tra 10 minuti', 'Arrivo tra 10 minuti'),
])
def test_remarks_of_the_moment_are_not_kept(text: str, remark: str) -> None:
    expect((text, remark), reads_as(Intent.STATEMENT, asks=False) & drops(1, how="joined"))


@pytest.mark.parametrize("text", [
    "Mi hermano es controlador de tráfico aéreo en Barajas.", "Ich bin gerade in Elternzeit bis März.",
    "Elle a à peine 3 ans, ma nièce Léa.",
])
def test_a_moment_word_inside_a_lasting_fact_keeps_it(text: str) -> None:
    expect(text, keeps_something)


# Family 10: habits, diets, dislikes and routines are facts ("I can't stand olives", "Dairy makes
# me ill", "No soporto el cilantro", "Hace años que no como carne roja", "Ich trinke seit Jahren
# keinen Alkohol", Swiss "Üses Auto stoht i de Tiefgarage", "J'ai horreur de la coriandre", "Glúten
# me faz mal", "Faz anos que não bebo …", "Non sopporto il coriandolo", "Ogni giovedì vado a nuoto").
@pytest.mark.parametrize("text,fact", [
    ("I can't stand olives, even on pizza.", "I can't stand olives"),
    ('Dairy makes me ill, so I only drink oat milk.', 'Dairy makes me ill'),
    ('I drink tea, not coffee.', 'I drink tea'),
    ("I haven't eaten meat in years.", "I haven't eaten meat in years"),
    ('We go swimming every Saturday morning.', 'We go swimming every Saturday morning'),
    ('I catch the 8:15 train to work every Monday.', 'I catch the 8:15 train to work every Monday'),
    ('No soporto el cilantro.', 'No soporto el cilantro'),
    ('La lactosa me sienta fatal, solo tomo leche de avena.', 'La lactosa me sienta fatal'),
    ('Hace años que no como carne roja.', 'Hace años que no como carne roja'),
    ('Los martes voy a yoga a las 7.', 'Los martes voy a yoga'),
    ('Todos los domingos comemos en casa de mi suegra.', 'Todos los domingos comemos en casa de mi suegra'),
    ('Ich trinke seit Jahren keinen Alkohol.', 'Ich trinke seit Jahren keinen Alkohol'),
    ('Koriander kann ich nicht ausstehen.', 'Koriander kann ich nicht ausstehen'),
    ('Milch vertrage ich nicht, ich nehme nur Hafermilch.', 'Milch vertrage ich nicht'),
    ('Donnerstags gehe ich immer zum Chor.', 'Donnerstags gehe ich immer zum Chor'),
    ('Üses Auto stoht i de Tiefgarage.', 'Üses Auto stoht i de Tiefgarage'),
    ("J'ai horreur de la coriandre.", "J'ai horreur de la coriandre"),
    ("Le lait me rend malade, je bois que du lait d'avoine.", 'Le lait me rend malade'),
    ('Je ne mange plus de viande depuis 2019.', 'Je ne mange plus de viande depuis 2019'),
    ('Tous les mardis je vais à la piscine.', 'Tous les mardis je vais à la piscine'),
    ('Odeio coentro.', 'Odeio coentro'),
    ('Glúten me faz mal, só como pão sem glúten.', 'Glúten me faz mal'),
    ('Faz anos que não bebo refrigerante.', 'Faz anos que não bebo refrigerante'),
    ('Toda quinta vou ao pilates.', 'Toda quinta vou ao pilates'),
    ('Non sopporto il coriandolo.', 'Non sopporto il coriandolo'),
    ('Il latte mi fa male, bevo solo latte di avena.', 'Il latte mi fa male'),
    ('Sono anni che non mangio carne.', 'Sono anni che non mangio carne'),
    ('Ogni giovedì vado a nuoto.', 'Ogni giovedì vado a nuoto'),
])
def test_habits_diets_and_dislikes_are_kept(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.STATEMENT, asks=False) & keeps(1, how="joined"))


@pytest.mark.parametrize("text,kept", [
    ("I'm on the bus to work every Monday at 7:10.", True),
    ("Sono in coda alla Coop", False),
])
def test_a_habit_beside_a_remark_of_the_moment_is_kept(text: str, kept: bool) -> None:
    assert bool(read_message(text).facts) is kept


# Members of every family written after the families above were filled, read once before any
# table changed (48 of 63 right), then generalised: stacked polite leads ("could you make sure to
# remember"), "erase it once you've read it", "non salvartelo", elongated and addressed greetings
# ("Holaaa", "Ciao bella"), "still at the office", "komme gegen 7".
@pytest.mark.parametrize("text,intent,fact,withheld,private", [
    ("Bank PIN's 4432 — keep that one to yourself and out of your notes.", Intent.DO_NOT_KEEP, '', '4432', False),
    ("Please don't log this, but Ellie's pregnant.", Intent.DO_NOT_KEEP, '', "Ellie's pregnant", False),
    ("My new password is Tulip!99, erase it once you've read it.", Intent.DO_NOT_KEEP, '', 'Tulip!99', False),
    ('Esto que te cuento no lo guardes: me operan en marzo.', Intent.DO_NOT_KEEP, '', 'me operan en marzo', False),
    ('La clave de la alarma es 2207, pero no la anotes en ningún lado, ¿vale?', Intent.DO_NOT_KEEP, '', '2207', False),
    ('Das mit der Kündigung bitte nicht abspeichern.', Intent.DO_NOT_KEEP, '', 'Kündigung', False),
    ('Meine IBAN ist DE89 3704 0044 0532 0130 00, die speicherst du nicht.', Intent.DO_NOT_KEEP, '', 'DE89 3704 0044 0532 0130 00', False),
    ('Garde pas ça en mémoire : Paul est au chômage.', Intent.DO_NOT_KEEP, '', 'Paul est au chômage', False),
    ("Le digicode c'est 4B21, tu l'oublies aussitôt, ok ?", Intent.DO_NOT_KEEP, '', '4B21', False),
    ('Não registra isso: vou pedir demissão.', Intent.DO_NOT_KEEP, '', 'vou pedir demissão', False),
    ('O PIN é 8841, apaga depois de ler.', Intent.DO_NOT_KEEP, '', '8841', False),
    ('Non lo annotare, ma Fabio si separa.', Intent.DO_NOT_KEEP, '', 'Fabio si separa', False),
    ('Il codice del cancello è 5590, non salvartelo.', Intent.DO_NOT_KEEP, '', '5590', False),
    ('Between you and me, remember that my bonus is 3k.', Intent.REMEMBER, 'my bonus is 3k', 'remember that', True),
    ('Confidencial: apunta que tengo cita con el psiquiatra el 9.', Intent.REMEMBER, 'tengo cita con el psiquiatra el 9', 'apunta que', True),
    ('Nur unter uns: merk dir, dass ich am Montag zum Vorstellungsgespräch gehe.', Intent.REMEMBER, 'ich am Montag zum Vorstellungsgespräch gehe', 'merk dir', True),
    ("Entre nous, note que j'ai un entretien lundi.", Intent.REMEMBER, "j'ai un entretien lundi", 'note que', True),
    ('Só pra você: anota que tenho entrevista na segunda.', Intent.REMEMBER, 'tenho entrevista na segunda', 'anota que', True),
    ('Tra me e te, segnati che ho un colloquio lunedì.', Intent.REMEMBER, 'ho un colloquio lunedì', 'segnati che', True),
    ("Could you make sure to remember that Sophie's allergic to eggs?", Intent.REMEMBER, "Sophie's allergic to eggs", 'remember that', False),
    ('¿Me podrías guardar que la reunión con Pedro es el martes?', Intent.REMEMBER, 'la reunión con Pedro es el martes', 'guardar que', False),
    ('Könnten Sie sich bitte notieren, dass meine Tochter Emma heißt?', Intent.REMEMBER, 'meine Tochter Emma heißt', 'notieren', False),
    ('Vous pourriez noter que mon rendez-vous est mardi ?', Intent.REMEMBER, 'mon rendez-vous est mardi', 'noter que', False),
    ('Você podia guardar que o aniversário da Júlia é dia 3?', Intent.REMEMBER, 'o aniversário da Júlia é dia 3', 'guardar que', False),
    ('Potrebbe annotare che il mio volo parte alle 6?', Intent.REMEMBER, 'il mio volo parte alle 6', 'annotare che', False),
    ("Heya, how's it going?", Intent.SMALL_TALK, '', '', False),
    ('Holaaa, ¿cómo va todo?', Intent.SMALL_TALK, '', '', False),
    ('Hallöchen, alles fit?', Intent.SMALL_TALK, '', '', False),
    ('Yo, ça roule ?', Intent.SMALL_TALK, '', '', False),
    ('Oi oi, tudo tranquilo?', Intent.SMALL_TALK, '', '', False),
    ('Ciao bella, tutto ok?', Intent.SMALL_TALK, '', '', False),
    ('remind me when the car insurance renews', Intent.QUESTION, '', '', False),
    ('Recordame a qué hora era la reunión', Intent.QUESTION, '', '', False),
    ('Erinnerst du dich, wo ich den Ersatzschlüssel hingelegt hab', Intent.QUESTION, '', '', False),
    ('Tu te souviens du nom de la prof de Léo', Intent.QUESTION, '', '', False),
    ('Lembra do nome do dentista da Sofia', Intent.QUESTION, '', '', False),
    ('Ti ricordi dove ho messo le chiavi', Intent.QUESTION, '', '', False),
    ("Could you pop 'call mum' at the end of todo.md?", Intent.FILE_CHANGE, '', '', False),
    ('¿Me cambias el título de notas.md?', Intent.FILE_CHANGE, '', '', False),
    ('Kannst du in einkauf.md noch Milch ergänzen?', Intent.FILE_CHANGE, '', '', False),
    ('Tu peux rajouter une ligne à la fin de todo.md ?', Intent.FILE_CHANGE, '', '', False),
    ('Pode apagar a segunda linha de tarefas.md?', Intent.FILE_CHANGE, '', '', False),
    ("Puoi togliere l'ultima riga da note.md?", Intent.FILE_CHANGE, '', '', False),
    ('Actually, the vet appointment is at 4, not 3', Intent.CORRECTION, 'the vet appointment is at 4', '', False),
    ('Perdón, el cumple de Tomás es el 15', Intent.CORRECTION, 'el cumple de Tomás es el 15', '', False),
    ('Sorry, der Flug geht um 9, nicht um 7', Intent.CORRECTION, 'der Flug geht um 9', '', False),
    ('En fait, le dîner chez Anne est vendredi', Intent.CORRECTION, 'le dîner chez Anne est vendredi', '', False),
    ('Na verdade, a reunião é às 16h', Intent.CORRECTION, 'a reunião é às 16h', '', False),
    ('Scusa, la festa di Marta è sabato 12', Intent.CORRECTION, 'la festa di Marta è sabato 12', '', False),
    ('Stuck on the M62 again, ugh', Intent.STATEMENT, '', 'Stuck on the M62', False),
    ('Esperando el colectivo en Corrientes', Intent.STATEMENT, '', 'Esperando el colectivo', False),
    ('Bin noch im Büro, komme gegen 7', Intent.STATEMENT, '', 'im Büro', False),
    ("Je suis coincée au boulot jusqu'à 19 h", Intent.STATEMENT, '', 'coincée au boulot', False),
    ('Tô no metrô, chego em 15', Intent.STATEMENT, '', 'no metrô', False),
    ('Sono ancora in ufficio, arrivo verso le 8', Intent.STATEMENT, '', 'ancora in ufficio', False),
    ("I'm not big on spicy food.", Intent.STATEMENT, "I'm not big on spicy food", '', False),
    ('No tomo café desde hace años.', Intent.STATEMENT, 'No tomo café desde hace años', '', False),
    ('Ich esse kein Fleisch mehr.', Intent.STATEMENT, 'Ich esse kein Fleisch mehr', '', False),
    ("Je ne bois jamais d'alcool.", Intent.STATEMENT, "Je ne bois jamais d'alcool", '', False),
    ('Não como glúten.', Intent.STATEMENT, 'Não como glúten', '', False),
    ('Non bevo caffè dopo le 4.', Intent.STATEMENT, 'Non bevo caffè dopo le 4', '', False),
    ('Dinner with the Parkers is Sat. 8 Feb. at 7', Intent.STATEMENT, 'Dinner with the Parkers is Sat. 8 Feb. at 7', '', False),
    ('La cita con la Dra. Ruiz es el vie. 7 mar. a las 10', Intent.STATEMENT, 'La cita con la Dra. Ruiz es el vie. 7 mar. a las 10', '', False),
])
def test_second_round_family_members(text: str, intent: Intent, fact: str, withheld: str, private: bool) -> None:
    r = read_message(text)
    joined = " ".join(r.facts).lower()
    assert r.intent is intent and r.private is private
    assert fact.lower() in joined and not (withheld and withheld.lower() in joined)


# A third round, mixed with plain statements, questions and facts inside questions, read once
# before any change (38 of 39 right): "Não esquece que …" keeps (pt-BR imperative), and a
# phrase's context ends on a word ("não, > é" never reads "Não esquece").
@pytest.mark.parametrize("text,intent,fact,withheld,private", [
    ('My sister-in-law Priya lives in Bristol.', Intent.STATEMENT, 'My sister-in-law Priya lives in Bristol', '', False),
    ('Our landlord is called Mr. Okafor.', Intent.STATEMENT, 'Our landlord is called Mr. Okafor', '', False),
    ("What's the name of Jake's football coach?", Intent.QUESTION, '', '', False),
    ('Since my train gets in at 17:40, can I still make the 18:00 call?', Intent.QUESTION, 'my train gets in at 17:40', 'can I still make', False),
    ('Note down that the gas meter number is 7781-22.', Intent.REMEMBER, 'the gas meter number is 7781-22', 'Note down that', False),
    ("Keep this between us and don't write it anywhere: I'm quitting.", Intent.DO_NOT_KEEP, '', "I'm quitting", False),
    ("Hang on, the party's at Jen's, not at Mark's", Intent.CORRECTION, "the party's at Jen's", '', False),
    ('cheers for that, speak soon', Intent.SMALL_TALK, '', '', False),
    ('Mi cuñado Raúl trabaja en Zaragoza.', Intent.STATEMENT, 'Mi cuñado Raúl trabaja en Zaragoza', '', False),
    ('¿Dónde dejé el cargador del portátil?', Intent.QUESTION, '', '', False),
    ('No te olvides de que el jueves viene el técnico.', Intent.REMEMBER, 'el jueves viene el técnico', 'No te olvides de que', False),
    ('Ni se te ocurra guardar esto: gano 3.000 al mes.', Intent.DO_NOT_KEEP, '', 'gano 3.000 al mes', False),
    ('Uy, me confundí: el examen es el 22', Intent.CORRECTION, 'el examen es el 22', '', False),
    ('Dale, gracias, nos hablamos', Intent.SMALL_TALK, '', '', False),
    ('Oye, ¿cuánto costaba la revisión del coche?', Intent.QUESTION, '', '', False),
    ('Meine Nachbarin heißt Frau Krüger.', Intent.STATEMENT, 'Meine Nachbarin heißt Frau Krüger', '', False),
    ('Wann hat Lena nochmal Geburtstag?', Intent.QUESTION, '', '', False),
    ('Merk dir bitte: der Müll wird mittwochs abgeholt.', Intent.REMEMBER, 'der Müll wird mittwochs abgeholt', 'Merk dir', False),
    ('Das bleibt unter uns und kommt nicht in deine Notizen: ich bin schwanger.', Intent.DO_NOT_KEEP, '', 'ich bin schwanger', False),
    ('Moment, das Treffen ist am Dienstag, nicht am Montag', Intent.CORRECTION, 'das Treffen ist am Dienstag', '', False),
    ('Danke dir, schönen Abend noch!', Intent.SMALL_TALK, '', '', False),
    ('Ma belle-sœur Inès travaille à Lille.', Intent.STATEMENT, 'Ma belle-sœur Inès travaille à Lille', '', False),
    ("C'est quand déjà l'anniversaire de Jules ?", Intent.QUESTION, '', '', False),
    ("N'oublie pas que le plombier vient mardi à 8 h.", Intent.REMEMBER, 'le plombier vient mardi à 8 h', "N'oublie pas que", False),
    ('Entre nous et sans le noter : je cherche un autre job.', Intent.DO_NOT_KEEP, '', 'je cherche un autre job', False),
    ('Oups, la réunion est à 15 h, pas à 14 h', Intent.CORRECTION, 'la réunion est à 15 h', '', False),
    ('Merci, bonne soirée !', Intent.SMALL_TALK, '', '', False),
    ('Minha cunhada Beatriz mora em Curitiba.', Intent.STATEMENT, 'Minha cunhada Beatriz mora em Curitiba', '', False),
    ('Qual é o telefone do encanador?', Intent.QUESTION, '', '', False),
    ('Não esquece que a consulta da Ana é quinta às 9h.', Intent.REMEMBER, 'a consulta da Ana é quinta às 9h', 'Não esquece que', False),
    ('Não anota nada disso, mas eu tô devendo 2 mil no cartão.', Intent.DO_NOT_KEEP, '', '2 mil', False),
    ('Opa, me enganei: o jantar é sábado', Intent.CORRECTION, 'o jantar é sábado', '', False),
    ('Valeu, até mais!', Intent.SMALL_TALK, '', '', False),
    ('Mia cognata Chiara abita a Verona.', Intent.STATEMENT, 'Mia cognata Chiara abita a Verona', '', False),
    ("Quando scade l'assicurazione della macchina?", Intent.QUESTION, '', '', False),
    ('Ricordati che giovedì viene il tecnico della caldaia.', Intent.REMEMBER, 'giovedì viene il tecnico della caldaia', 'Ricordati che', False),
    ('Non scriverlo da nessuna parte: sto cercando un altro lavoro.', Intent.DO_NOT_KEEP, '', 'sto cercando un altro lavoro', False),
    ('Ops, la cena è venerdì, non giovedì', Intent.CORRECTION, 'la cena è venerdì', '', False),
    ('Grazie mille, a domani!', Intent.SMALL_TALK, '', '', False),
])
def test_third_round_mixed_members(text: str, intent: Intent, fact: str, withheld: str, private: bool) -> None:
    test_second_round_family_members(text, intent, fact, withheld, private)


def test_a_phrase_context_ends_on_a_word() -> None:
    from openclaw_tui.language.lexicon import fold, phrases
    pattern = phrases(("não{,|} > {é|era}",))
    assert pattern is not None
    assert pattern.match(fold("Não, é na quinta.")) and not pattern.match(fold("Não esquece que …"))


# Family 11: a statement, then a clause that asks without a question mark ("…, is that enough",
# "…, cuántas pastillas le doy", "…, reicht das", "…, ça vaut le coup", "…, dá pra ir a pé",
# "…, quanto devo lasciare di mancia"): the message asks, the statement before it is the fact and
# the asking clause is never kept. A relative clause ("…, where it rains") asks nothing.
@pytest.mark.parametrize("text,fact,asked", [
    ("My flight lands at 21:50, will the airport trains still be running", "My flight lands at 21:50", "airport trains"),
    ("I earn 3,400 a month after tax, how much should I put aside", "I earn 3,400 a month", "put aside"),
    ("Given that the lease ends on June 30, can we move out earlier", "the lease ends on June 30", "move out"),
    ("Mi perro pesa 8 kilos, cuántas pastillas le doy", "Mi perro pesa 8 kilos", "pastillas le doy"),
    ("El vuelo sale a las 6:10, me conviene dormir en el aeropuerto", "El vuelo sale a las 6:10", "dormir en el aeropuerto"),
    ("Der Zug kommt um 22:40 an, fährt dann noch eine S-Bahn", "Der Zug kommt um 22:40 an", ""),
    ("Mein Auto hat 180.000 km, lohnt sich das noch", "Mein Auto hat 180.000 km", "lohnt sich"),
    ("Wir sind zu sechst am 12. Mai, welches Restaurant empfiehlst du", "Wir sind zu sechst am 12. Mai", "Restaurant empfiehlst"),
    ("Mon vol arrive à 23 h 10, est-ce que le RER roule encore", "Mon vol arrive à 23 h 10", "RER roule"),
    ("Le loyer est de 950 €, c'est trop pour un 2 pièces", "Le loyer est de 950 €", "trop pour"),
    ("O hotel fica a 2 km da praia, dá pra ir a pé", "O hotel fica a 2 km da praia", "ir a pé"),
    ("Meu celular tem 4 anos, vale a pena trocar", "Meu celular tem 4 anos", "vale a pena"),
    ("La cena è costata 120 euro, quanto devo lasciare di mancia", "La cena è costata 120 euro", "mancia"),
    ("Il treno arriva alle 23:15, riesco a prendere l'ultima metro", "Il treno arriva alle 23:15", "ultima metro"),
    # sixth round: an unmarked question clause led by "so", "o no", "dann", a gift to choose
    ("The lease ends on May 31, so when do I have to tell the landlord", "The lease ends on May 31", "tell the landlord"),
    ("Mi vuelo aterriza a las 18:00, llego o no al concierto de las 21:00", "Mi vuelo aterriza a las 18:00", "concierto"),
    ("Ich bin ab Juli in Kur, wer macht dann die Buchhaltung", "Ich bin ab Juli in Kur", "Buchhaltung"),
    ("Ma nièce a 12 ans et adore le dessin, quel cadeau je peux lui offrir", "Ma nièce a 12 ans", "cadeau"),
    ("O Rui faz 40 anos em maio, que livro eu compro pra ele", "O Rui faz 40 anos em maio", "livro eu compro"),
    ("Mia sorella ama il giardinaggio, che pianta le posso regalare", "Mia sorella ama il giardinaggio", "pianta"),
])
def test_a_clause_that_asks_after_a_statement(text: str, fact: str, asked: str) -> None:
    r = read_message(text)
    joined = " ".join(r.facts).lower()
    assert r.intent is Intent.QUESTION and r.asks
    assert fact.lower() in joined and not (asked and asked.lower() in joined)


@pytest.mark.parametrize("text", [
    "I live in Leeds, where it rains a lot.", "Vivo en Vigo, donde llueve mucho.",
    "Ich wohne in Wien, wo es oft regnet.", "J'habite à Brest, où il pleut souvent.",
    "Moro em Belém, onde chove todo dia.", "Vivo a Milano, dove lavoro da 3 anni.",
])
def test_a_relative_clause_asks_nothing(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=True, asks=False))


@pytest.mark.parametrize("text", [
    "We moved in May, so when we travel the cat stays with Ana.", "Voy a la cena, llego tarde o no llego nada.",
    "Ich weiß, wer das dann macht.", "Le cadeau, je l'ai déjà acheté.",
    "O presente, já comprei ontem.", "Il regalo, le ho già preso un libro.",
])
def test_a_clause_with_a_question_word_but_no_question_asks_nothing(text: str) -> None:
    expect(text, reads_as(asks=False))


# Family 12: a remark of the moment about heat, rain or a late train, with a number, a place or a
# line in it, is never kept ("… running 15 min late again", "hace 40 grados", "sind es heute 35
# Grad", "on étouffe", "tá fazendo 40 graus", "si scoppia", "tempo de cão", "20 minuti di ritardo").
@pytest.mark.parametrize("text", [
    'Ugh, the bus is running 15 min late again',
    "It's 38 degrees out and the AC just died",
    'Raining cats and dogs in Cork today',
    'The 7:40 is running behind again',
    'Hoy en Madrid hace 40 grados, imposible salir',
    'Qué tiempo de perros hace hoy en Bilbao',
    'El tren lleva 20 minutos de retraso otra vez',
    'In Köln sind es heute 35 Grad, kaum auszuhalten',
    'Was für ein Sauwetter heute in Hamburg',
    'Der ICE hat mal wieder 20 Minuten Verspätung',
    'Il fait 36 degrés à Lyon, on étouffe',
    "Quel temps pourri aujourd'hui à Brest",
    'Le TER a encore 20 minutes de retard',
    'Tá fazendo 40 graus em Cuiabá hoje',
    'Que tempo de cão hoje no Porto',
    'O comboio das 8h está atrasado outra vez',
    'Oggi a Bologna ci sono 38 gradi, si scoppia',
    'Che tempo da lupi oggi a Trieste',
    'Il regionale delle 7 ha di nuovo 20 minuti di ritardo',
])
def test_weather_and_delays_of_the_moment_are_not_kept(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=False, asks=False))


@pytest.mark.parametrize("text", [
    "The thermostat in the nursery is set to 21 degrees.", "Mi hermano tiene dos grados en ingeniería.",
    "Unser Boiler läuft auf 60 Grad.", "Je règle le four à 180 degrés pour le pain.",
    "O aquecedor fica sempre em 22 graus.", "La lavatrice la metto sempre a 40 gradi.",
])
def test_degrees_in_a_lasting_fact_keep_it(text: str) -> None:
    expect(text, keeps_something)


# Family 13: a refusal that says "no need to keep it", "leave no record", "scrap it from memory",
# "no lo dejes registrado", "lass es nicht gespeichert", "ne le laisse pas noté", "não deixa isso
# registrado", "non serve che te la ricordi", before or after the secret: nothing is kept.
@pytest.mark.parametrize("text", [
    'wifi password is Hortensia_42, no need to save it',
    "My SSN is 123-45-6789 so please don't keep a record of it",
    "The gate code's 7719 but scrap it from memory after this chat",
    'btw my pin is 0612, dont remember that ok',
    'La contraseña del banco es Tigre2020, no hace falta que la guardes',
    'Mi PIN es 4455, bórralo después',
    'Te paso la clave: Girasol77, pero no la memorices',
    'El código del portal es 1290, no lo dejes registrado',
    'Das WLAN-Passwort ist Kuckuck!7, musst du dir nicht merken',
    'Meine PIN ist 2846, vergiss sie gleich wieder',
    'Der Türcode ist 5512, bitte nirgends festhalten',
    "Le mot de passe du wifi c'est Mimosa_88, pas besoin de le retenir",
    'Mon code de carte est 7733, efface-le après',
    'Le code du portail est 4128, ne le garde pas en mémoire',
    'A senha do wifi é Jabuti#55, não precisa guardar',
    'Meu PIN é 9087, apaga isso depois',
    'O código do portão é 3365, não deixa isso registrado',
    'La password del wifi è Gabbiano_21, non serve che te la ricordi',
    'Il mio PIN è 6690, cancellalo dopo',
    'Il codice del portone è 2213, non tenerne traccia',
    'My account number is 55120987, leave no record of it',
    "Don't leave that in your notes: I'm seeing a therapist",
    'No dejes constancia de esto: me voy a divorciar',
    'Das Passwort ist Lupine_3, lass es bitte nicht gespeichert',
    'Keine Spur davon in deinen Notizen: ich kündige im Mai',
    'Le code est 6620, ne le laisse pas noté',
    'Ne garde aucune trace de ça : je passe un entretien jeudi',
    'Não guarda nenhum registro disso: vou sair da empresa',
    'Non lasciarlo scritto da nessuna parte: il PIN è 4410',
])
def test_leave_no_record_refusals_keep_nothing(text: str) -> None:
    expect(text, reads_as(Intent.DO_NOT_KEEP, facts=False))


@pytest.mark.parametrize("text", [
    "Leave the spare key with Ana on Friday.", "No dejes el coche en la calle 5.",
    "Lass das Auto am Montag in der Garage.", "Ne laisse pas le chat sortir après 22 h.",
    "Não deixa a porta aberta depois das 22h.", "Non serve che tu venga alle 8.",
])
def test_leaving_things_is_no_refusal(text: str) -> None:
    expect(text, reads_other_than(Intent.DO_NOT_KEEP))


# Family 14: the topic first, the question word after it, no question mark ("the plumber's name
# was what again", "el fontanero cómo se llamaba", "der Klempner heißt nochmal wie", "s'appelle
# comment déjà", "se chama como mesmo", "come fa di cognome"): it asks and keeps nothing. A
# conjunction after a verb ("Lo chiamo quando arriva", "I know what it is") asks nothing.
@pytest.mark.parametrize("text", [
    "the plumber's name was what again",
    'our wifi password is what again',
    'el fontanero cómo se llamaba',
    'la revisión del coche cuándo era',
    'der Klempner heißt nochmal wie',
    'die Müllabfuhr kommt nochmal wann',
    "le plombier s'appelle comment déjà",
    "le rendez-vous chez le véto c'est quand déjà",
    'o encanador se chama como mesmo',
    'a consulta da Ana é que dia mesmo',
    "l'idraulico come si chiama",
    'il bollo della macchina quando scade',
    'la figlia di Marta come si chiamava già',
])
def test_a_question_word_after_its_topic_asks(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, facts=False, asks=True))


@pytest.mark.parametrize("text", [
    "Lo chiamo quando arriva.", "I know what it is.", "Lo lascio come è.", "Te llamo cuando llegue.",
    "Ich rufe an, wenn er kommt.", "Je l'appelle quand il arrive.",
])
def test_a_conjunction_after_a_verb_asks_nothing(text: str) -> None:
    expect(text, reads_as(asks=False))


# Family 15: a remember verb before "what/which" and a noun asks what the assistant remembers
# ("Remember which gate …?", "¿Recuerdas qué número …?", "Weißt du noch, welche …", "Tu te
# souviens quelle pointure …", "Você lembra que dia …?", "Ricordi che numero …?"): where "que" and
# "che" also mean "that", the noun after them tells the question from a fact to keep.
@pytest.mark.parametrize("text", [
    'Do you remember what size shoes I wear?',
    'Remember which gate the flight left from?',
    '¿Recuerdas qué número de pie calzo?',
    '¿Te acordás qué día era el cumple de Sofi?',
    'Weißt du noch, welche Schuhgröße ich habe?',
    'Erinnerst du dich, welcher Tag das Konzert war?',
    'Tu te souviens quelle pointure je fais ?',
    "Tu te rappelles quel jour c'était, le dîner chez Paul ?",
    'Lembras-te que número calço?',
    'Você lembra que dia é o aniversário da Bia?',
    'Ricordi che numero di scarpe porto?',
    'Ti ricordi che giorno è il compleanno di Luca?',
    'Ricordi che taglia porta Giulia?',
])
def test_remember_what_and_a_noun_asks(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, facts=False, asks=True))


@pytest.mark.parametrize("text,fact", [
    ("Ricordati che il numero del tecnico è 333 1234567", "il numero del tecnico è 333 1234567"),
    ("Lembra que o dentista é dia 5", "o dentista é dia 5"),
    ("Recuerda que la talla de Ana es 38", "la talla de Ana es 38"),
    ("Você lembra que a Bia faz anos dia 3?", "a Bia faz anos dia 3"),
])
def test_remember_that_before_a_clause_still_keeps(text: str, fact: str) -> None:
    expect((text, fact), reads_as(Intent.REMEMBER) & keeps(1, how="joined"))


# Family 16: a file made or set up with a verb of preparing, starting or setting ("Start a new
# groceries.md", "can u add … to todo.md", "In settings.json set …", "Prepárame un fichero …",
# "stell die Sprache auf …", "Monte un fichier …", "Monta um arquivo …", "Mi prepari un file …?",
# "Nel config.yaml imposta …"): a file change; the same verbs with no file named change none.
@pytest.mark.parametrize("text", [
    'Start a new groceries.md with eggs, milk and rye bread',
    "Set up a file called gifts.md for Mum's birthday ideas",
    "can u add 'renew passport' to todo.md",
    'In settings.json set the theme to dark',
    'Armame un archivo regalos.md con ideas para el cumple de mamá',
    'Prepárame un fichero compras.md con huevos y leche',
    'En config.yaml pon el idioma en es-AR',
    'Leg mir eine Datei einkauf.md an mit Eiern und Milch',
    'Mach mir eine neue Datei geschenke.md mit Ideen für Mama',
    'In config.yaml stell die Sprache auf de-AT',
    'Prépare-moi un fichier courses.md avec œufs et lait',
    'Monte un fichier cadeaux.md avec des idées pour maman',
    'Dans config.yaml mets la langue en fr-BE',
    'Monta um arquivo compras.md com ovos e leite',
    'Me prepara um arquivo presentes.md com ideias pro aniversário da mãe',
    'No config.yaml coloca o idioma em pt-PT',
    'Mi prepari un file spesa.md con uova e latte?',
    'Preparami un file regali.md con idee per la mamma',
    'Nel config.yaml imposta il tema scuro',
])
def test_preparing_and_setting_files_are_file_changes(text: str) -> None:
    expect(text, reads_as(Intent.FILE_CHANGE, facts=False))


@pytest.mark.parametrize("text", [
    "Set an alarm for 7 tomorrow", "Prepárame la cena para las 9", "Stell den Wecker auf 7 Uhr",
    "Prépare-moi un résumé de la réunion", "Me prepara um resumo da reunião", "Mi prepari la cena stasera?",
])
def test_the_same_verbs_without_a_file_change_none(text: str) -> None:
    expect(text, reads_other_than(Intent.FILE_CHANGE))


# Family 17: laughs, short goodnights and greetings with "today" are small talk ("hahaha that's
# brilliant", "jajaja qué bueno", "Nacht, bis morgen", "comment ça va aujourd'hui ?", "Oiê, como
# cê tá?", "kkkkk que bom", "Buondì", "Notte, a domani", "come sta oggi?"); a fact after them is
# still kept.
@pytest.mark.parametrize("text", [
    "hahaha that's brilliant 😂",
    'Night night, talk tomorrow 🌙',
    "Mornin'! How are you doing today?",
    'jajaja qué bueno 😂',
    'jejeje qué risa',
    'Buenas noches, hasta mañana 🌙',
    'Buenas, ¿cómo anda todo hoy?',
    'hahaha wie geil 😂',
    'Nacht, bis morgen 🌙',
    "Moin, wie geht's dir heute?",
    'mdr trop bien 😂',
    'Bonne nuit, à demain 🌙',
    "Bonjour, comment ça va aujourd'hui ?",
    'Salut, comment vous allez ?',
    'kkkkk que bom 😂',
    'Boa noite, até amanhã 🌙',
    'Oiê, como cê tá?',
    'E aí, como cê vai?',
    'ahahah che bello 😂',
    'Buondì ☀️',
    'Notte, a domani 🌙',
    'Buongiorno, come sta oggi?',
])
def test_laughs_goodnights_and_greetings_of_the_day_are_small_talk(text: str) -> None:
    expect(text, small_talk(facts=False, asks=False))


@pytest.mark.parametrize("text,fact", [
    ("Nacht von Freitag auf Samstag arbeite ich bis 6", "arbeite ich bis 6"),
    ("Notte bianca a Roma il 12 settembre", "Roma il 12 settembre"),
    ("How are you today? My sister Ana arrives on Friday at 10.", "My sister Ana arrives on Friday at 10"),
    ("Que bom, a consulta da Ana é na quinta às 9h", "a consulta da Ana é na quinta às 9h"),
    ("jajaja qué bueno, el 14 de mayo nos casamos en Sevilla", "el 14 de mayo nos casamos en Sevilla"),
])
def test_a_fact_after_small_talk_is_kept(text: str, fact: str) -> None:
    assert fact.lower() in " ".join(read_message(text).facts).lower()


# Family 18: the school run and the commute, quitting a food or drink, "a hard no for me", "nowadays
# only …", bookings under a name and things bought or installed are kept whole ("I cycle to work
# unless …", "Llevo a los niños al cole", "Ich fahre mit dem Rad zur Arbeit", "Je fais du vélo
# cargo pour emmener …", "Parei de comer …", "Da ich keinen Fisch esse, …?", "gebucht auf Huber",
# "Hab mir endlich … gekauft", "J'ai fait installer …", "prenotato a nome Bianchi").
@pytest.mark.parametrize("text", [
    "I cycle to work unless it's pouring",
    'I take the kids to school on the cargo bike',
    'Voy al trabajo en bici, salvo si llueve',
    'Llevo a los niños al cole andando',
    'Ich fahre mit dem Rad zur Arbeit, außer bei Glatteis',
    'Ich bringe die Kinder mit dem Lastenrad in die Kita',
    'Je vais au boulot à vélo, sauf quand il pleut',
    "Je fais du vélo cargo pour emmener les petits à l'école",
    'Vou de bicicleta para o trabalho, menos quando chove',
    'Levo as crianças para a escola de bicicleta',
    'Vado al lavoro in bici, tranne quando piove',
    'Porto i bambini a scuola con la cargo bike',
    "I gave up red meat, it's just fish and chicken these days",
    'Mushrooms are a hard no for me',
    'Dejé de comer carne roja, hoy en día solo pescado y pollo',
    'El cilantro para mí es un no rotundo',
    'Ich habe aufgehört, Fleisch zu essen, heute nur noch Fisch',
    'Da ich keinen Fisch esse, was kann ich beim Italiener bestellen?',
    'Pilze sind für mich ein absolutes No-Go',
    "J'ai arrêté la viande rouge, maintenant c'est poisson et poulet",
    "La coriandre, pour moi c'est non",
    'Deixei de comer carne vermelha, hoje em dia só peixe',
    'Coentro pra mim é um não absoluto',
    'Ho smesso di mangiare carne rossa, ormai solo pesce e pollo',
    'Il coriandolo per me è un no secco',
    'Hotel by the harbour, booked under Reyes',
    'Got a heat pump installed at last by Hollis & Sons',
    'Hotel junto al puerto, reservado a nombre de Ortega',
    'Nos instalaron la aerotermia por fin, la empresa es Climasur',
    'Ferienwohnung in Meran, gebucht auf Huber',
    'Hab mir endlich ein Lastenrad gekauft, vom Radladen am Eck',
    "Gîte près d'Annecy, réservé au nom de Girard",
    "J'ai fait installer une pompe à chaleur par l'entreprise Morel",
    'Pousada em Paraty, reserva no nome de Teixeira',
    'Mandei instalar placas solares, foi a empresa do Zé',
    'Agriturismo vicino a Siena, prenotato a nome Bianchi',
    'Ho fatto installare la pompa di calore dalla ditta Rossi',
])
def test_routines_quitting_bookings_and_purchases_are_kept(text: str) -> None:
    r = read_message(text)
    assert r.facts and not any("?" in f for f in r.facts)


@pytest.mark.parametrize("text", [
    "I'm on my way to work, be there in 10",
    'Heading into work now, the 8:15 is packed',
    'Voy de camino al trabajo',
    'Voy camino a la oficina, llego en 10',
    'Bin auf dem Weg zur Arbeit',
    'Unterwegs ins Büro, bin um 9 da',
    'Je suis en route pour le boulot',
    "En chemin vers le bureau, j'arrive dans 10 minutes",
    'Tô indo pro trabalho, chego em 10',
    'Estou saindo do escritório agora, chego às 19h',
    'Sto andando al lavoro, arrivo tra 10 minuti',
    "Sto uscendo dall'ufficio, arrivo per le 7",
])
def test_on_the_way_to_work_is_a_remark_of_the_moment(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=False))


# Family 19: a street or title abbreviation with a dot ends no sentence ("Elm Rd. 14", "Avda. de la
# Paz", "Bahnhofstr. 12", "av. Foch", "R. Augusta", "v. Garibaldi", "p.zza Duomo").
@pytest.mark.parametrize("text", [
    'The dentist is Dr. Patel, surgery on Elm Rd. 14 near the park',
    'Our accountant is at 220 Baker St. Suite 4, ask for Ms. Jones',
    'El dentista es el Dr. Ruiz, consulta en Avda. de la Paz 14',
    'La gestoría está en la c/ Mayor 5, 2º piso',
    'Der Zahnarzt ist Dr. Berger, Praxis in der Bahnhofstr. 12',
    'Die Praxis ist am Pl. der Republik 3',
    "Le dentiste, c'est le Dr Martin, cabinet au 12 av. Foch",
    'Le notaire est au 8 bd. Voltaire, 2e étage',
    'A dentista é a Dra. Sousa, consultório na Av. da Liberdade 120',
    'O contabilista fica na R. Augusta 45, 3º andar',
    'Il dentista è il dott. Neri, studio in v. Garibaldi 12',
    'Il commercialista sta in p.zza Duomo 3, secondo piano',
    'Il notaio è in c.so Vittorio Emanuele 8',
])
def test_street_abbreviations_keep_the_address_whole(text: str) -> None:
    r = read_message(text)
    assert len(r.facts) == 1 and r.facts[0] == text


# Family 20: a reflexive remember verb and a colon keep what follows ("Keep in mind:", "Acuérdate:",
# "Erinner dich dran:", "Souviens-toi :", "Lembra-te:", "Ricordatelo:").
@pytest.mark.parametrize("text", [
    'Keep in mind: the spare key is under the blue pot',
    'Acuérdate: la llave del trastero la tiene la portera',
    'Acordate: el gas se paga los días 10',
    'Erinner dich dran: der Ersatzschlüssel liegt unter dem Blumentopf',
    'Souviens-toi : la clé de la cave est chez la gardienne',
    'Lembra-te: a chave da garagem está com o porteiro',
    "Ricordatelo: la chiave della cantina ce l'ha la portinaia",
])
def test_reflexive_remember_verbs_before_a_colon_keep(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.REMEMBER and r.facts and text.split(":", 1)[1].strip().lower() in r.facts[0].lower()


@pytest.mark.parametrize("text", [
    "Since when does Ana work at Google?", "Cómo está el tráfico en la M-30", "Seit wann wohnt Ana in Graz?",
    "Comme d'habitude, tu passes à 8 h ?", "Como tá o trânsito na Marginal", "Come sta andando il trasloco di Marco?",
])
def test_a_fact_lead_with_no_clause_after_it_keeps_nothing(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, facts=False))


# Family 21: lasting facts a German reader missed for want of a digit or a name in capitals, and
# their kin in the other languages: seasons ("jeden Sommer", "cada verano", "chaque été"), where
# people come from ("kommen aus Polen", "vengono dalla Polonia"), what one is learning ("Ich lerne
# gerade Spanisch", "Estoy aprendiendo japonés"), "wir wohnen seit …", "gegen Nüsse allergisch",
# where things always lie, "der Hausarzt ist Dr. …".
@pytest.mark.parametrize("text", [
    'We go to the coast every summer',
    'My in-laws come from Poland',
    "I'm learning Japanese at the moment",
    'Mis suegros son de Polonia',
    'Estoy aprendiendo japonés',
    'Wir fahren jeden Sommer an die Ostsee',
    'Meine Schwiegereltern kommen aus Polen',
    'Ich lerne gerade Spanisch',
    'Wir wohnen seit letztem Sommer in Freiburg',
    'Ich bin gegen Nüsse allergisch',
    'Die Schlüssel liegen immer in der Schale im Flur',
    'Der Hausarzt ist Dr. Lehmann in der Goethestraße',
    'On va à la mer chaque été',
    'Mes beaux-parents viennent de Pologne',
    "J'apprends le japonais en ce moment",
    'Meus sogros são da Polônia',
    'Estou aprendendo japonês',
    'I miei suoceri vengono dalla Polonia',
    'Sto imparando il giapponese',
    'Ich bin Linkshänderin',
    'Wir haben einen Hund namens Bello',
    'Ich spiele seit der Schulzeit Geige',
    'Mein Mann arbeitet als Pfleger im Klinikum',
    'Unsere Tochter geht in die zweite Klasse',
    'Ich trinke meinen Kaffee immer schwarz',
    'Ich arbeite im Homeoffice, außer dienstags',
    'Ich bin Vegetarierin, Fisch esse ich aber',
    'Mein Bruder lebt in Kanada',
    'Ich habe eine Laktoseintoleranz',
    'Ich mag keine Horrorfilme',
    'Ich habe letztes Jahr den Jagdschein gemacht',
    'Unser Vermieter heißt Herr Brandt',
    'Wir haben uns einen gebrauchten Kombi gekauft',
    'Ich bin Diabetikerin und spritze Insulin',
    'Ich gehe jeden Donnerstag zum Chor',
    'Ich hasse Rosenkohl',
    'Mein Sohn hat eine Erdnussallergie',
])
def test_lasting_facts_without_a_digit_are_kept(text: str) -> None:
    expect(text, reads_as(Intent.STATEMENT, facts=True))


@pytest.mark.parametrize("text", [
    "Esto es de locos", "Isso é de doido", "C'est de la folie", "Questo è di troppo", "That is from before",
])
def test_being_of_something_names_nowhere(text: str) -> None:
    expect(text, keeps_nothing)


# Family 22: a question without a mark opened by "can you tell me", or its question word after the
# topic ("the mechanic, where's his garage", "el mecánico dónde tiene el taller", "der Mechaniker,
# wo hat der …", "il a son atelier où", "o mecânico tem a oficina onde", "il meccanico dove ha
# l'officina", "mi sai dire quando …", "c'était quoi le nom …"); a relative "where" asks nothing.
@pytest.mark.parametrize("text", [
    "can you tell me when Giulia's passport expires",
    "the mechanic, where's his garage again",
    'what was the name of that place in Soho',
    'me sabes decir cuándo vence el pasaporte de Julia',
    'el mecánico dónde tiene el taller',
    'cómo se llamaba el restaurante de Lavapiés',
    'kannst du mir sagen, wann Julias Pass abläuft',
    'der Mechaniker, wo hat der seine Werkstatt',
    'wie war nochmal der Name von dem Lokal in Kreuzberg',
    'tu peux me dire quand expire le passeport de Julie',
    'le garagiste, il a son atelier où',
    "c'était quoi le nom du resto à Belleville",
    'sabe me dizer quando vence o passaporte da Júlia',
    'o mecânico tem a oficina onde',
    'qual era o nome daquele restaurante na Lapa',
    'mi sai dire quando scade il passaporto di Giulia',
    "il meccanico dove ha l'officina",
])
def test_unmarked_questions_with_the_topic_first_ask(text: str) -> None:
    expect(text, reads_as(Intent.QUESTION, asks=True))


@pytest.mark.parametrize("text", [
    "I moved to Leeds, where my family lives.", "Ich bin in Graz, wo meine Eltern wohnen.",
    "Il a son atelier où il veut.", "A consulta com a Dra. Vasconcelos é na qui. dia 20 às 14h.",
])
def test_a_relative_where_asks_nothing(text: str) -> None:
    expect(text, reads_as(asks=False))
