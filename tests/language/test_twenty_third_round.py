"""Twenty-third-round families of the lexicon reader (issue 35), written from holdout19's and
holdout20's misses (development data now) and measured on sentences written for this file
before the mechanism was (none of them is in a split; same author as the mechanism, so weaker
evidence than a blind split): a conditional or formal courtesy lead before a keep verb ("Si
fuera tan amable, tome nota de que …", "Le sarei grato se volesse prendere nota che …"); small
talk that neither asks nor tells (formal thanks, a greeting and how is the family, a plan for
the evening ending in bed and "talk tomorrow"); a refusal worded as "keep it in your head only,
never in writing", "keep it to yourself and write nothing", or after the fact "but that goes
nowhere in your notes".

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Twenty-third round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations

from openclaw_tui.language.reading import Intent
from tests.language.family_checks import (
    before,
    control_test,
    drops,
    intent_table_test,
    keeps,
    keeps_nothing,
    reads_as,
    reads_other_than,
    small_talk,
    withholds,
)
from tests.language.family_floor import LANGS, all_read, floor_test


# a conditional or formal courtesy lead, then a keep verb and "that": a keep request, the clause
# after "that" kept, the lead and the verb never
COURTESY: dict[str, list[tuple[str, str]]] = {
    "en": [("I'd be ever so grateful if you'd remember that Gran's flat is 4B", "Gran's flat is 4B"),
           ("If it's all the same to you, note that the window cleaner is called Dave Rooke", "the window cleaner is called Dave Rooke"),
           ("If it's no bother, jot down that the piano tuner comes on the 3rd of May", "the piano tuner comes on the 3rd of May"),
           ("I'd be most obliged if you'd jot down that the Pilates class moved to Fridays", "the Pilates class moved to Fridays"),
           ("If you'd be so good, write down that the gutter man charges £60", "the gutter man charges £60"),
           ("If it's not too much to ask, remember that my nephew's school is St Anne's", "my nephew's school is St Anne's"),
           ("If you can, remember that the farmers' market moved to Sundays", "the farmers' market moved to Sundays")],
    "es": [("Si fuera tan amable, tome nota de que la junta de la comunidad de propietarios se celebra el 5 de mayo en el portal", "la junta de la comunidad de propietarios se celebra el 5 de mayo en el portal"),
           ("Si fueras tan amable, apúntate que mi taquilla del gimnasio es la 218", "mi taquilla del gimnasio es la 218"),
           ("Le estaría muy agradecido si tomara nota de que el pintor cobra 300 € por habitación", "el pintor cobra 300 € por habitación"),
           ("Si no le es molestia, anote que el seguro del coche vence el 30 de junio", "el seguro del coche vence el 30 de junio"),
           ("Si me hiciera el favor, apunte que el cerrajero se llama Anselmo", "el cerrajero se llama Anselmo"),
           ("Le agradecería mucho que apuntara que el veterinario es el doctor Sanz", "el veterinario es el doctor Sanz"),
           ("Si pudiera, tome nota de que los lunes no hay recogida", "los lunes no hay recogida")],
    "de": [("Wenn's keine Mühe macht, schreib dir auf, dass die Biotonne freitags geleert wird", "die Biotonne freitags geleert wird"),
           ("Wenn's Ihnen keine Umstände macht, merken Sie sich, dass mein Spind die Nummer 218 hat", "mein Spind die Nummer 218 hat"),
           ("Wenn du so lieb wärst, merk dir, dass Oma Gerda am 3. Mai Geburtstag hat", "Oma Gerda am 3. Mai Geburtstag hat"),
           ("Falls es dir nichts ausmacht, notier dir, dass der Schornsteinfeger 60 € nimmt", "der Schornsteinfeger 60 € nimmt"),
           ("Wenn Sie so freundlich wären, notieren Sie, dass die Versicherung am 30. Juni ausläuft", "die Versicherung am 30. Juni ausläuft"),
           ("Wenn's geht, merk dir bitte, dass meine Apotheke die am Marktplatz ist", "meine Apotheke die am Marktplatz ist"),
           ("Falls es Ihnen nichts ausmacht, schreiben Sie bitte auf, dass die Mülltonne mittwochs rausmuss", "die Mülltonne mittwochs rausmuss")],
    "fr": [("Si ce n'est pas trop vous demander, notez que le serrurier s'appelle M. Roux", "le serrurier s'appelle M. Roux"),
           ("Si ça ne t'embête pas, retiens que la réunion de copro est le 5 mai", "la réunion de copro est le 5 mai"),
           ("Si vous aviez la gentillesse, prenez note que mon casier est le 218", "mon casier est le 218"),
           ("Je vous serais très obligé de bien vouloir noter que l'assurance expire le 30 juin", "l'assurance expire le 30 juin"),
           ("Si tu veux bien, note que le ramoneur prend 60 € la visite", "le ramoneur prend 60 € la visite"),
           ("Si vous pouvez, notez que le marché est le samedi matin", "le marché est le samedi matin")],
    "pt": [("Se não se importasse, tome nota de que a reunião de condomínio é a 5 de maio", "a reunião de condomínio é a 5 de maio"),
           ("Se fizesse o favor, anote que o seguro do carro vence a 30 de junho", "o seguro do carro vence a 30 de junho"),
           ("Se fosse tão amável, registe que o serralheiro se chama Anselmo", "o serralheiro se chama Anselmo"),
           ("Se não te importares, aponta que o limpa-chaminés cobra 60 €", "o limpa-chaminés cobra 60 €"),
           ("Ficava-lhe muito grato se tomasse nota de que o meu cacifo é o 218", "o meu cacifo é o 218"),
           ("Agradecia-lhe que anotasse que o lixo passa às quartas", "o lixo passa às quartas"),
           ("Se puder, anote que a feira é ao sábado de manhã", "a feira é ao sábado de manhã")],
    "it": [("Le sarei grata se volesse prendere nota che la riunione di condominio è il 5 maggio", "la riunione di condominio è il 5 maggio"),
           ("Se non le dispiace, prenda nota che il fabbro si chiama Anselmo", "il fabbro si chiama Anselmo"),
           ("Se non le reca disturbo, si segni che il mio armadietto è il 218", "il mio armadietto è il 218"),
           ("Se fosse così gentile, annoti che l'assicurazione scade il 30 giugno", "l'assicurazione scade il 30 giugno"),
           ("Se non ti dispiace, segnati che lo spazzacamino prende 60 €", "lo spazzacamino prende 60 €"),
           ("Sarebbe così gentile da segnarsi che la mia farmacia è quella in piazza", "la mia farmacia è quella in piazza"),
           ("Se può, si segni che il lunedì non c'è raccolta", "il lunedì non c'è raccolta")],
}
courtesy_right = reads_as(Intent.REMEMBER, asks=False) & keeps(1) & drops(before(1))
COURTESY_CONTROLS = [  # the same conditional as a plain statement or a question: no keep request
    "If you don't mind the cold, the lake is lovely in March",
    "Si no te importa el frío, el lago está precioso en marzo",
    "Wenn es dir nichts ausmacht, dass es kalt ist, ist der See im März herrlich",
    "Si ça ne vous dérange pas de marcher, la gare est à vingt minutes",
    "Se não se importasse com o barulho, o vizinho não reclamava",
    "Se non le dispiace il freddo, il lago a marzo è bellissimo",
    "Si puedes, ven el sábado a las 9",
    "Wenn du kannst, komm am Samstag um 9",
    "Si vous pouvez, passez jeudi vers 18 h",
    "Se puder, venha no sábado às 9h",
    "Se puoi, vieni sabato alle 9",
]
test_a_conditional_statement_is_no_keep_request = control_test(COURTESY_CONTROLS, reads_other_than(Intent.REMEMBER))
COURTESY_TOLD = {  # a courtesy lead before a question or a told habit keeps its reading
    "If it's all the same to you, can we meet at 10 instead?": Intent.QUESTION,
    "Si fuera tan amable, ¿me dice qué hora es?": Intent.QUESTION,
    "Se fosse così gentile, mi direbbe dov'è la stazione?": Intent.QUESTION,
}
test_a_courtesy_lead_before_a_question_asks = intent_table_test(COURTESY_TOLD)


# small talk that neither asks nor tells: formal thanks, a greeting and "how's the family", a plan
# for the evening ending in bed and "talk tomorrow"
SMALL: dict[str, list[str]] = {
    "en": ["I'm very grateful to you, you're a star",
           "Hi there, teacher! How's the family doing?",
           "Morning, Mr Hughes! So, how have you been keeping?",
           "Anyway, off to walk the dog and then bed, talk tomorrow",
           "Okay, off for a run and then bed, talk tomorrow",
           "Hiya! So, how are the kids?",
           "Right, bit of reading and then bed, talk tomorrow",
           "Hey you! How was the bank holiday?"],
    "es": ["Le agradezco enormemente su tiempo, de corazón",
           "Le agradezco de veras el favor, es usted una joya",
           "¡Buen día, señora Marta! ¿Cómo anda la familia por allá?",
           "¡Hola, don Luis! ¿Qué tal la familia?",
           "Bueno, me voy a la ducha y a dormir, hablamos mañana",
           "¡Hola, guapa! Oye, ¿qué tal los niños?",
           "Venga, un poco de tele y a la cama, mañana hablamos",
           "¡Ey! ¿Qué tal las vacaciones?"],
    "de": ["Ich danke Ihnen vielmals, Sie sind ein Schatz",
           "Vielen herzlichen Dank für Ihre Geduld, wirklich",
           "Servus, Herr Lehrer! Wie geht's der Familie?",
           "Hallo mein Lieber, was macht die Familie?",
           "So, ich geh noch duschen und dann ins Bett, wir hören uns morgen",
           "Servus! Und, was machen die Kinder?",
           "Guten Abend, Frau Weber! Wie geht's den Enkeln?",
           "Gut, noch ein bisschen lesen und dann ab ins Bett, bis morgen",
           "Moin! Wie war euer Urlaub?"],
    "fr": ["Je te remercie du fond du cœur pour ton aide, sincèrement",
           "Bonjour, madame Petit ! Comment va la famille ?",
           "Coucou ma belle, et la famille, ça va ?",
           "Bon, je vais me doucher puis au lit, on se parle demain",
           "Allez, un peu de lecture et au lit, on s'écrit demain",
           "Salut ma chum! Pis, comment ça se passe de ton bord?",
           "Bonsoir, monsieur Girard ! Comment vont les petits ?",
           "Salut ! Comment s'est passé le pont ?"],
    "pt": ["Fico-te muito agradecida pelo tempo, bem-hajas",
           "Fico-lhe muito grato pela paciência, é um amor",
           "Olá, querida! Então, como vão os miúdos?",
           "Boa noite, dona Lurdes! Então, como tem passado?",
           "Bom, vou tomar banho e dormir, falamos amanhã",
           "Oi, gente! Como está sendo a semana por aí?",
           "Boa tarde, dona Fernanda! Como estão os netos?",
           "Pronto, um bocadinho de leitura e cama, até amanhã",
           "Bom dia! Como correram as férias?",
           "Olá, passaste bem as férias?"],
    "it": ["La ringrazio di cuore per la pazienza, è un tesoro",
           "Ciao, prof! Come sta la famiglia?",
           "Buonasera, signor Bruni! Allora, come se la passa?",
           "Vabbè, vado a fare la doccia e poi a letto, ci si sente domani",
           "Dai, un po' di stretching e poi a nanna, ci sentiamo domani",
           "Ehi zia, tutto a posto coi bambini?",
           "Buonasera, signora Conti! Come stanno i nipotini?",
           "Ciao! Com'è andato il ponte?",
           "Ehi bello, tutto a posto da quelle parti stamattina?"],
}
small_right = small_talk(facts=False, asks=False)
SMALL_ASKS = {  # how a thing is, asked after a greeting or alone: a question
    "¿Cómo anda el coche después del arreglo?": Intent.QUESTION,
    "Hi Jo! How's the car after the repair?": Intent.QUESTION,
    "Hallo! Wie läuft die Heizung seit der Reparatur?": Intent.QUESTION,
    "Salut ! Comment va la voiture depuis la réparation ?": Intent.QUESTION,
    "Olá! Como vai o carro depois do conserto?": Intent.QUESTION,
    "Ciao! Come va la macchina dopo la riparazione?": Intent.QUESTION,
    "Hi! So, how's the boiler since the repair?": Intent.QUESTION,
    "¡Hola! Oye, ¿qué tal el coche nuevo?": Intent.QUESTION,
    "Servus! Und, was macht die Heizung?": Intent.QUESTION,
    "Salut! Comment ça se passe avec le garagiste?": Intent.QUESTION,
    "Oi! Como é que está o carro?": Intent.QUESTION,
    "Boa tarde! Como estão os pneus novos?": Intent.QUESTION,
    "Guten Abend! Wie geht's dem Auto?": Intent.QUESTION,
    "Hey! How was the bank holiday traffic on the M5?": Intent.QUESTION,
    "¡Hola! ¿Qué tal el puente de Toledo?": Intent.QUESTION,
    "Servus! Wie war das Essen im Adler?": Intent.QUESTION,
    "Salut ! Comment s'est passée la visite chez l'ophtalmo ?": Intent.QUESTION,
    "Olá! Como correu a consulta no dentista?": Intent.QUESTION,
    "Ciao! Com'è andato il colloquio da Ferrero?": Intent.QUESTION,
}
test_how_a_thing_is_stays_a_question = intent_table_test(SMALL_ASKS)
SMALL_FACTS = [  # thanks or a goodbye beside a lasting fact: the fact kept
    ("Gracias, el tren sale el jueves a las 8", "el tren sale el jueves a las 8"),
    ("Thanks so much, my train leaves Thursday at 8", "my train leaves Thursday at 8"),
    ("Bueno, mañana a las 9 tengo el dentista, hablamos mañana", "mañana a las 9 tengo el dentista"),
    ("Okay, physio at 9 tomorrow, then bed, talk tomorrow", "physio at 9"),
    ("Right, bit of reading at 9 and then bed, talk tomorrow", "at 9"),
    ("Danke vielmals, der Flug geht am Dienstag um 7", "der Flug geht am Dienstag um 7"),
    ("Merci infiniment, le vol est mardi à 7 h", "le vol est mardi à 7 h"),
    ("Agradeço imenso, o voo é na terça às 7h", "o voo é na terça às 7h"),
    ("Grazie di cuore, il volo è martedì alle 7", "il volo è martedì alle 7"),
]
test_thanks_beside_a_fact_keeps_it = control_test(SMALL_FACTS, reads_other_than(Intent.SMALL_TALK) & keeps(1))


# a refusal worded as "keep it in your head only, never in writing", "keep it to yourself and
# write nothing", or after the fact "but that goes nowhere in your notes": nothing kept, the
# content and the secret never
REFUSAL: dict[str, list[tuple[str, str]]] = {
    "en": [("Hold it in your head only, never in writing: the safe combination is 3391", "3391"),
           ("Keep it to yourself and write nothing down: the landlord is selling the flat", "the landlord is selling the flat"),
           ("The garage door code is 7745, but that goes nowhere in your notes", "7745"),
           ("Just keep it in your memory, nothing in writing: the alarm code is 5120", "5120"),
           ("My sister's pregnant, but that stays nowhere in your notes", "My sister's pregnant")],
    "es": [("Solo en tu cabeza, nunca por escrito: el PIN del banco es 6620", "6620"),
           ("Guárdatelo para ti y no anotes nada: el casero vende el piso", "el casero vende el piso"),
           ("El código del garaje es 7745, pero eso no va a ninguna parte de tus notas", "7745"),
           ("Tenlo solo en la memoria, nada por escrito: la alarma es 5120", "5120"),
           ("Mi hermana está embarazada, pero eso no queda en ningún sitio de tus apuntes", "Mi hermana está embarazada")],
    "de": [("Bleibt unter uns, und schreib bloß nix auf: mein Chef kündigt im Mai", "mein Chef kündigt im Mai"),
           ("Nur im Kopf behalten, nie schriftlich: die Bank-PIN ist 6620", "6620"),
           ("Das WLAN-Passwort ist Kiefer-2290, aber das kommt nirgendwo in deine Notizen", "Kiefer-2290"),
           ("Meine Schwester ist schwanger, aber das landet nirgends in deinen Notizen", "Meine Schwester ist schwanger")],
    "fr": [("Garde ça pour toi sans le noter : le proprio vend l'appart", "le proprio vend l'appart"),
           ("Garde ça en tête seulement, jamais par écrit : le code de la banque est 6620", "6620"),
           ("Le code du garage est 7745, mais ça ne va nulle part dans tes notes", "7745"),
           ("Garde-le en mémoire seulement, jamais par écrit : le code de l'alarme est 5120", "5120")],
    "pt": [("Guarda só na cabeça, nunca por escrito: o PIN do banco é 6620", "6620"),
           ("Fica com isso para ti e não escrevas nada: o senhorio vai vender o apartamento", "o senhorio vai vender o apartamento"),
           ("O código da garagem é 7745, mas isso não vai para lado nenhum nas tuas notas", "7745"),
           ("Fica só na memória, nada por escrito: o código do alarme é 5120", "5120")],
    "it": [("Solo nella tua testa, mai per iscritto: il PIN della banca è 6620", "6620"),
           ("Tienilo per te e non segnare niente: il padrone di casa vende l'appartamento", "il padrone di casa vende l'appartamento"),
           ("Il codice del garage è 7745, ma questo non finisce da nessuna parte nei tuoi appunti", "7745"),
           ("Mia sorella è incinta, ma questa cosa non resta da nessuna parte nelle tue note", "Mia sorella è incinta")],
}
refusal_right = withholds() & keeps_nothing
REFUSAL_KEEPS = {  # keep in mind, or keep private with no "don't write": the reading kept
    "Keep this in mind: the gym closes at 9": Intent.REMEMBER,
    "Ten en cuenta esto: el gimnasio cierra a las 9": Intent.REMEMBER,
    "Merk dir das: das Fitnessstudio schließt um 9": Intent.REMEMBER,
    "Garde ça pour toi : le proprio vend l'appart": Intent.STATEMENT,
    "Tieni a mente questo: la palestra chiude alle 21": Intent.REMEMBER,
    "Guarda isto na cabeça: o ginásio fecha às 21h": Intent.REMEMBER,
}
test_keep_in_mind_is_no_refusal = intent_table_test(REFUSAL_KEEPS)
REFUSAL_TOLD = [  # never writing it down, told of oneself or of notes: no refusal
    "I learnt the poem by heart, never in writing, at school",
    "Mi abuela se sabía todas las recetas de memoria, nunca por escrito",
    "Meine Oma hatte alle Rezepte im Kopf, nie schriftlich",
    "Ma grand-mère gardait ses recettes en tête, jamais par écrit",
    "A minha avó sabia as receitas de cor, nunca por escrito",
    "Mia nonna teneva le ricette a memoria, mai per iscritto",
]
test_never_in_writing_told_is_no_refusal = control_test(REFUSAL_TOLD, reads_other_than(Intent.DO_NOT_KEEP))


FAMILIES = {
    "courtesy": (COURTESY, courtesy_right),
    "small_talk": (SMALL, small_right),
    "refusal": (REFUSAL, refusal_right),
}
FLOOR = {
    "courtesy": all_read(COURTESY),
    "small_talk": all_read(SMALL),
    "refusal": all_read(REFUSAL),
}

test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
