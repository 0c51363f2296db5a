"""Sixteenth-round families of the lexicon reader (issue 35), written from holdout11's misses
(holdout11 is development data now) and measured on sentences written for this file before the
mechanism was (none of them is in a split; same author as the mechanism, so weaker evidence than
a blind split): a remember request put as a favour or a condition ("Would you be a star and
remember that …?", "I'd appreciate it if you remembered that …", "Le agradecería que tomara nota
de que …", "Le dispiacerebbe prendere nota del …?"); a greeting before a colloquial or dialect
"all good?", "slept well?" ("Griaß Gott beinand, no ois im Lot?", "Bom diaaa! Dormiste bem por
aí?", "Uè uagliò, tutt'apposto?"); closings by going to bed, tiredness, a goodnight to all ("Vou
dormir que amanhã é cedo, fui 😴", "Crollo dal sonno, notte ragazzi 😴 domani si riparte");
durable statements with no digit or name, where a thing is kept or what I can't stand ("The
boiler's reset switch is behind the ironing board …", "Den Zweitschlüssel … findest du am Haken
…", "Eu não curto nada de coentro"); keep idioms before a colon ("Que no se te pase, porfa:",
"Grave-toi ça quelque part :"); a file named, then a clause deleting it ("Die Datei x.pdf kann
weg, lösch sie"); a fact closed by a day, then an asking clause with no mark ("… sortie scolaire
jeudi il lui faut quoi …"); someone who does not drive or has no licence, led by "since" ("Ya que
mi suegro no maneja, …?", "Da Hildegard keinen Führerschein hat, …?").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Sixteenth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations


from openclaw_tui.language.reading import Intent
from tests.language.family_floor import LANGS, every, floor_test
from tests.language.family_checks import (control_test, keeps_clause, keeps_nothing, reads_as, reads_other_than,
                                          small_talk)

# a remember request put as a favour or a condition ("be a star and", "I'd appreciate it if you
# remembered", "Le agradecería que anotara", "Agradecia que tomasse nota"): kept
POLITE_KEEP: dict[str, list[tuple[str, str]]] = {
    "en": [("Would you be an angel and remember that the recycling goes out on Thursdays?", "the recycling goes out on Thursdays"),
           ("I'd appreciate it if you noted that Priya is allergic to sesame", "Priya is allergic to sesame"),
           ("Could you be a love and remember that my locker number is 212?", "my locker number is 212")],
    "es": [("Le agradecería que anotara que la cita del dentista es el 4 de marzo", "la cita del dentista es el 4 de marzo"),
           ("Le pediría que tomara nota de que mi número de cliente es el 88213", "mi número de cliente es el 88213"),
           ("Te agradecería que guardaras que Marta no come cerdo", "Marta no come cerdo")],
    "de": [("Wärst du ein Schatz und merkst dir, dass der Müll jetzt dienstags abgeholt wird?", "der Müll jetzt dienstags abgeholt wird"),
           ("Ich wäre dir dankbar, wenn du dir merken würdest, dass Jonas keine Nüsse verträgt", "Jonas keine Nüsse verträgt"),
           ("Sei ein Engel und notier dir, dass mein Spind die Nummer 212 hat", "mein Spind die Nummer 212 hat")],
    "fr": [("Sois un ange et retiens que la poubelle jaune sort le mardi", "la poubelle jaune sort le mardi"),
           ("Je te serais reconnaissant si tu notais que Chloé est allergique au sésame", "Chloé est allergique au sésame"),
           ("Tu serais un amour de retenir que mon casier est le 212", "mon casier est le 212")],
    "pt": [("Fazes-me um favor e anotas que a consulta é dia 4 de março?", "a consulta é dia 4 de março"),
           ("Agradecia que tomasse nota de que o meu número de sócio é 40218", "o meu número de sócio é 40218"),
           ("Fazias-me um jeito e lembravas-te que a Rita não come carne?", "a Rita não come carne")],
    "it": [("Le dispiacerebbe prendere nota della mia targa, cioè GH 482 KL?", "mia targa, cioè GH 482 KL"),
           ("Ti dispiacerebbe segnarti che la palestra chiude alle 22?", "la palestra chiude alle 22"),
           ("Mi faresti un favore e ti ricordi che Bianca non mangia carne?", "Bianca non mangia carne")],
}
POLITE_KEEP_CONTROLS = [  # remembering told of oneself, or a favour asking something else: no keep request
    "I remembered that my passport is in the drawer",
    "Would you be a star and tell me when the bins go out?",
    "Le agradecería que me dijera a qué hora abre la farmacia",
    "Ich habe mir gemerkt, dass Jonas keine Nüsse mag",
    "Je me souviens que Chloé habitait à Lyon",
    "Lembras-te que a Rita mudou de casa?",
    "Mi ricordo che Bianca abitava a Roma",
    "Mi faresti un favore e mi dici a che ora apre la farmacia?",
    "Can you remember my shoe size?",
    "Can you remember my 3 passwords?",
    "Potresti ricordare il mio numero di scarpe?",
]


polite_keep_right = keeps_clause(Intent.REMEMBER, how="starts")


# a greeting before a colloquial or dialect "all good?", "slept well?" (an "or not yet" tail too), "had a
# nice Sunday?": small talk that asks nothing
GREETING_WELL: dict[str, list[str]] = {
    "en": ["Oi oi, all good in the hood?", "Morning all! Sleep alright?", "Alright mate, all sound?"],
    "es": ["¡Buenas, chavales! ¿Todo en orden por ahí?", "¡Hola! ¿Dormiste bien o todavía no?", "¡Qué onda, güey! ¿Todo chido?"],
    "de": ["Servus beinand, alles im Lot bei euch?", "Moin! Gut gepennt?", "Hoi zäme, hend er es schöns Wucheänd gha?"],
    "fr": ["Salut la compagnie ! Bien dormi ou pas encore réveillé ?", "Wesh, ça roule ?", "Coucou ! Tout roule de ton côté ?"],
    "pt": ["Bom diaaa! Dormiu bem por aí?", "E aí, mano! De boa por aí?", "Olá, malta! Tudo em ordem por aí?"],
    "it": ["Uè, tutto a posto?", "Buongiorno! Dormito bene?", "Ciao ragazzi, tutto ok da voi?"],
}
GREETING_WELL_CONTROLS = [  # the same greeting before a question about a thing, or someone else's sleep: a question
    "Morning all! Is the pharmacy open today?",
    "Did Mia sleep alright after the jab?",
    "¡Buenas! ¿Sabes a qué hora abre la farmacia?",
    "¿Durmió bien Lucía después de la vacuna?",
    "Servus beinand, wann macht die Werkstatt auf?",
    "Hat Jonas gut geschlafen nach der Impfung?",
    "Coucou ! Tu sais si la poste ouvre samedi ?",
    "Léa a bien dormi après le vaccin ?",
    "E aí, mano! Sabes a que horas abre o ginásio?",
    "A Bia dormiu bem depois da vacina?",
    "Ciao ragazzi, a che ora chiude la piscina?",
    "Giulia ha dormito bene dopo il vaccino?",
]


greeting_well_right = small_talk()


# a closing by going to bed, an early start, tiredness, a goodnight to all, thanks after "pronto" or
# "ha", clauses between commas or emoji: small talk
CLOSING_SLEEP: dict[str, list[str]] = {
    "en": ["Cheers, you absolute legend, sorted", "Right, off to bed, early start tomorrow, night all", "Hope your gears are well oiled"],
    "es": ["Listo, graciñas", "Me voy a dormir que mañana madrugo, chao", "Me caigo de sueño, buenas noches a todos"],
    "de": ["Passt, dankeschön, du Held", "Ich hau mich aufs Ohr, morgen geht's früh los, gute Nacht", "Ich fall gleich um vor Müdigkeit, Nacht zusammen"],
    "fr": ["Bon, merci bien, t'es un chef", "Je vais me coucher, demain je me lève tôt, bonne nuit", "Je tombe de sommeil, bonne nuit tout le monde"],
    "pt": ["Pronto, valeu mesmo", "Vou deitar que amanhã acordo cedo, tchau", "Tô morrendo de sono, boa noite pessoal"],
    "it": ["Ok, grazie mille, sei un mito", "Vado a letto che domani mi alzo presto, notte", "Casco dal sonno, buonanotte a tutti"],
}
CLOSING_SLEEP_CONTROLS = [  # going to bed because of a named appointment, an interjection before a fact: kept
    "I'm off to bed early because my shift at Tesco starts at 5 tomorrow",
    "Me voy a dormir temprano porque mañana tengo el examen de conducir a las 8",
    "Ich geh früh schlafen, morgen um 7 hab ich den Termin beim Zahnarzt",
    "Je vais me coucher tôt, demain j'ai mon oral à 8 h à la Sorbonne",
    "Vou deitar cedo porque amanhã tenho a entrevista na Embraer às 9",
    "Vado a letto presto perché domani ho il colloquio alle 9 da Luxottica",
    "Ha, the bin men come on Mondays now",
    "Pronto, o Rui chega às 5 da tarde",
    "Buonanotte a tutti, domani alle 9 c'è il colloquio da Luxottica",
]


closing_sleep_right = small_talk()


# durable with no digit or name: where a thing is kept ("are behind the …", "you'll find … under the",
# "li trovi dietro i …") and what I can't stand ("I can't stomach", "jsupporte pas", "não curto"): kept
KEPT_WHERE: dict[str, list[str]] = {
    "en": ["The spare fuses are behind the paint tins in the garage", "I can't stomach coriander, it tastes like soap", "You'll find the stopcock under the kitchen sink behind the bleach"],
    "es": ["La llave de repuesto del buzón la encuentras en el cajón de la entrada", "No soporto el cilantro, me sabe a jabón", "Los fusibles de recambio están detrás de los botes de pintura en el garaje"],
    "de": ["Die Ersatzsicherungen findest du hinter den Farbeimern in der Garage", "Koriander kann ich echt nicht ausstehen", "Der Hauptwasserhahn ist unter der Spüle hinter dem Putzmittel"],
    "fr": ["Tu trouveras les fusibles de rechange derrière les pots de peinture dans le garage", "jsupporte pas la coriandre, ça a un goût de savon", "Le robinet d'arrêt est sous l'évier derrière la javel"],
    "pt": ["Os fusíveis de reserva estão atrás das latas de tinta na garagem", "Eu não curto nada de beterraba", "A chave do cadeado tu encontras na gaveta da entrada"],
    "it": ["I fusibili di ricambio li trovi dietro i barattoli di vernice in garage", "Non sopporto proprio il coriandolo, sa di sapone", "Il rubinetto generale è sotto il lavello dietro la candeggina"],
}
KEPT_WHERE_CONTROLS = [  # chit-chat of the moment: nothing kept
    "Just got off the train, totally wiped",
    "Acabo de salir del metro, estoy reventado",
    "Bin grad aus dem Bus raus, völlig platt",
    "Je sors à peine du RER, complètement lessivé",
    "Acabei de sair do metrô, tô só o pó",
    "Appena sceso dal treno, sono distrutto",
    "Mia is under the weather today",
]


kept_where_right = reads_as(Intent.STATEMENT, facts=True)


# keep idioms before a colon: don't let it slip / that it not escape you / etch it somewhere ("Que no
# se te pase, porfa:", "Grave-toi ça quelque part :", "Che non ti sfugga:"): kept
KEEP_COLON: dict[str, list[tuple[str, str]]] = {
    "en": [("Make sure it doesn't slip your mind: the meter reader comes on the 9th", "the meter reader comes on the 9th"),
           ("Etch this somewhere: Hugo's locker code is 4471", "Hugo's locker code is 4471"),
           ("Don't let this one slip, pls: the dentist moved to Friday the 14th", "the dentist moved to Friday the 14th")],
    "es": [("Que no se te escape, porfa: la revisión de la caldera es el 12 de mayo", "la revisión de la caldera es el 12 de mayo"),
           ("Grábate esto en algún lado: el código del portal es 4471", "el código del portal es 4471"),
           ("Que no se te pase: Hugo no come gluten", "Hugo no come gluten")],
    "de": [("Dass mir das nicht durchrutscht, bitte: der Zählerableser kommt am 9. Mai", "der Zählerableser kommt am 9. Mai"),
           ("Schreib dir das irgendwo hin: der Torcode ist 4471", "der Torcode ist 4471"),
           ("Dass du mir das ja nicht vergisst: Hugo isst kein Gluten", "Hugo isst kein Gluten")],
    "fr": [("Grave-toi ça dans un coin : le code du portail est 4471", "le code du portail est 4471"),
           ("Que ça ne t'échappe pas : Hugo ne mange pas de gluten", "Hugo ne mange pas de gluten"),
           ("Note-toi ça quelque part : le releveur passe le 9 mai", "le releveur passe le 9 mai")],
    "pt": [("Que não te escape, por favor: a revisão da caldeira é dia 12 de maio", "a revisão da caldeira é dia 12 de maio"),
           ("Grava isso em algum lugar: o código do portão é 4471", "o código do portão é 4471"),
           ("Não deixa isso passar: o Hugo não come glúten", "o Hugo não come glúten")],
    "it": [("Che non ti sfugga, per favore: la revisione della caldaia è il 12 maggio", "la revisione della caldaia è il 12 maggio"),
           ("Stampatelo da qualche parte: il codice del cancello è 4471", "il codice del cancello è 4471"),
           ("Non fartelo scappare: Hugo non mangia glutine", "Hugo non mangia glutine")],
}
KEEP_COLON_CONTROLS = [  # it slipped my mind, told of the past: nothing kept as asked
    "It slipped my mind: the meter reader came yesterday",
    "Se me pasó: la revisión era ayer",
    "Das ist mir durchgerutscht: der Zählerableser war gestern da",
    "Ça m'a échappé : le releveur est passé hier",
    "Passou-me: a revisão era ontem",
    "Mi è sfuggito: la revisione era ieri",
]


keep_colon_right = keeps_clause(Intent.REMEMBER, how="starts")


# a file named, then a clause that deletes it ("Die Datei alt.pdf kann weg, lösch sie", "Il vecchio.pdf
# buttalo via, cancellalo"): a file change, no refusal
FILE_DROP: dict[str, list[str]] = {
    "en": ["The file old_budget.xlsx can go, bin it", "notes_2019.txt is no longer needed, delete it", "draft_v2.docx is out of date, wipe it"],
    "es": ["El archivo presupuesto_viejo.pdf sobra, bórralo", "notas_2019.txt ya no hace falta, elimínalo", "borrador_v2.docx ya no sirve, bórralo"],
    "de": ["Die Datei budget_alt.xlsx kann weg, lösch sie", "notizen_2019.txt brauch ich nicht mehr, lösch die", "entwurf_v2.docx ist veraltet, weg damit"],
    "fr": ["Le fichier budget_vieux.xlsx peut partir, supprime-le", "notes_2019.txt ne sert plus, efface-le", "brouillon_v2.docx est périmé, vire-le"],
    "pt": ["O arquivo orcamento_velho.xlsx pode ir, apaga ele", "notas_2019.txt já não faz falta, apaga-o", "rascunho_v2.docx está desatualizado, deleta"],
    "it": ["Il file budget_vecchio.xlsx buttalo via, cancellalo", "note_2019.txt non serve più, eliminalo", "La bozza_v2.docx è vecchia, cestinala"],
}
FILE_DROP_CONTROLS = [  # "delete it" after what I said, no file named: a refusal
    "Forget what I said about Hugo, delete it",
    "Olvida lo que te dije de Hugo, bórralo",
    "Vergiss, was ich über Hugo gesagt hab, lösch das",
    "Oublie ce que je t'ai dit sur Hugo, efface-le",
    "Esquece o que eu disse do Hugo, apaga isso",
    "Dimentica quello che ti ho detto su Hugo, cancellalo",
    "About report.pdf, never mind, don't save any of this",
]


file_drop_right = reads_as(Intent.FILE_CHANGE)


# a fact closed by a day, then an asking clause with no mark ("… sortie scolaire jeudi il lui faut quoi",
# "… la gita venerdì cosa deve portarsi"): asks, the fact kept; the third of each language (a
# question word closing the message: "… passeport de Léa quand") is not read
FACT_THEN_ASK: dict[str, list[tuple[str, str]]] = {
    "en": [("Noah has a school trip on Thursday what does he need to pack", "Noah has a school trip on Thursday"),
           ("Mia's got swimming on Saturday what should she bring", "Mia's got swimming on Saturday"),
           ("the boiler service is due this month when should I book it", "the boiler service is due this month")],
    "es": [("Lucía tiene excursión el jueves qué tiene que llevar en la mochila", "Lucía tiene excursión el jueves"),
           ("Pablo empieza natación el lunes qué le hace falta", "Pablo empieza natación el lunes"),
           ("hay que renovar el pasaporte de Inés cuándo", "hay que renovar el pasaporte de Inés")],
    "de": [("Paul hat am Donnerstag Wandertag was muss er einpacken", "Paul hat am Donnerstag Wandertag"),
           ("Lena fängt am Montag mit Schwimmen an was braucht sie da", "Lena fängt am Montag mit Schwimmen an"),
           ("der Pass von Ida muss erneuert werden bis wann", "der Pass von Ida muss erneuert werden")],
    "fr": [("Chloé a une sortie au musée vendredi il lui faut quoi", "Chloé a une sortie au musée vendredi"),
           ("Hugo commence la natation lundi il doit apporter quoi", "Hugo commence la natation lundi"),
           ("il faut renouveler le passeport de Léa quand", "il faut renouveler le passeport de Léa")],
    "pt": [("O Tiago tem visita de estudo na quinta o que ele tem de levar", "O Tiago tem visita de estudo na quinta"),
           ("A Rita começa a natação na segunda do que ela precisa", "A Rita começa a natação na segunda"),
           ("tenho de renovar o passaporte da Inês quando", "tenho de renovar o passaporte da Inês")],
    "it": [("Giulia ha la gita giovedì cosa deve mettere nello zaino", "Giulia ha la gita giovedì"),
           ("Marco comincia nuoto lunedì cosa gli serve", "Marco comincia nuoto lunedì"),
           ("bisogna rinnovare il passaporto di Ines quando", "bisogna rinnovare il passaporto di Ines")],
}
FACT_THEN_ASK_CONTROLS = [  # the statement goes on after the day, or a relative clause follows it: no question
    "Noah has a school trip on Thursday and he needs a packed lunch",
    "Lucía tiene excursión el jueves y tiene que llevar almuerzo",
    "Paul hat am Donnerstag Wandertag und muss Brotzeit einpacken",
    "Chloé a une sortie au musée vendredi et il lui faut un goûter",
    "O Tiago tem visita de estudo na quinta e tem de levar lanche",
    "Giulia ha la gita giovedì e deve portare il pranzo al sacco",
    "Noah has a school trip on Thursday which he's been looking forward to",
    "Lucía tiene una excursión el jueves que tiene que organizar su tutora",
    "Giulia ha la gita giovedì che deve organizzare la maestra",
    "Tiago tem uma visita na quinta o que ele adora",
]


fact_then_ask_right = keeps_clause(Intent.QUESTION, how="starts")


# a fact with no digit or name led by "since" and negated, someone who does not drive or has no licence
# ("Ya que mi suegro no maneja, …?", "Da Hildegard keinen Führerschein hat, …?"): the question keeps it
NO_LICENCE: dict[str, list[tuple[str, str]]] = {
    "en": [("Since my nan doesn't drive, how does she get to Whitby from York?", "my nan doesn't drive"),
           ("As Tom has no driving licence, what's the best way for him to reach Leeds?", "Tom has no driving licence"),
           ("Because Priya doesn't drive, which taxi firm is best in Bath?", "Priya doesn't drive")],
    "es": [("Como mi abuela no conduce, ¿qué tren la deja más cerca de Toledo?", "mi abuela no conduce"),
           ("Ya que Tomás no tiene carnet, ¿cómo llega mejor a Segovia?", "Tomás no tiene carnet"),
           ("Dado que mi tío no maneja, ¿qué bus lo lleva al aeropuerto?", "mi tío no maneja")],
    "de": [("Da meine Oma nicht Auto fährt, wie kommt sie am besten nach Lindau?", "meine Oma nicht Auto fährt"),
           ("Weil Tom keinen Führerschein hat, welcher Bus fährt zum Flughafen?", "Tom keinen Führerschein hat"),
           ("Da mein Onkel keinen Führerschein mehr hat, wie kommt er zum Arzt?", "mein Onkel keinen Führerschein mehr hat")],
    "fr": [("Comme ma grand-mère ne conduit pas, quel train la dépose près d'Annecy ?", "ma grand-mère ne conduit pas"),
           ("Vu que Tom n'a pas le permis, comment il peut aller à Lyon ?", "Tom n'a pas le permis"),
           ("Puisque mon oncle ne conduit plus, quel bus va à l'aéroport ?", "mon oncle ne conduit plus")],
    "pt": [("Como a minha avó não conduz, que comboio a deixa perto de Braga?", "a minha avó não conduz"),
           ("Já que o Tomás não tem carta, como chega ele a Coimbra?", "o Tomás não tem carta"),
           ("Visto que o meu tio não dirige, que ônibus vai ao aeroporto?", "o meu tio não dirige")],
    "it": [("Siccome mia nonna non guida, quale treno la lascia vicino a Como?", "mia nonna non guida"),
           ("Visto che Tommaso non ha la patente, come arriva a Bergamo?", "Tommaso non ha la patente"),
           ("Dato che mio zio non guida più, quale bus va all'aeroporto?", "mio zio non guida più")],
}
NO_LICENCE_CONTROLS = [  # whether someone has a licence, asked: nothing kept
    "Does Tom have a driving licence?",
    "¿Tomás tiene carnet de conducir?",
    "Hat Tom einen Führerschein?",
    "Est-ce que Tom a le permis ?",
    "O Tomás tem carta de condução?",
    "Tommaso ha la patente?",
]


no_licence_right = keeps_clause(Intent.QUESTION, how="starts")


FAMILIES = {
    "polite_keep": (POLITE_KEEP, polite_keep_right),
    "greeting_well": (GREETING_WELL, greeting_well_right),
    "closing_sleep": (CLOSING_SLEEP, closing_sleep_right),
    "kept_where": (KEPT_WHERE, kept_where_right),
    "keep_colon": (KEEP_COLON, keep_colon_right),
    "file_drop": (FILE_DROP, file_drop_right),
    "fact_then_ask": (FACT_THEN_ASK, fact_then_ask_right),
    "no_licence": (NO_LICENCE, no_licence_right),
}

#: sentences read right per language when each mechanism was committed
FLOOR: dict[str, dict[str, int]] = {
    "polite_keep": every(3),
    "greeting_well": every(3, en=2),  # "Oi oi, …": the language is not told
    "closing_sleep": every(3, en=2),  # "Hope your gears are well oiled": no table row
    "kept_where": every(3),
    "keep_colon": every(3),
    "file_drop": every(3),
    "fact_then_ask": every(2),  # the closing question word: not read
    "no_licence": every(3),
}


test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, LANGS)


test_a_remembering_told_or_a_favour_asking_something_else_keeps_nothing_as_asked = control_test(POLITE_KEEP_CONTROLS, reads_other_than(Intent.REMEMBER))


test_a_greeting_before_a_question_about_a_thing_or_someone_else_asks = control_test(GREETING_WELL_CONTROLS, reads_as(Intent.QUESTION))


test_bedtime_for_a_named_appointment_or_an_interjection_before_a_fact_keeps_it = control_test(CLOSING_SLEEP_CONTROLS, reads_other_than(Intent.SMALL_TALK, facts=True))


test_chit_chat_of_the_moment_keeps_nothing = control_test(KEPT_WHERE_CONTROLS, keeps_nothing)


test_a_thing_that_slipped_my_mind_keeps_nothing_as_asked = control_test(KEEP_COLON_CONTROLS, reads_other_than(Intent.REMEMBER))


test_delete_it_with_no_file_named_or_put_as_a_question_changes_no_file = control_test(FILE_DROP_CONTROLS, reads_other_than(Intent.FILE_CHANGE))


test_a_day_before_a_statement_that_goes_on_or_a_relative_clause_asks_nothing = control_test(FACT_THEN_ASK_CONTROLS, reads_as(Intent.STATEMENT, facts=True))


test_whether_someone_has_a_licence_asked_keeps_nothing = control_test(NO_LICENCE_CONTROLS, reads_as(Intent.QUESTION, facts=False))
