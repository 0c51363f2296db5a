"""Fifteenth-round families of the lexicon reader (issue 35), written from holdout10's misses
(holdout10 is development data now) and measured on sentences written for this file before the
mechanism was (none of them is in a split; same author as the mechanism, so weaker evidence than
a blind split): a greeting with a pet name, or a question whether the listener is still up or how
their week goes, as small talk ("Fala, meu querido, como vão as coisas?", "evening! you still
awake in there?", "Ehilà, come ti va la settimana?"); closings by tiredness, a debt, a promise
or the listener's wit ("I'm shattered, catch you in the morning", "Órale, te la rifaste,
gracias", "Bassd scho, merci dir", "Je te revaudrai ça, promis", "mdr t'es trop drôle 😂"); keep idioms ("Lodge this in that brain of yours:", "Grábatelo bien,",
"Fissatelo in testa:", "Nun te scurdà:", "Would you please remember Desmond takes …?"); an asking
clause with no mark right after a number and the word it counts ("Unser Budget … liegt bei 600
Euro lohnt sich da …", "O Davi tem 9 anos dá para ele …", "Tommaso pesa 22 chili quale …"); a question with no mark
whose question word comes after its topic ("o IPVA do Argo vence que mês", "la Panda quand'è che
deve …", "unser Steuerberater, in welcher Kanzlei sitzt der"); refusals after the content or
before a colon ("…, neither of those gets stored ok", "Je te le dis mais ça reste hors de tes
notes :", "Não é para escrever em lado nenhum:"); file changes asked with a colloquial verb of
making or adding ("Sumá '…' a la lista de pendientes.md", "Legst du mir bitte eine x.md an",
"Consegue me fazer um x.md …?"); corrections ("Oops, Desmond takes one sugar, not two", "I hob mi
vertan, …"); asking to recall by "try to remember" ("Versuch dich zu erinnern, wie …"); the listener's week asked with no verb after a greeting
("Heille salut! Pis, ta semaine au chalet?").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Fifteenth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations


from openclaw_tui.language.reading import Intent
from tests.language.family_floor import LANGS, every, floor_test
from tests.language.family_checks import control_test, keeps_clause, reads_as, reads_other_than, small_talk

# a greeting with a pet name, a question whether the listener is still up, or how their week
# or day goes: small talk
GREETING_DEAR: dict[str, list[str]] = {
    "en": ["evening! you still up?", "hiya my dear, how's your week going?", "hey love, you still around?"],
    "es": ["¡Buenas, mi amor! ¿Cómo te va la semana?", "¡Wena! ¿Sigues despierto?", "¡Wena, compadre! ¿Cómo estái?"],
    "de": ["Na, mein Lieber, wie läuft die Woche?", "Guten Abend! Bist du noch wach?", "Hallo Schatz, bist du noch da?"],
    "fr": ["Bonsoir ! T'es encore debout ?", "Salut mon grand, comment se passe ta semaine ?", "Heille toi! Comment se passe ta journée?"],
    "pt": ["Oi, minha querida, como vai a semana?", "Boa noite! Ainda acordado?", "E aí, meu velho, ainda está por aí?"],
    "it": ["Buonasera! Sei ancora sveglio?", "Ciao tesoro, come ti va la giornata?", "Ehi caro, come ti va la settimana?"],
}

GREETING_DEAR_CONTROLS = [  # the same greeting before a question about a thing, or about someone: a question
    "Hi my dear, what time does the pharmacy open?",
    "Is Mia still up?",
    "are you still up for dinner at Nando's on Friday?",
    "Hola, cariño, ¿a qué hora abre la farmacia?",
    "Na, mein Lieber, wann kommt der Zug?",
    "Ist Mia noch wach?",
    "Salut mon grand, à quelle heure ferme la poste ?",
    "Léa est encore debout ?",
    "Oi, minha querida, a que horas abre a farmácia?",
    "O Caio ainda está acordado?",
    "Ciao tesoro, a che ora parte il treno?",
    "Giulia è ancora sveglia?",
]


# a closing by tiredness, debt, a promise, praise of the listener's wit, with thanks or a goodbye:
# small talk
CLOSING_MORE: dict[str, list[str]] = {
    "en": ["I'm knackered, catch you in the morning", "you're hilarious, cheers for that", "I'll make it up to you, promise"],
    "es": ["Estoy molido, hasta mañana", "Te la sacaste, gracias", "jajaja eres muy gracioso"],
    "de": ["Ich bin fix und fertig, bis morgen früh", "Bassd scho, danke dir", "Du bist so witzig 😂"],
    "fr": ["Je suis claqué, à demain matin", "Je te revaudrai ça, c'est promis", "mdr t'es trop marrant"],
    "pt": ["Tô acabado, até amanhã cedo", "Fico te devendo essa, prometo", "kkkk você é muito engraçado"],
    "it": ["Sono a pezzi, ci sentiamo domattina", "Ti devo un favore, promesso", "ahah sei troppo simpatico"],
}

CLOSING_MORE_CONTROLS = [  # the same words beside a fact, or about someone else: kept
    "I'm knackered. The night shift at St Mary's ends at 7",
    "My uncle Ted is hilarious at weddings",
    "I'll make it up to you, I promise to call Mia on Friday",
    "Estoy molido. El turno en el Carrefour acaba a las 22",
    "Ich bin fix und fertig. Die Nachtschicht bei Bosch geht bis 6",
    "Je suis claqué. Mon vol pour Montréal a duré 9 heures",
    "Tô acabado. O plantão no hospital vai até as 7",
    "Sono a pezzi. Il turno alla Esselunga finisce alle 22",
    "Mio zio Gino è troppo simpatico alle feste",
]


closing_more_right = small_talk()


# keep idioms: a verb of fixing into the head before a comma too, a colloquial or dialect
# "don't forget" before a colon, a polite "remember" with no "that" before a clause (en, de)
KEEP_HEAD: dict[str, list[tuple[str, str]]] = {
    "en": [("Lodge this in your brain, the boiler service is on 3 March", "the boiler service is on 3 March"),
           ("Don't you go forgetting: Mia's train gets in at 6:10", "Mia's train gets in at 6:10"),
           ("Would you please remember Oskar takes his coffee black?", "Oskar takes his coffee black")],
    "es": [("Grábatelo bien, el seguro de la moto vence el 9 de junio", "el seguro de la moto vence el 9 de junio"),
           ("No te me olvides: Lucía es alérgica a las nueces", "Lucía es alérgica a las nueces"),
           ("Métetelo bien en el coco, el gimnasio cierra los domingos", "el gimnasio cierra los domingos")],
    "de": [("Präg dir das gut ein, der Wertstoffhof hat samstags offen", "der Wertstoffhof hat samstags offen"),
           ("Vergiss des ned: die Oma hat am 12. Mai Geburtstag", "die Oma hat am 12. Mai Geburtstag"),
           ("Würdest du dir bitte merken, Paul trinkt keinen Kaffee?", "Paul trinkt keinen Kaffee")],
    "fr": [("Mets-toi ça bien dans le crâne, le ramonage est le 14 octobre", "le ramonage est le 14 octobre"),
           ("Oublie pas ça : Inès est allergique aux noix", "Inès est allergique aux noix"),
           ("Imprime-toi bien ça dans la tête, la piscine ferme le lundi", "la piscine ferme le lundi")],
    "pt": [("Grava bem isso, a revisão do carro é dia 12 de maio", "a revisão do carro é dia 12 de maio"),
           ("Num esquece: a Bia é alérgica a nozes", "a Bia é alérgica a nozes"),
           ("Mete isso bem na cachola, a academia fecha aos domingos", "a academia fecha aos domingos")],
    "it": [("Fissatelo bene in testa, la revisione della moto è il 9 giugno", "la revisione della moto è il 9 giugno"),
           ("Nun te scurdà: Gino beve solo caffè d'orzo", "Gino beve solo caffè d'orzo"),
           ("Ficcatelo in zucca, la palestra chiude la domenica", "la palestra chiude la domenica")],
}

KEEP_HEAD_CONTROLS = [  # the same idioms told about someone, or before a question: nothing kept as asked
    "My nan lodged this in her brain, she never lends money",
    "Would you please remember what time Oskar's train gets in?",
    "Mi hermano se lo grabó bien: nunca más presta dinero",
    "Würdest du dir bitte merken, wann Paul kommt?",
    "Mein Opa vergisst des ned: er hat am 3. Mai Hochzeitstag",
    "Il s'est mis ça dans le crâne, il veut partir",
    "O Rui meteu isso bem na cachola: vai emigrar",
    "Luca se l'è fissato in testa: vuole andare a Lisbona",
]


keep_head_right = keeps_clause(Intent.REMEMBER, how="starts")


# an asking clause with no mark and no joining word right after a number and the word it counts
# ("… 600 Euro lohnt sich da …", "… 9 anos dá para …", "… 22 chili quale …")
ASK_AFTER_COUNT: dict[str, list[tuple[str, str]]] = {
    "en": [("Our budget is 900 pounds does that cover a week in Rome", "Our budget is 900 pounds"),
           ("We're 6 people is it smarter to rent a van", "We're 6 people"),
           ("My son is 14 months can he eat honey yet", "My son is 14 months")],
    "es": [("Tengo 900 euros me alcanza para una semana en Roma", "Tengo 900 euros"),
           ("Somos 6 personas conviene alquilar una furgoneta", "Somos 6 personas"),
           ("Mi perro tiene 12 años vale la pena operarlo", "Mi perro tiene 12 años")],
    "de": [("Wir sind 5 Personen lohnt sich da ein Van", "Wir sind 5 Personen"),
           ("Ich habe 800 Euro reicht das für eine Woche in Rom", "Ich habe 800 Euro"),
           ("Die Wohnung hat 45 Quadratmeter passt das Schlafsofa da rein", "Die Wohnung hat 45 Quadratmeter")],
    "fr": [("J'ai 900 euros ça suffit pour une semaine à Rome", "J'ai 900 euros"),
           ("On est 6 personnes ça vaut le coup de louer un van", "On est 6 personnes"),
           ("Mon chien a 12 ans ça vaut encore la peine de l'opérer", "Mon chien a 12 ans")],
    "pt": [("Tenho 900 euros dá para uma semana em Roma", "Tenho 900 euros"),
           ("Somos 6 pessoas compensa alugar uma carrinha", "Somos 6 pessoas"),
           ("O meu cão tem 12 anos vale a pena operar", "O meu cão tem 12 anos")],
    "it": [("Ho 900 euro ce la faccio per una settimana a Roma", "Ho 900 euro"),
           ("Siamo 6 persone conviene noleggiare un furgone", "Siamo 6 persone"),
           ("Il mio cane ha 12 anni vale la pena operarlo", "Il mio cane ha 12 anni")],
}

ASK_AFTER_COUNT_CONTROLS = [  # a number and what it counts, then the statement goes on: kept, no question
    "My daughter is 7 years old she loves Lego",
    "Tengo 900 euros ahorrados para el viaje a Roma",
    "Wir sind 5 Personen und fahren am 3. Mai nach Rom",
    "J'ai 900 euros de côté pour Rome",
    "Somos 6 pessoas e vamos de carro para o Porto",
    "Il cane pesa 30 chili e mangia due volte al giorno",
]


ask_after_count_right = keeps_clause(Intent.QUESTION, how="starts")


# a question with no mark whose question word comes after its topic: a verb then "which month"
# at the end, a cleft question word ("quand'è che", "quando é que", "c'est quand que"), or a
# preposition and a question word after a comma ("…, in welcher Kanzlei …", "…, en qué barrio …")
TOPIC_ASKS: dict[str, list[str]] = {
    "en": ["the car insurance renews which month", "the vet when does she open on Saturdays",
           "our plumber, which part of town does he live in"],
    "es": ["el seguro del coche vence qué mes", "la Clio cuándo es que tiene que pasar la ITV",
           "nuestro fontanero, en qué barrio vive"],
    "de": ["die Kfz-Steuer ist in welchem Monat fällig", "der Golf wann muss der zum TÜV",
           "unsere Zahnärztin, in welcher Praxis arbeitet die"],
    "fr": ["l'assurance de la Clio expire quel mois", "la Clio c'est quand qu'elle passe au contrôle technique",
           "notre plombier, dans quel quartier il habite"],
    "pt": ["o seguro do carro vence que mês", "o Fiat quando é que tem de ir à revisão",
           "o nosso canalizador, em que bairro ele mora"],
    "it": ["l'assicurazione della Punto scade che mese", "la Punto quand'è che deve fare il tagliando",
           "il nostro idraulico, in che zona abita"],
}

TOPIC_ASKS_CONTROLS = [  # the same topics stated, or a relative clause after a preposition: kept
    "the car insurance renews every March",
    "el seguro del coche vence en marzo",
    "die Kfz-Steuer ist im März fällig",
    "Die Praxis, in der Dr. Roth arbeitet, ist in Gohlis",
    "l'assurance de la Clio expire en mars",
    "o seguro do carro vence em março",
    "A rua em que a Bia mora é a Rua Augusta",
    "l'assicurazione della Punto scade a marzo",
    "La casa in cui abita Gino è in via Roma 4",
]


topic_asks_right = reads_as(Intent.QUESTION)


# refusals after the content or before a colon: "neither of those gets stored", "this stays out
# of your notes", "not to be written down anywhere"
REFUSAL_AFTER: dict[str, list[str]] = {
    "en": ["the alarm code is 4471 and the safe is 9920, neither of those gets saved ok",
           "I'm telling you but this stays out of your notes: my sister is pregnant",
           "It's not to be written down anywhere: Tom is leaving the firm"],
    "es": ["El código de la alarma es 4471 y el de la caja 9920, ninguno de los dos se guarda, ¿vale?",
           "Te lo cuento pero esto queda fuera de tus notas: mi hermana está embarazada",
           "No es para apuntar en ningún sitio: Tomás deja la empresa"],
    "de": ["Der Alarmcode ist 4471 und der Tresor 9920, keins von beiden wird gespeichert, ok",
           "Ich sag's dir, aber das bleibt aus deinen Notizen raus: meine Schwester ist schwanger",
           "Das ist nirgends aufzuschreiben: Tom verlässt die Firma"],
    "fr": ["Le code de l'alarme c'est 4471 et le coffre 9920, aucun des deux n'est enregistré ok",
           "Je te le dis mais ça reste hors de ta mémoire : ma sœur est enceinte",
           "C'est pas à écrire nulle part : Tom quitte la boîte"],
    "pt": ["O código do alarme é 4471 e o do cofre 9920, nenhum dos dois fica guardado, ok",
           "Conto-te mas isto fica fora das tuas notas: a minha irmã está grávida",
           "Não é para anotar em lado nenhum: o Tomás vai sair da empresa"],
    "it": ["Il codice dell'allarme è 4471 e la cassaforte 9920, nessuno dei due va salvato ok",
           "Te lo dico ma questo resta fuori dalle tue note: mia sorella è incinta",
           "Non è da scrivere da nessuna parte: Tommaso lascia l'azienda"],
}

REFUSAL_AFTER_CONTROLS = [  # the same words about something else: nothing withheld
    "Neither of my kids gets car sick on long trips",
    "Mi gato se queda fuera de casa por la noche",
    "Das Fahrrad bleibt im Sommer aus der Garage raus",
    "Le vélo reste hors du garage l'été",
    "Não é para amanhã, é para sexta",
    "Nessuno dei due va a scuola il sabato",
]


refusal_after_right = reads_as(Intent.DO_NOT_KEEP, facts=False)


# a file change asked with a colloquial verb of making or adding, the file named after it
FILE_MAKE: dict[str, list[str]] = {
    "en": ["Can you do me a packing-list.md for the trip?", "Could you make me a gifts-2026.md with the ideas?",
           "Do me a quick shopping.md, would you?"],
    "es": ["Sumá 'llamar al dentista' a pendientes.md", "Meté 'pagar la luz' en pendientes.md",
           "Sumale 'comprar pilas' a compras.md"],
    "de": ["Legst du mir eine packliste.md an?", "Baust du mir eine geschenke.md mit den Ideen?",
           "Richtest du mir bitte eine budget-2027.md ein?"],
    "fr": ["Tu me fais un fichier valise.md pour le voyage ?", "Tu peux me pondre un budget-2027.md avec les factures ?",
           "Tu me prépares un cadeaux.md avec les idées ?"],
    "pt": ["Consegue me fazer um mala.md para a viagem?", "Me faz um orcamento-2027.md com as contas?",
           "Dá para me criar um presentes.md com as ideias?"],
    "it": ["Mi fai un file valigia.md per il viaggio?", "Riesci a prepararmi un budget-2027.md con le bollette?",
           "Mi prepari un regali.md con le idee?"],
}

FILE_MAKE_CONTROLS = [  # the same verbs with no file named, or a question about a file: no change
    "Could you make me a cup of tea?",
    "¿Me hacés un café?",
    "Machst du mir einen Kaffee?",
    "Tu me fais un câlin ?",
    "Tu me dis ce qu'il y a dans valise.md ?",
    "Me faz um café?",
    "Mi fai un caffè?",
]


file_make_right = reads_as(Intent.FILE_CHANGE)


# corrections: an oops before the "X, not Y" frame where Y is a number word, a slang or dialect
# "I got it wrong" before the new fact
CORRECTION_MORE: dict[str, list[str]] = {
    "en": ["Oops, Mia has three cats, not two", "I goofed, the plumber comes on Friday", "Whoops, we need four chairs, not six"],
    "es": ["Uy, Lola tiene tres gatos, no dos", "Me hice bolas, la cena es el sábado", "Uy, necesitamos cuatro sillas, no seis"],
    "de": ["Hoppla, Mia hat drei Katzen, nicht zwei", "I hob mi vertan, d'Oma kimmt erst am Sonntag",
           "Hoppla, wir brauchen vier Stühle, nicht sechs"],
    "fr": ["Oups, Léa a trois chats, pas deux", "Je me suis gouré, le plombier vient jeudi", "Oups, il faut quatre chaises, pas six"],
    "pt": ["Ops, a Bia tem três gatos, não dois", "Vacilei, o encanador vem na sexta", "Ops, precisamos de quatro cadeiras, não seis"],
    "it": ["Ops, Giulia ha tre gatti, non due", "Ho toppato, l'idraulico viene venerdì", "Ops, servono quattro sedie, non sei"],
}

CORRECTION_MORE_CONTROLS = [  # an oops before a mishap, "not a …", a mistake told of someone else: no correction
    "Oops, dropped two eggs on the floor",
    "Hannah is a nurse, not a doctor",
    "Mi hermano se hizo bolas con los papeles del banco",
    "Hoppla, zwei Teller sind runtergefallen",
    "Il s'est gouré de route en allant à Lyon",
    "Ops, caíram dois copos no chão",
    "Ops, mi sono caduti due bicchieri",
]


correction_more_right = reads_as(Intent.CORRECTION, facts=True)


# asking to recall by "try to remember", with or without a comma before the question word
RECALL_TRY: dict[str, list[str]] = {
    "en": ["Try and recall, which garage did the MOT last year", "Have a think, what was the name of the painter",
           "Try to remember, when did we last service the boiler"],
    "es": ["Intenta recordar cómo se llamaba el pintor", "Haz memoria, dónde dejamos la llave de repuesto",
           "Trata de acordarte, qué día vino el técnico"],
    "de": ["Versuch mal dich zu erinnern, wo der Ersatzschlüssel liegt", "Versuch dich zu erinnern, wann der Techniker da war",
           "Denk mal nach, wie hieß der Maler"],
    "fr": ["Essaie de te rappeler, quel jour le technicien est venu", "Fais un effort de mémoire, où on a mis la clé de secours",
           "Essaye de te souvenir, comment s'appelait le peintre"],
    "pt": ["Tenta lembrar, que dia o técnico veio", "Puxa pela memória, onde deixámos a chave suplente",
           "Tenta te lembrar, como se chamava o pintor"],
    "it": ["Prova a ricordare, che giorno è passato il tecnico", "Sforzati di ricordare, dove abbiamo messo la chiave di scorta",
           "Cerca di ricordarti, come si chiamava l'imbianchino"],
}

RECALL_TRY_CONTROLS = [  # trying to remember something told as a statement: no question
    "Ich versuche mich zu erinnern, wo ich den Schlüssel hingelegt habe, aber es klappt nicht",
    "Intento recordar los nombres de todos mis alumnos cada septiembre",
    "Mi sforzo di ricordare i compleanni di tutti i nipoti",
]


recall_try_right = reads_as(Intent.QUESTION)


# after a greeting, the listener's week, weekend or holidays asked with no verb: small talk
YOUR_WEEK: dict[str, list[str]] = {
    "en": ["Hey you! So, your weekend at the lake?", "Morning! And your trip to Cornwall?", "hiya, your week at the new job?"],
    "es": ["¡Hola! ¿Y tu finde en la playa?", "Buenas, ¿y tus vacaciones en Asturias?", "¡Wena! ¿Y tu semana en la pega?"],
    "de": ["Hallo! Und dein Wochenende am See?", "Servus! Und dein Urlaub in Kroatien?", "Na du, und deine Woche im neuen Job?"],
    "fr": ["Salut ! Et ton week-end au lac ?", "Coucou! Pis, tes vacances en Bretagne?", "Allô! Ta semaine au nouveau boulot?"],
    "pt": ["Oi! E o teu fim de semana na praia?", "Olá! E as tuas férias no Algarve?", "Fala! E a tua semana no trabalho novo?"],
    "it": ["Ciao! E il tuo weekend al mare?", "Ehi! E le tue vacanze in Puglia?", "Ciao bella, e la tua settimana al lavoro nuovo?"],
}

YOUR_WEEK_QUESTIONS = [  # a thing asked with no verb: a question
    "And your flight number for Friday?",
    "¿Y la factura del fontanero?",
    "Und die Rechnung vom Klempner?",
    "Et la réunion de lundi ?",
    "E o orçamento do canalizador?",
    "E la fattura dell'idraulico?",
]

YOUR_WEEK_STATED = [  # the listener's trip stated: kept
    "Your trip to Rome starts on Monday",
    "Tu viaje a Roma empieza el lunes",
    "Dein Urlaub in Kroatien beginnt am 3. Mai",
    "Ton vol pour Rome part lundi",
    "A tua viagem a Roma começa na segunda",
    "Il tuo volo per Roma parte lunedì",
]


your_week_right = small_talk()


greeting_dear_right = small_talk()


FAMILIES = {
    "greeting_dear": (GREETING_DEAR, greeting_dear_right),
    "closing_more": (CLOSING_MORE, closing_more_right),
    "keep_head": (KEEP_HEAD, keep_head_right),
    "ask_after_count": (ASK_AFTER_COUNT, ask_after_count_right),
    "topic_asks": (TOPIC_ASKS, topic_asks_right),
    "refusal_after": (REFUSAL_AFTER, refusal_after_right),
    "file_make": (FILE_MAKE, file_make_right),
    "correction_more": (CORRECTION_MORE, correction_more_right),
    "recall_try": (RECALL_TRY, recall_try_right),
    "your_week": (YOUR_WEEK, your_week_right),
}

#: sentences read right per language when each mechanism was committed
FLOOR: dict[str, dict[str, int]] = {
    "greeting_dear": every(3),
    "closing_more": every(3),
    "keep_head": every(3),
    "ask_after_count": every(3, it=2),  # "Ho 900 euro": too short a fact to keep
    "topic_asks": every(3),
    "refusal_after": every(3),
    "file_make": every(3),
    "correction_more": every(3),
    "recall_try": every(3),
    "your_week": every(3),
}


test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, LANGS)


test_a_greeting_with_a_pet_name_before_a_question_about_a_thing_asks = control_test(GREETING_DEAR_CONTROLS, reads_as(Intent.QUESTION))


test_tiredness_or_wit_beside_a_fact_keeps_it = control_test(CLOSING_MORE_CONTROLS, reads_other_than(Intent.SMALL_TALK, facts=True))


test_a_keep_idiom_told_about_someone_or_before_a_question_keeps_nothing_as_asked = control_test(KEEP_HEAD_CONTROLS, reads_other_than(Intent.REMEMBER))


test_a_count_before_a_statement_that_goes_on_keeps_it = control_test(ASK_AFTER_COUNT_CONTROLS, reads_as(Intent.STATEMENT, facts=True))


test_a_topic_stated_or_a_relative_clause_keeps_it = control_test(TOPIC_ASKS_CONTROLS, reads_as(Intent.STATEMENT, facts=True))


test_staying_out_or_neither_of_two_about_something_else_withholds_nothing = control_test(REFUSAL_AFTER_CONTROLS, reads_other_than(Intent.DO_NOT_KEEP))


test_a_making_verb_with_no_file_or_a_question_about_a_file_changes_nothing = control_test(FILE_MAKE_CONTROLS, reads_other_than(Intent.FILE_CHANGE))


test_an_oops_before_a_mishap_or_a_mistake_of_someone_else_corrects_nothing = control_test(CORRECTION_MORE_CONTROLS, reads_other_than(Intent.CORRECTION))


test_trying_to_remember_told_as_a_statement_asks_nothing = control_test(RECALL_TRY_CONTROLS, reads_other_than(Intent.QUESTION))


test_a_thing_asked_with_no_verb_asks = control_test(YOUR_WEEK_QUESTIONS, reads_as(Intent.QUESTION))


test_the_listeners_trip_stated_is_kept = control_test(YOUR_WEEK_STATED, reads_as(Intent.STATEMENT, facts=True))
