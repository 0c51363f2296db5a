"""Phrase families and general signals of the lexicon reader (issue 35): each row is a
family member the tables must read, not a sentence they were tuned on."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.detect import detect
from openclaw_tui.language.reading import Intent


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
    r = read_message(text)
    assert r.intent is Intent.REMEMBER
    assert any(fact.lower() in f.lower() for f in r.facts)


@pytest.mark.parametrize("text", [
    "remember the name of my dentist?",
    "¿Puedes recordar qué te dije del hotel?",
    "Lembra-me em que dia é a consulta.",
    "Tu pourrais te rappeler à quelle heure part le train",
])
def test_a_remember_verb_put_as_a_question_recalls(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.QUESTION and r.asks


@pytest.mark.parametrize("text,secret", [
    ("My PIN is 5521, don't hold on to that.", "5521"),
    ("Der Code ist 4711, speicher das bitte nicht.", "4711"),
    ("Le code est 8812. Ne le note nulle part.", "8812"),
    ("O código é 3390, não guarde isso.", "3390"),
    ("Il codice è 6677, non salvarlo da nessuna parte.", "6677"),
    ("La clave es 9090, no la apuntes.", "9090"),
])
def test_refusal_in_any_placement(text: str, secret: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.DO_NOT_KEEP and not any(secret in f for f in r.facts)


@pytest.mark.parametrize("text", [
    "My bad, the meeting is at 3.", "Me he confundido: la reunión es a las 3.",
    "Falsch gesagt: das Treffen ist um 3.", "En fait non, la réunion est à 15 h.",
    "Afinal a reunião é às 15h.", "Anzi, la riunione è alle 15.",
])
def test_correction_openers(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.CORRECTION and r.facts


@pytest.mark.parametrize("text", [
    "Talk to you tomorrow!", "Hasta el lunes", "Bis morgen!", "À demain !", "Até amanhã", "Ci vediamo domani",
])
def test_goodbyes_name_no_fact(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.SMALL_TALK and not r.facts


@pytest.mark.parametrize("text", [
    "Fix the heading in notes.md.", "Corrige el título en notas.md.", "Kannst du in notizen.md eine Zeile ergänzen?",
    "Corrige le titre dans notes.md.", "Corrija o título em notas.md.", "Correggi il titolo in note.md.",
])
def test_file_change_verbs(text: str) -> None:
    assert read_message(text).intent is Intent.FILE_CHANGE


def test_a_request_to_read_a_named_file_looks_nothing_up() -> None:
    r = read_message("Read USER.md for me")
    assert r.intent is Intent.QUESTION and r.asks and r.query == ""
    assert read_message("Read me what you know about Bruno").query  # no file named: a lookup


@pytest.mark.parametrize("text", [
    "We're godparents to her son.", "Somos voluntarios en el comedor.", "On est témoins.",
    "Somos sócios do clube.", "Siamo testimoni.", "Ich bin Trauzeuge.",
])
def test_first_person_roles_are_facts(text: str) -> None:
    assert read_message(text).facts


@pytest.mark.parametrize("text,lang", [
    ("Jag bor i Göteborg med min syster.", "sv"),
    ("Bunu bana yarın hatırlat lütfen.", "tr"),
    ("No como pescado.", "es"),
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
    r = read_message(text)
    assert r.intent is Intent.DO_NOT_KEEP
    assert not r.facts and not any(withheld in f for f in r.facts)


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
    r = read_message(text)
    assert r.intent is Intent.REMEMBER and r.private
    joined = " ".join(r.facts).lower()
    assert fact.lower() in joined and cue.lower() not in joined


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
    r = read_message(text)
    assert r.intent is Intent.REMEMBER and not r.asks
    joined = " ".join(r.facts).lower()
    assert fact.lower() in joined and cue.lower() not in joined


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
])
def test_greeting_questions_and_farewells_are_small_talk(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.SMALL_TALK and not r.asks and not r.facts


@pytest.mark.parametrize("text", [
    "Qual é o código do portão", "Qué hay para cenar", "Cómo está el tráfico en la M-30",
])
def test_a_greeting_word_opening_a_real_question_still_asks(text: str) -> None:
    assert read_message(text).asks


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
    r = read_message(text)
    assert r.intent is Intent.REMEMBER and any(fact.lower() in f.lower() for f in r.facts)


# Family 6: a file change put as a polite question or with a colloquial verb, in every language
# ("Stick … at the bottom of todo.md", "Would you mind renaming …", "¿Me borras …?", "Cámbiale el
# título a …", "Löschst du mir in todo.md …?", "… kürzen?", "Tu me rajoutes … ?", "Balance …",
# "Me apaga …?", "Bota …", "Mi cancelli …?", "Potresti sistemarmi …?", "Piazza …").
@pytest.mark.parametrize("text", [
    "Stick 'call the bank' at the bottom of my todo.md",
    'Pop a line about the vet into pets.md',
    "Could you chuck 'buy milk' at the end of shopping.md?",
    'Can you tack a new heading onto journal.md?',
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
    r = read_message(text)
    assert r.intent is Intent.FILE_CHANGE and not r.facts


def test_mind_you_is_no_polite_request() -> None:
    r = read_message("Mind you, the rent is 800 a month.")
    assert r.intent is Intent.STATEMENT and not r.asks
