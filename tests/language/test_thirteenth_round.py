"""Thirteenth-round families of the lexicon reader (issue 35), written from holdout8's misses
(holdout8 is development data now) and measured on sentences written for this file before the
mechanism was (none of them is in a split; same author as the mechanism, so weaker evidence than
a blind split): a keep request put as a polite question with "that" ("Would you keep a note
that …?", "¿Usted podría conservar en memoria que …?", "Le spiacerebbe prendere nota che …?");
a refusal in a closing clause ("… — not for storing", "Pas question que ça finisse dans tes
notes", "… mas disto nem uma linha nas notas"); a greeting with a question about the listener
("heya! surviving Tuesday?", "Fala, sumida!"); a remark on the weather or a crowd, which is no
fact ("Boah, heut ist die U-Bahn wieder brechend voll"); an imperative that asks to look up
("ressors mes infos sur …", "puxa das notas …"); a file change naming the file with a verb the
tables lacked ("tack … onto reminders.md"); a fact joined to an asking clause with no comma ("mi
hija es alérgica al maní qué le mando …"); keep idioms ("Segnati una cosa:", "oublie jamais :");
closing remarks and praise as small talk ("te debo una birra", "trop chou, un énorme merci");
where a thing hangs and how often ("hängt am Haken", "zweimal am Tag"); corrections by
confession ("Da hab ich Blödsinn erzählt,", "… pas pharmacien, j'ai confondu …").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Thirteenth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations


from openclaw_tui.language.reading import Intent
from tests.language.family_floor import LANGS, every, floor_test
from tests.language.family_checks import (control_test, drops, keeps, keeps_clause, keeps_something, lead,
                                          reads_as, reads_other_than, small_talk, tail, withholds)

# (a polite question asking to keep, the fact it keeps)
POLITE_THAT: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("Would you keep a note that Maya's birthday is on 3 May?", "Maya's birthday is on 3 May"),
        ("Would you mind making a note that the plumber comes on Friday at 8?", "the plumber comes on Friday at 8"),
        ("Could you keep a record that the boiler was serviced in March?", "the boiler was serviced in March"),
        ("Any chance you could make a note that Tom's flight lands at 9?", "Tom's flight lands at 9"),
        ("Would you be so kind as to take note that my sister is vegan?", "my sister is vegan"),
    ],
    "es": [
        ("¿Usted podría guardar en memoria que mi hermana vive en Cádiz?", "mi hermana vive en Cádiz"),
        ("¿Me anotas que el dentista es el martes 12?", "el dentista es el martes 12"),
        ("¿Le importaría tomar nota de que mi vuelo sale a las 7?", "mi vuelo sale a las 7"),
        ("¿Podrías dejar anotado que la reunión es el día 3?", "la reunión es el día 3"),
        ("¿Me apuntas que mi sobrino calza un 38?", "mi sobrino calza un 38"),
    ],
    "de": [
        ("Würdest du dir notieren, dass meine Tochter am 4. Mai Geburtstag hat?", "meine Tochter am 4. Mai Geburtstag hat"),
        ("Könnten Sie festhalten, dass mein Termin am Dienstag um 9 ist?", "mein Termin am Dienstag um 9 ist"),
        ("Würden Sie sich bitte vormerken, dass Jonas am 12. März kommt?", "Jonas am 12. März kommt"),
        ("Magst du dir aufschreiben, dass der Elektriker am Freitag kommt?", "der Elektriker am Freitag kommt"),
        ("Kannst du im Gedächtnis behalten, dass mein Zug um 7:12 fährt?", "mein Zug um 7:12 fährt"),
    ],
    "fr": [
        ("Tu pourrais garder en mémoire que ma sœur habite à Nantes ?", "ma sœur habite à Nantes"),
        ("Vous voudriez bien prendre note que mon rendez-vous est le 5 ?", "mon rendez-vous est le 5"),
        ("Ça vous ennuierait de retenir que Paul est allergique aux noix ?", "Paul est allergique aux noix"),
        ("Tu me notes que le plombier passe vendredi à 8 h ?", "le plombier passe vendredi à 8 h"),
        ("Pourrais-tu garder en tête que le loyer est de 850 euros ?", "le loyer est de 850 euros"),
    ],
    "pt": [
        ("A senhora poderia deixar anotado que a reunião é dia 9?", "a reunião é dia 9"),
        ("Você podia guardar na memória que minha irmã mora em Braga?", "minha irmã mora em Braga"),
        ("Você me anota que o dentista é na terça às 10?", "o dentista é na terça às 10"),
        ("Será que você consegue deixar registrado que o Lucas é alérgico a camarão?", "o Lucas é alérgico a camarão"),
        ("Podia tomar nota de que o meu voo sai às 6h?", "o meu voo sai às 6h"),
    ],
    "it": [
        ("Le dispiacerebbe annotare che il mio medico è il dottor Ferri?", "il mio medico è il dottor Ferri"),
        ("Potresti tenere a mente che mia figlia è celiaca?", "mia figlia è celiaca"),
        ("Ti spiacerebbe prendere nota che la riunione è il 15?", "la riunione è il 15"),
        ("Mi segni che il tecnico viene giovedì alle 9?", "il tecnico viene giovedì alle 9"),
        ("Riusciresti a tenerti in mente che il volo parte alle 6?", "il volo parte alle 6"),
    ],
}

POLITE_THAT_CONTROLS = [  # polite questions that ask, recall or request something else
    "Would you know what time the pharmacy closes?",
    "Could you keep a note of what I told you about the plumber?",
    "¿Usted podría decirme qué le dije del fontanero?",
    "¿Me anotas qué te dije ayer?",
    "Könnten Sie mir sagen, wann der Elektriker kommt?",
    "Tu pourrais me dire ce que j'ai noté sur le plombier ?",
    "A senhora poderia me dizer que horas são?",
    "Le dispiacerebbe chiudere la finestra?",
]

# (a remark, then a closing clause refusing to keep it; the remark must not be kept)
CLOSING_REFUSAL: dict[str, list[tuple[str, str]]] = {
    "en": [
        ("Jen is handing in her notice in May — not for storing", "Jen is handing in her notice"),
        ("My salary went up to 3,200 a month, but that's not for saving", "My salary went up"),
        ("Sara and Ben are splitting up. No way that ends up in your notes", "Sara and Ben are splitting up"),
        ("The surprise party is at Dan's on the 14th, not one word of it in your notes", "The surprise party is at Dan's"),
        ("My blood pressure was 150 over 95 — nothing to be saved", "My blood pressure was 150"),
    ],
    "es": [
        ("Mi jefe se jubila en marzo, pero de esto ni una línea en tus notas", "Mi jefe se jubila en marzo"),
        ("Lucía está embarazada de 3 meses — no es para guardar", "Lucía está embarazada"),
        ("Me subieron el sueldo a 2.400 €. Ni de broma eso acaba en tus notas", "Me subieron el sueldo"),
        ("El viernes tengo entrevista en otra empresa, ni se te ocurra apuntarlo", "El viernes tengo entrevista"),
        ("Debo 1.300 € a mi cuñado, y de eso ni una palabra en la memoria", "Debo 1.300 € a mi cuñado"),
    ],
    "de": [
        ("Mein Gehalt liegt jetzt bei 3.100 Euro, das wird aber nirgends gespeichert", "Mein Gehalt liegt jetzt"),
        ("Lena ist im dritten Monat schwanger — nicht zum Speichern", "Lena ist im dritten Monat"),
        ("Ich habe am Freitag ein Vorstellungsgespräch bei Siemens, kein Wort davon in deine Notizen", "Vorstellungsgespräch bei Siemens"),
        ("Der Chef geht im März in Rente. Auf keinen Fall landet das in deinen Notizen", "Der Chef geht im März"),
        ("Mein Bruder schuldet mir 800 Euro, und das bitte sofort wieder vergessen", "Mein Bruder schuldet mir"),
    ],
    "fr": [
        ("Mon salaire passe à 2 400 €, pas question que ça aille dans tes notes", "Mon salaire passe"),
        ("Julie attend un bébé pour mars — pas à garder", "Julie attend un bébé"),
        ("J'ai un entretien chez Airbus vendredi, pas une ligne là-dessus dans tes notes", "J'ai un entretien chez Airbus"),
        ("Le patron part en retraite en juin. Ça, tu le laisses hors de ta mémoire", "Le patron part en retraite"),
        ("Je dois 900 € à mon beau-frère, hors de question que ça finisse dans tes fiches", "Je dois 900 €"),
    ],
    "pt": [
        ("O meu chefe reforma-se em março, mas disso nem uma palavra nas notas", "O meu chefe reforma-se"),
        ("A Carla está grávida de 3 meses — não é para guardar", "A Carla está grávida"),
        ("Tenho entrevista na Natura na sexta. Nem pensar que isso vai parar nas tuas notas", "Tenho entrevista na Natura"),
        ("Devo 900 reais ao meu cunhado, mas esquece isso depois", "Devo 900 reais"),
        ("Meu salário subiu para 4.200, e disto nem uma linha na memória", "Meu salário subiu"),
    ],
    "it": [
        ("Il mio capo va in pensione a marzo, ma di questo neanche una riga negli appunti", "Il mio capo va in pensione"),
        ("Giulia è incinta di 3 mesi — non da salvare", "Giulia è incinta"),
        ("Venerdì ho un colloquio alla Ferrero. Non sia mai che finisca nei tuoi appunti", "Venerdì ho un colloquio"),
        ("Devo 900 euro a mio cognato, ma tu non lo memorizzi", "Devo 900 euro"),
        ("Il mio stipendio è salito a 2.300, niente di tutto ciò va annotato", "Il mio stipendio è salito"),
    ],
}

CLOSING_REFUSAL_CONTROLS = [  # a note noun or "no way" in a statement or a question refuses nothing
    "No way the train leaves at 6, it's at 7:15",
    "Not one word of the contract mentions the deposit of 900 euros",
    "Ni de broma pago 300 € por ese sofá",
    "Auf keinen Fall fahre ich am 14. nach Köln",
    "Pas question que je paie 900 € pour ça",
    "Nem pensar que eu pago 300 euros por isso",
    "Non sia mai che il treno parta in orario, ieri è partito alle 9",
    "Esto no es para ti, es para mi hermana Ana",
]

# a greeting with a question about the listener's day or mood: small talk, no question
GREETING_QUESTION: dict[str, list[str]] = {
    "en": ["hiya! surviving Monday?", "hey you, still alive?", "morning! coping ok?", "yo, keeping busy?"],
    "es": ["¡Hola! ¿Sobreviviendo al lunes?", "Buenas, ¿qué es de tu vida?", "¡Qué onda, perdido!", "Ey, ¿todo tranqui?"],
    "de": ["Servus! Alles fit?", "Hey du, überlebst du den Montag?", "Na, alles im Lot?", "Moin! Gut geschlafen?"],
    "fr": ["Coucou ! Quoi de beau depuis hier ?", "Salut toi, tu survis au lundi ?", "Hello ! Ça roule de ton côté ?", "Yo ! Quoi de neuf cette semaine ?"],
    "pt": ["Fala, sumido!", "Oi, sumida! Tudo em cima?", "E aí, sobrevivendo à segunda?", "Olá! Cá estamos de novo, não é?"],
    "it": ["Ehilà! Tutto a posto in ufficio?", "Ciao bello! Come butta?", "Weilà! Sopravvissuto al lunedì?", "Ehi, tutto liscio a casa?"],
}

GREETING_QUESTION_CONTROLS = [  # a greeting before a real question still asks
    "hiya! what time does the pharmacy close on Monday?",
    "¡Hola! ¿A qué hora abre la farmacia el lunes?",
    "Servus! Wann kommt der Elektriker am Montag?",
    "Coucou ! Tu sais à quelle heure ferme la pharmacie ?",
    "Oi! Que horas fecha a farmácia na segunda?",
    "Ciao! A che ora chiude la farmacia lunedì?",
    "Hola, ¿todo bien con la reserva del hotel para el 12?",
    "Servus! Alles klar mit dem Termin am Montag?",
    "Ciao! Tutto a posto con il mutuo da 900 euro?",
    "hey you, did you book the table for Friday?",
    "Salut ! Ça roule pour le dîner de samedi ?",
    "Oi! Tudo certo com a reserva de sexta?",
]

# a remark on the weather, the heat, the cold or a crowd: a statement, never a fact
WEATHER_CROWD: dict[str, list[str]] = {
    "en": ["ugh, the tube is absolutely rammed again today", "Brr, minus eight this morning and the car won't defrost",
           "phew, it's boiling in the office, the aircon died", "the 7:40 bus was packed like a tin of sardines"],
    "es": ["uf, el metro de la línea 5 va hasta arriba hoy", "qué frío, menos seis esta mañana y el coche congelado",
           "la oficina es un horno, se rompió el aire acondicionado", "el bus de las 8 iba como lata de sardinas"],
    "de": ["Boah, die S-Bahn ist heute wieder rappelvoll", "Brr, minus acht heute früh, die Scheiben sind zugefroren",
           "Im Büro ist es brütend heiß, die Klimaanlage ist kaputt", "Mann, der Bus um 7:40 war wieder gestopft voll"],
    "fr": ["Pff, le RER B est encore bondé ce matin", "Brrr, moins huit ce matin, le pare-brise est gelé",
           "On crève de chaud au bureau, la clim a lâché", "Le bus de 7 h 40 était plein à craquer"],
    "pt": ["gente, o metrô da linha 4 tá lotado hoje", "que frio, menos dois de manhã e o carro congelado",
           "o escritório tá um forno, o ar-condicionado pifou", "o ônibus das 7h40 veio entupido de gente"],
    "it": ["Uff, la metro B stamattina è strapiena", "Brr, meno otto stamattina e il parabrezza è ghiacciato",
           "In ufficio si boccheggia, il condizionatore è rotto", "Il bus delle 7:40 era pieno come un uovo"],
}

WEATHER_CROWD_CONTROLS = [  # a habit or a fact beside the same words is kept
    "I take the 7:40 bus to Leeds every weekday",
    "Mi oficina está en la calle Alcalá 42",
    "Die Klimaanlage im Büro hat 1.200 Euro gekostet",
    "Je prends le RER B tous les matins à 7 h 10",
    "O ar-condicionado do escritório foi instalado em 2021",
    "Il mio ufficio è in via Roma 12",
    "We packed the car for the trip to Leeds on the 12th",
    "The 7:12 to Leeds is always packed, I take the 6:40 instead",
    "I keep frozen peas in the garage freezer",
    "La mia Panda ha il parabrezza nuovo dal 2022",
]

# an imperative that asks to look something up in the notes: a question, nothing kept
LOOKUP: dict[str, list[str]] = {
    "en": ["dig out my notes on the Hendricks roofing quote", "pull my stuff on the dentist from your notes",
           "fish out what you have on Dr. Amadi", "remind me of the MOT deadline for the Fiat"],
    "es": ["sácame lo que tengas del presupuesto del fontanero", "búscame en las notas el teléfono del pediatra",
           "recuérdame el plazo del IBI de este año", "a ver si recuerdas cuánto mide mi hija Vera"],
    "de": ["Such mir aus den Notizen das Angebot vom Dachdecker raus", "Kram mal meine Infos zum Zahnarzt raus",
           "Sag mir nochmal die Frist für die Steuererklärung", "Hol mir aus den Notizen die Nummer vom Kinderarzt"],
    "fr": ["ressors-moi le devis du plombier Lefèvre", "retrouve mes infos sur le pédiatre de Léo",
           "rappelle-moi la date limite pour la taxe foncière", "sors-moi de tes notes le numéro du syndic"],
    "pt": ["puxa das notas o telefone do pediatra", "me lembra o prazo do IRS deste ano",
           "busca aí nas notas o orçamento do eletricista", "me avisa a data da vistoria do carro"],
    "it": ["tirami fuori il preventivo dell'idraulico Bassi", "recuperami dagli appunti il numero del pediatra",
           "ricordami la scadenza del bollo della Panda", "ti ricordi mica il numero di scarpe di Marco"],
}

LOOKUP_CONTROLS = [  # the same verbs telling a fact or asking to keep
    "I dug out the old roofing quote from 2019 last week",
    "Recuerda que el plazo del IBI acaba el 30 de junio",
    "Ich habe die Nummer vom Kinderarzt in der Schublade",
    "Rappelle-toi que le syndic s'appelle Foncia",
    "Lembra que o prazo do IRS acaba em junho",
    "Ricordati che il bollo scade a marzo",
    "A ver, mi hermana vive en Sevilla desde 2019",
    "I pulled the old quote out of the drawer on Monday",
    "J'ai sorti de mes notes le numéro du syndic hier",
]

# a file change naming the file, with a verb the tables lacked
FILE_VERB: dict[str, list[str]] = {
    "en": ["tack 'call the bank' onto todo.md", "In groceries.md bump the eggs from 6 to 12",
           "stick 'book the MOT' at the bottom of reminders.md", "knock the gym line out of habits.md"],
    "es": ["añádele 'llamar al banco' a pendientes.md", "En gastos.md sube el alquiler de 700 a 750",
           "quítale la línea del gimnasio a hábitos.md", "mete 'pedir cita' al final de recordatorios.md"],
    "de": ["mach aus notizen-alt.md den Namen notizen-2025.md", "In budget.md die Miete von 900 auf 950 hochsetzen",
           "pack 'Bank anrufen' unten in todo.md", "wirf die Zeile mit dem Fitnessstudio aus gewohnheiten.md"],
    "fr": ["colle 'appeler la banque' à la fin de todo.md", "Dans budget.md passe le loyer de 700 à 750",
           "vire la ligne de la salle de sport de habitudes.md", "balance 'prendre rdv' dans rappels.md"],
    "pt": ["elimina o ficheiro notas-velhas.md da pasta arquivo", "Consegue gerar um arquivo receitas.md com a receita de bolo?",
           "No orcamento.md passa o aluguel de 1500 para 1600", "enfia 'ligar pro banco' no fim de pendentes.md"],
    "it": ["Apri spese.md e porta l'affitto da 700 a 750", "In spesa.md alza le uova da 6 a 12",
           "schiaffa 'chiamare la banca' in fondo a todo.md", "leva la riga della palestra da abitudini.md"],
}

FILE_VERB_CONTROLS = [  # naming a file in a question or a statement changes nothing
    "what did I put in todo.md last week?",
    "¿Qué hay en gastos.md?",
    "Was steht in budget.md?",
    "J'ai rangé budget.md dans le dossier perso",
    "O que eu escrevi em pendentes.md?",
    "Cosa c'è in spese.md?",
    "Ho passato a Marco il file spese.md ieri",
    "Sara bumped into me while I was reading todo.md",
    "Ich habe urlaub-alt.md schon gestern umbenannt",
]

# (a fact, then an asking clause with no comma and no mark; the fact is kept, the clause not)
JOINED_FACT: dict[str, list[tuple[str, str]]] = {
    "en": [("my son can't have gluten what do I bake for his birthday", "my son can't have gluten"),
           ("my sister is vegan what do I cook for her on Sunday", "my sister is vegan")],
    "es": [("mi hijo es celíaco qué le preparo para el cumpleaños", "mi hijo es celíaco"),
           ("mi suegra no come carne qué le cocino el domingo", "mi suegra no come carne"),
           ("mi hermana es vegana qué le llevo a la cena del sábado", "mi hermana es vegana")],
    "de": [("mein Sohn verträgt keine Milch was koche ich ihm am Sonntag", "mein Sohn verträgt keine Milch"),
           ("meine Schwester isst kein Fleisch was bring ich ihr zum Geburtstag mit", "meine Schwester isst kein Fleisch")],
    "fr": [("Léo ne supporte pas le gluten qu'est-ce que je lui prépare pour son goûter", "Léo ne supporte pas le gluten"),
           ("ma belle-mère est végétarienne qu'est-ce qu'on cuisine dimanche", "ma belle-mère est végétarienne"),
           ("mon frère est allergique aux noix qu'est-ce que je lui apporte samedi", "mon frère est allergique aux noix")],
    "pt": [("a Clara não come carne o que eu cozinho pra ela no domingo", "a Clara não come carne"),
           ("meu filho é celíaco o que eu levo pra festa da escola", "meu filho é celíaco"),
           ("minha sogra é vegana o que a gente prepara pro almoço de domingo", "minha sogra é vegana")],
    "it": [("mia figlia è celiaca che torta le preparo per il compleanno", "mia figlia è celiaca"),
           ("mio suocero non mangia carne cosa gli cucino domenica", "mio suocero non mangia carne"),
           ("Luca è allergico alle noci che dolce gli porto alla festa", "Luca è allergico alle noci")],
}

JOINED_FACT_CONTROLS = [  # a relative clause or a known question word after "know" states
    "Je sais ce que je lui prépare pour dimanche",
    "mi madre siempre dice que le preparo la mejor paella",
    "Ich weiß genau, was ich ihm am Sonntag koche",
    "La torta che le preparo ogni anno è al cioccolato",
    "Ela adora o que eu cozinho aos domingos",
    "No sé qué le pasa al coche desde el lunes",
]

# (a keep request by an idiom: keep one thing, never forget, don't let me forget, for future
# reference with a comma; the fact it keeps)
REMEMBER_IDIOM: dict[str, list[tuple[str, str]]] = {
    "en": [("Note one thing: Priya's flat is number 14B", "Priya's flat is number 14B"),
           ("Never forget: our plumber is Dave Kerr from Leith", "our plumber is Dave Kerr from Leith"),
           ("For future reference, the boiler code is in the blue folder under the stairs", "the boiler code is in the blue folder")],
    "es": [("Apunta una cosa: mi cuñado se llama Iker y vive en Bilbao", "mi cuñado se llama Iker"),
           ("Nunca olvides: nuestra fontanera es Marta Gil, de Getafe", "nuestra fontanera es Marta Gil"),
           ("Ten bien presente que los martes cierro la tienda a las 14", "los martes cierro la tienda a las 14")],
    "de": [("Merk dir eins: Jonas hat am 3. Juli Geburtstag", "Jonas hat am 3. Juli Geburtstag"),
           ("Vergiss nie: unser Dachdecker ist Herr Brandl aus Passau", "unser Dachdecker ist Herr Brandl"),
           ("Lass mich nicht den Termin beim TÜV am 14. März vergessen", "den Termin beim TÜV am 14. März")],
    "fr": [("Note une chose : Inès habite au 12 rue des Lilas", "Inès habite au 12 rue des Lilas"),
           ("N'oublie jamais : notre plombier, c'est M. Girard de Melun", "notre plombier, c'est M. Girard"),
           ("Ne me laisse pas oublier le vaccin du chat en février", "le vaccin du chat en février")],
    "pt": [("Anota uma coisa: o meu cunhado chama-se Rui e mora em Braga", "o meu cunhado chama-se Rui"),
           ("Nunca te esqueças: a nossa canalizadora é a Dona Alice, de Gaia", "a nossa canalizadora é a Dona Alice"),
           ("Não me deixes esquecer a revisão do carro em março", "a revisão do carro em março")],
    "it": [("Segna una cosa: Marta compie gli anni il 4 maggio", "Marta compie gli anni il 4 maggio"),
           ("Non dimenticare mai: il nostro idraulico è il signor Rossi di Monza", "il nostro idraulico è il signor Rossi"),
           ("Non farmi dimenticare il tagliando della Panda a marzo", "il tagliando della Panda a marzo")],
}

REMEMBER_IDIOM_CONTROLS = [  # the same words telling, asking or about something else
    "I'll never forget: that trip to Rome was the best",
    "Note one thing you said yesterday?",
    "Nunca olvides tu paraguas",
    "Non farmi ridere",
    "Don't let me forget?",
    "For future reference, what's the wifi password?",
]

# a closing remark clause by clause (agreement, praise of the listener, a debt, "you saved me",
# tiredness) with thanks or a goodbye: small talk, nothing kept
CLOSING: dict[str, list[str]] = {
    "en": ["you saved my life, I owe you a pint", "so sweet of you, thanks a million", "deal then, talk tomorrow"],
    "es": ["Me salvaste la vida, te debo un café", "Qué lindo de tu parte, mil gracias", "Trato hecho, hablamos mañana"],
    "de": ["Du hast mich gerettet, ich schulde dir ein Bier", "Voll lieb von dir, danke dir", "Abgemacht, bis morgen dann"],
    "fr": ["Tu m'as sauvé la vie, je te dois un verre", "C'est trop gentil, merci mille fois", "Marché conclu, à demain"],
    "pt": ["Você me salvou, te devo uma cerveja", "Que fofo da tua parte, obrigadão", "Combinado, até amanhã"],
    "it": ["Mi hai salvato la vita, ti devo un caffè", "Troppo carino da parte tua, grazie mille", "Affare fatto, ci sentiamo domani"],
}

CLOSING_CONTROLS = [  # the same words naming something
    "Passt, der Termin ist am 12.",
    "I owe you 50 quid for the tickets",
    "Te debo una explicación sobre lo del martes",
    "Deal with the landlord by Friday",
    "J'adore le théâtre, surtout Molière",
    "Adoro il sushi, soprattutto quello di Luca",
]

# a fact by where a thing hangs, how often something is given, or a first-person diet: kept whole
PLACE_HABIT: dict[str, list[str]] = {
    "en": ["The shed key hangs on a nail behind the back door", "Our cat Miso gets half a pill twice a day", "I can't stand nuts, especially walnuts"],
    "es": ["La llave del garaje cuelga de un clavo detrás de la puerta", "Nuestra perra Lola toma media pastilla dos veces al día", "Yo no tolero las nueces, sobre todo las pecanas"],
    "de": ["Der Garagenschlüssel hängt am Nagel hinter der Tür", "Unsere Katze Mimi kriegt zweimal am Tag eine halbe Tablette", "Ich vertrag keine Milch, vor allem keinen Käse"],
    "fr": ["La clé du garage est accrochée à un clou derrière la porte", "Notre chat Filou prend un demi-comprimé deux fois par jour", "Je supporte pas les noix, surtout les noix de pécan"],
    "pt": ["A chave da garagem fica pendurada num prego atrás da porta", "A nossa gata Mia toma meio comprimido duas vezes por dia", "Eu não tolero nozes, sobretudo as pecãs"],
    "it": ["La chiave del garage è appesa a un chiodo dietro la porta", "Il nostro gatto Fufi prende mezza pastiglia due volte al giorno", "Non sopporto le noci, soprattutto quelle pecan"],
}

PLACE_HABIT_CONTROLS = [  # the same words asked: a question, nothing kept
    "Wo hängt der Kellerschlüssel?",
    "¿Dónde cuelga la llave del garaje?",
    "Où est accrochée la clé du garage ?",
    "Onde fica pendurada a chave da garagem?",
    "Wie oft am Tag soll die Katze die Tablette kriegen?",
]

# (a correction by a confession: "I talked rubbish there,", a mix-up closing "X, not Y"; the new fact)
CORRECTION_IDIOM: dict[str, list[tuple[str, str]]] = {
    "en": [("Oops, Hannah is a nurse, not a midwife, I mixed her up with her sister", "Hannah is a nurse, not a midwife"), ("I talked rubbish there, the rent is 1,150 a month", "the rent is 1,150 a month")],
    "es": [("Ay no, Lucía es enfermera, no médica, la confundí con su prima", "Lucía es enfermera, no médica"), ("Ahí dije una tontería, el alquiler es de 850 €", "el alquiler es de 850 €")],
    "de": [("Da hab ich Mist erzählt, die Miete beträgt 980 Euro", "die Miete beträgt 980 Euro"), ("Ach nein, Jonas ist Pfleger, nicht Arzt, ich hab ihn mit seinem Bruder verwechselt", "Jonas ist Pfleger, nicht Arzt")],
    "fr": [("Ah non, Léa est sage-femme, pas infirmière, j'ai confondu avec sa sœur", "Léa est sage-femme, pas infirmière"), ("Là j'ai dit une bêtise, le loyer est de 780 €", "le loyer est de 780 €")],
    "pt": [("Ah não, a Rita é enfermeira, não médica, confundi com a prima dela", "a Rita é enfermeira, não médica"), ("Aí falei besteira, a renda é de 720 euros", "a renda é de 720 euros")],
    "it": [("Ah no, Giulia fa l'infermiera, non la dottoressa, l'ho confusa con la cugina", "Giulia fa l'infermiera, non la dottoressa"), ("Lì ho detto una fesseria, l'affitto è di 690 euro", "l'affitto è di 690 euro")],
}

CORRECTION_IDIOM_CONTROLS = [  # a mix-up told, a "no" answering, "X, not Y" alone: no correction
    "No, I never mixed them up, Hannah is a nurse",
    "My sister is a nurse, not a doctor",
    "No, tengo coche desde 2019",
    "Non, j'habite à Lyon depuis 2019",
    "I always get the twins mixed up, Tom is the taller one",
    "Ich verwechsle immer die Zwillinge, nicht schlimm",
]

# praise after an interjection or thanks after an intensifier, an emoji closing it: small talk
PRAISE: dict[str, list[str]] = {
    "en": ["wow, so sweet of you 😍", "massive thanks, love it"],
    "es": ["Guau, qué lindo de tu parte 😍", "Enormes gracias, me encanta"],
    "de": ["Wow, voll lieb von dir 😍", "Riesiges Dankeschön, ich liebe es"],
    "fr": ["Waouh, trop chou 😍", "Un énorme merci, j'adore"],
    "pt": ["Uau, que fofo 😍", "Um enorme obrigado, adorei"],
    "it": ["Wow, troppo carino 😍", "Un enorme grazie, adoro"],
}

PRAISE_CONTROLS = [  # the same openers before a fact
    "Wow, my rent went up to 1,200 this month",
    "Huge thanks to Maria, she fixed the boiler on Monday",
    "Riesiges Haus, 200 Quadratmeter, Garten",
    "Guau, mi hermana se casa en mayo 😍",
    "Un énorme merci à Paul pour le déménagement du 12",
]


polite_that_right = keeps_clause(Intent.REMEMBER, asks=False)


closing_refusal_right = withholds(Intent.DO_NOT_KEEP)


greeting_question_right = small_talk(asks=False)


weather_crowd_right = reads_as(Intent.STATEMENT, facts=False)


lookup_right = reads_as(Intent.QUESTION, asks=True, facts=False)


joined_fact_right = keeps_clause(Intent.QUESTION, asks=True) & drops(tail(3))


remember_idiom_right = keeps_clause(Intent.REMEMBER)


closing_right = small_talk(facts=False)


place_habit_right = reads_as(Intent.STATEMENT) & keeps(lead(","))


correction_idiom_right = keeps_clause(Intent.CORRECTION)


file_verb_right = reads_as(Intent.FILE_CHANGE)


FAMILIES = {
    "polite_that": (POLITE_THAT, polite_that_right),
    "closing_refusal": (CLOSING_REFUSAL, closing_refusal_right),
    "greeting_question": (GREETING_QUESTION, greeting_question_right),
    "weather_crowd": (WEATHER_CROWD, weather_crowd_right),
    "lookup": (LOOKUP, lookup_right),
    "file_verb": (FILE_VERB, file_verb_right),
    "joined_fact": (JOINED_FACT, joined_fact_right),
    "remember_idiom": (REMEMBER_IDIOM, remember_idiom_right),
    "closing": (CLOSING, closing_right),
    "place_habit": (PLACE_HABIT, place_habit_right),
    "correction_idiom": (CORRECTION_IDIOM, correction_idiom_right),
    "praise": (PRAISE, closing_right),
}

#: sentences read right per language when each mechanism was committed
FLOOR: dict[str, dict[str, int]] = {
    "polite_that": every(5),
    "closing_refusal": every(5),
    "greeting_question": every(4),
    "weather_crowd": every(4),
    "lookup": every(4),
    "praise": every(2),
    "correction_idiom": every(2),
    "place_habit": every(3),
    "closing": every(3, de=2),  # "Abgemacht, bis morgen dann": not read
    "remember_idiom": every(3, de=2),  # German verb last: not read
    "joined_fact": every(3, en=2, de=2),
    "file_verb": every(4, it=3),  # "In spesa.md alza …": no table's words
}


test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, LANGS)


test_a_polite_question_without_that_asks = control_test(POLITE_THAT_CONTROLS, reads_as(Intent.QUESTION))


test_no_way_in_a_statement_refuses_nothing = control_test(CLOSING_REFUSAL_CONTROLS, reads_other_than(Intent.DO_NOT_KEEP))


test_a_greeting_before_a_real_question_asks = control_test(GREETING_QUESTION_CONTROLS, reads_as(Intent.QUESTION))


test_a_habit_beside_weather_words_is_kept = control_test(WEATHER_CROWD_CONTROLS, keeps_something)


test_a_lookup_verb_in_a_statement_or_keep_request_asks_nothing = control_test(LOOKUP_CONTROLS, reads_other_than(Intent.QUESTION))


test_a_file_named_in_a_question_or_statement_changes_nothing = control_test(FILE_VERB_CONTROLS, reads_other_than(Intent.FILE_CHANGE))


test_a_relative_clause_after_a_statement_asks_nothing = control_test(JOINED_FACT_CONTROLS, reads_other_than(Intent.QUESTION))


test_a_keep_idiom_telling_or_asking_keeps_nothing = control_test(REMEMBER_IDIOM_CONTROLS, reads_other_than(Intent.REMEMBER))


test_a_closing_word_beside_a_fact_is_no_small_talk = control_test(CLOSING_CONTROLS, reads_other_than(Intent.SMALL_TALK))


test_where_a_thing_hangs_asked_keeps_nothing = control_test(PLACE_HABIT_CONTROLS, reads_as(Intent.QUESTION, facts=False))


test_a_mix_up_told_or_a_no_answering_corrects_nothing = control_test(CORRECTION_IDIOM_CONTROLS, reads_other_than(Intent.CORRECTION))


test_an_interjection_or_thanks_before_a_fact_keeps_it = control_test(PRAISE_CONTROLS, reads_other_than(Intent.SMALL_TALK, facts=True))
