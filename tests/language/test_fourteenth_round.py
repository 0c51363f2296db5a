"""Fourteenth-round families of the lexicon reader (issue 35), written from holdout9's misses
(holdout9 is development data now) and measured on sentences written for this file before the
mechanism was (none of them is in a split; same author as the mechanism, so weaker evidence than
a blind split): a file change put as a question or with a verb of getting rid or setting up
the tables lacked ("¿Me armas un archivo x.md …?", "Tu peux virer x.docx", "Pode sumir com o
arquivo x.ods", "x.txt kann weg"); praise and help as small talk ("hesch mir mega gholfe",
"Chapeau bas"); a greeting with a question about the listener's life ("how's the world treating
you", "Bom diaaa ☀️ tudo certo?"); corrections ("Ups, … resultó ser", "Korrigiere:", "En fait,
…, pas de l'orage"); keep idioms ("Grábate bien esto:", "heads up for later,"); refusals as
closing tags, plurals or "forbidden to store" ("— surtout pas dans ta mémoire, hein",
"dimenticali subito", "Interdit de stocker ceci :"); laughter, leaving things as they are and
closing up ("me tenté", "Ya estuvo, lo dejamos así", "Chiudo baracca per stasera"); polite keep
requests with commas or a clitic before the modal ("Poderia, por gentileza, registrar que …?",
"¿Te puedes acordar de que …?").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Fourteenth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations


from openclaw_tui.language.reading import Intent
from tests.language.family_floor import LANGS, every, floor_test
from tests.language.family_checks import control_test, keeps_clause, reads_as, reads_other_than, small_talk

# a file change asked as a question, or with a verb of getting rid of a file or setting one up
FILE_ASKED: dict[str, list[str]] = {
    "en": ["Can you get rid of old-draft.txt, it's useless now",
           "Could you whip me up a file trip-lisbon.md with the hotels?",
           "menu-2023.md can go, bin the file please"],
    "es": ["¿Me armas un archivo compras.md con la lista del súper?",
           "Mándame a la papelera el archivo borrador-viejo.txt",
           "¿Me montas un documento gastos-julio.md con los recibos?"],
    "de": ["entwurf-alt.txt kann weg, schmeiß sie raus",
           "notizen-2021.md kann weg, wirf die Datei raus",
           "Kannst du mir eine Datei urlaub.md mit den Flügen anlegen?"],
    "fr": ["Tu peux virer vieux-budget.xlsx, il ne sert plus",
           "Ce serait possible de me monter un fichier courses.md avec la liste ?",
           "Vous pouvez dégager le fichier notes-2022.txt ?"],
    "pt": ["Pode sumir com o arquivo planilha-antiga.ods",
           "Consegue montar um ficheiro compras.md com a lista?",
           "Você pode dar um fim no arquivo velho.docx?"],
    "it": ["Puoi far sparire il file bozza-vecchia.txt?",
           "Mi metti su un file viaggio.md con gli orari?",
           "Riesci a tirare su un file spese.md con le ricevute?"],
}

# praise of the work or of the help, with or without thanks: small talk
PRAISE_HELP: dict[str, list[str]] = {
    "en": ["brilliant stuff, cheers", "you've been a massive help, thanks a lot", "spot on as always, ta very much"],
    "es": ["Eres un crack, mil gracias", "Me ayudaste un montón, gracias", "Impecable como siempre, gracias de nuevo"],
    "de": ["Super gemacht, danke dir", "Du hast mir echt geholfen, vielen Dank", "Spitze wie immer, merci vielmals"],
    "fr": ["Nickel, parfait comme toujours", "Tu m'as bien aidé, merci beaucoup", "Bravo, du beau travail, merci"],
    "pt": ["Você me ajudou demais, valeu", "Perfeito como sempre, obrigadão", "Mandou bem demais, brigado"],
    "it": ["Sei un tesoro, grazie mille", "Mi hai aiutato tantissimo, grazie", "Perfetto come sempre, grazie ancora"],
}

PRAISE_HELP_CONTROLS = [  # the same words about someone else or beside a fact: kept
    "My brother helped me a lot with the move to Leeds in March",
    "Spot on as always, the train to Bristol leaves at 7:40",
    "Mi vecina me ayudó un montón con la mudanza a Sevilla",
    "Meine Schwester hat mir echt geholfen, sie wohnt jetzt in Graz",
    "Mon voisin Karim m'a bien aidé pour le déménagement à Lyon",
    "A Renata me ajudou demais na mudança para Niterói",
    "Mio cugino Piero mi ha aiutato tantissimo col trasloco a Bari",
]

# a greeting, then a question about the listener's life or weekend: small talk
GREETING_ASKS: dict[str, list[str]] = {
    "en": ["morning! how's life treating you?", "hey you, how's everything treating you this week?", "evening all, had a good weekend?"],
    "es": ["¡Buenas! ¿Qué tal te trata la vida?", "Hola, ¿pasaste un buen finde?", "Buen día, ¿todo bien por casa?"],
    "de": ["Moin! Wie behandelt dich das Leben so?", "Na du, schönes Wochenende gehabt?", "Hallöchen, alles fit bei dir?"],
    "fr": ["Salut ! T'as passé un bon week-end ?", "Bon matin, tout va bien de ton côté ?", "Coucou, la vie te traite bien ?"],
    "pt": ["Bom diaaa 🌞 tudo certo por aí?", "Oi! Teve um bom fim de semana?", "Olá, a vida tem-te tratado bem?"],
    "it": ["Uè bello, tutto a posto oggi?", "Ehi, passato un bel weekend?", "Buongiorno! Come ti tratta la vita?"],
}

GREETING_ASKS_CONTROLS = [  # a greeting before a question that asks something: a question
    "morning! how's the repair on my car going, did the garage call?",
    "Hola, ¿pasaste por la farmacia a por mi receta?",
    "Moin! Wie behandelt man einen Sonnenbrand am besten?",
    "Salut ! T'as passé le dossier de Karim au notaire ?",
    "Oi! Teve notícia do encanador?",
    "Ciao bella, a che ora apre la posta oggi?",
]

# corrections: an oops and "turned out to be", "Correct:" with a colon, "that's not right,"
# before the new fact, a soft opener with the "X, not Y" frame and no name after "not"
CORRECTION_CUE: dict[str, list[str]] = {
    "en": ["Oops, the van turned out to be a 2015 model", "Correct: Leo's birthday is on 14 June, not the 4th",
           "Actually, Pip is scared of the hoover, not the doorbell"],
    "es": ["Uy, la Clio resultó ser del 2012", "Corrige: el cumple de Nico es el 21 de mayo, no el 12",
           "En realidad, Lola le tiene miedo a la aspiradora, no al timbre"],
    "de": ["Hoppla, der Golf war doch Baujahr 2014", "Korrigiere: Jonas hat am 23. Juli Geburtstag, nicht am 3.",
           "Nee, das stimmt so nicht, unser Kater frisst nur Trockenfutter"],
    "fr": ["Oups, la Clio s'est avérée être de 2016", "Corrige : l'anniversaire d'Inès c'est le 8 juin, pas le 18",
           "En fait, Moka a peur de l'aspirateur, pas de la sonnette"],
    "pt": ["Ops, o Fiat afinal era de 2013", "Corrige: o aniversário da Bia é dia 9 de abril, não dia 19",
           "Na verdade, o Bolinha tem medo do aspirador, não da campainha"],
    "it": ["Ops, la Panda alla fine era del 2011", "Correggi: il compleanno di Gaia è il 5 marzo, non il 15",
           "In realtà, Briciola ha paura dell'aspirapolvere, non del campanello"],
}

CORRECTION_CUE_CONTROLS = [  # an oops before a mishap, a frame with no opener: no correction
    "Oops, spilled my coffee again",
    "Ups, se me cayó el café encima",
    "Hoppla, fast vergessen",
    "Oups, j'ai renversé mon café",
    "Ops, deixei cair o celular",
    "Ops, mi è caduto il telefono",
    "Pip is scared of the hoover, not of people",
]

# keep requests by idiom: a verb of engraving into the head before a colon, a note "for later"
KEEP_IDIOM: dict[str, list[tuple[str, str]]] = {
    "en": [("heads up for the future, the bins go out on Tuesday nights", "the bins go out on Tuesday nights"),
           ("Commit this to memory: my locker number is 212", "my locker number is 212"),
           ("Burn this into your memory: Dad's flight lands at 6:40", "Dad's flight lands at 6:40")],
    "es": [("Métete esto en la cabeza: el seguro del coche vence el 3 de marzo", "el seguro del coche vence el 3 de marzo"),
           ("Grábatelo bien: Nacho es alérgico a la penicilina", "Nacho es alérgico a la penicilina"),
           ("Ojo para después, la revisión del gas es el día 14", "la revisión del gas es el día 14")],
    "de": [("Präg dir das ein: der Müll wird dienstags abgeholt", "der Müll wird dienstags abgeholt"),
           ("Schreib dir das hinter die Ohren: Lenas Zug kommt um 8:15 an", "Lenas Zug kommt um 8:15 an"),
           ("Kleine Info für später, der Zahnarzt ist am 9. Mai", "der Zahnarzt ist am 9. Mai")],
    "fr": [("Grave-toi ça dans la tête : le contrôle technique est le 12 avril", "le contrôle technique est le 12 avril"),
           ("Mets-toi bien ça en mémoire : Léon est allergique au kiwi", "Léon est allergique au kiwi"),
           ("Info pour plus tard, les poubelles sortent le mardi soir", "les poubelles sortent le mardi soir")],
    "pt": [("Grava isso na cabeça: o seguro do carro vence dia 3 de março", "o seguro do carro vence dia 3 de março"),
           ("Mete bem na memória: o Caio é alérgico a amendoim", "o Caio é alérgico a amendoim"),
           ("Fica a dica pra depois, a revisão do gás é dia 14", "a revisão do gás é dia 14")],
    "it": [("Mettitelo bene in testa: la revisione della caldaia è il 12 aprile", "la revisione della caldaia è il 12 aprile"),
           ("Stampatelo in mente: Nico è allergico al kiwi", "Nico è allergico al kiwi"),
           ("Promemoria per dopo, il ritiro della carta è il martedì", "il ritiro della carta è il martedì")],
}

KEEP_IDIOM_CONTROLS = [  # the same words told about someone, or not opening the message
    "My brother got this into his head that he can sing",
    "Mi hermano se metió en la cabeza que quiere ser piloto",
    "Er hat sich das hinter die Ohren geschrieben",
    "Le prof s'est mis en tête de tout refaire",
    "O Rui meteu na cabeça que vai emigrar",
    "Giulia si è messa in testa di partire per Lisbona",
]

# a refusal closing the message as a tag, on a plural, or "forbidden to store" before a colon
REFUSAL_TAG: dict[str, list[str]] = {
    "en": ["My bank PIN is 3391 — definitely not in your memory, yeah",
           "the gate code is 7741 and the alarm is 2290 dont keep either of them",
           "Forbidden to store this: the safe code is 1182"],
    "es": ["La clave del portal es 4471 — nada de esto en tu memoria, ¿eh?",
           "El PIN es 2281 y el de la alarma 9934, olvídalos ya",
           "Prohibido guardar esto: la clave del wifi es Girasol2024"],
    "de": ["Der Türcode ist 4471 — bloß nicht in dein Gedächtnis, gell?",
           "Die PIN ist 2281 und der Alarmcode 9934, vergiss beide sofort",
           "Verboten, das zu speichern: der Tresorcode ist 1182"],
    "fr": ["Le code de l'immeuble c'est 4471 — surtout pas dans tes notes, hein",
           "Le PIN c'est 2281 et l'alarme 9934, oublie-les tout de suite",
           "Interdit de garder ça : le code du coffre est 1182"],
    "pt": ["O código do portão é 4471, mas isso não fica anotado, tá bem?",
           "O PIN é 2281 e o do alarme 9934; isto não fica em parte nenhuma, ok?",
           "Proibido guardar isto: a senha do wifi é Girassol2024"],
    "it": ["Il codice del portone è 4471 — niente di questo nella tua memoria, eh",
           "Il PIN è 2281 e l'allarme 9934, scordateli subito",
           "Vietato salvare questo: il codice della cassaforte è 1182"],
}

REFUSAL_TAG_CONTROLS = [  # forbidding something else, or telling what one forgets: no refusal
    "It's forbidden to park here after 8",
    "Está prohibido fumar en el portal del edificio",
    "Parken verboten vor der Garage, steht auf dem Schild",
    "Il est interdit de stationner devant le garage",
    "É proibido estacionar na rua da escola",
    "È vietato parcheggiare davanti al cancello",
]

# small talk by laughter, by leaving things as they are, by closing up for the day
CLOSING_TALK: dict[str, list[str]] = {
    "en": ["lmao I'm crying, stop it", "let's leave it at that, cheers", "calling it a night, catch you tomorrow"],
    "es": ["jajaja me parto, qué buen meme", "Ya estuvo, así lo dejamos", "Cierro el chiringuito por hoy, hasta mañana"],
    "de": ["Haha, ich lach mich tot 😂", "Passt scho, lass ma's so", "Ich mach Feierabend für heute, bis morgen"],
    "fr": ["mdr je suis mort de rire", "Bon, on laisse comme ça", "Je ferme boutique pour ce soir, à demain"],
    "pt": ["kkkk tô morrendo de rir", "Beleza, deixa assim mesmo", "Vou fechar a loja por hoje, até amanhã"],
    "it": ["ahahah sto morendo dal ridere", "Va bene, lasciamo così", "Chiudo bottega per oggi, a domattina"],
}

CLOSING_TALK_CONTROLS = [  # the same words beside a fact: kept
    "I'm crying, the vet said Rex has to stay until 3 May",
    "Cierro el chiringuito el 15 de agosto y abro el 1 de septiembre",
    "Ich mach Feierabend um 17:30, dann hole ich Mia ab",
    "Je ferme boutique le 24 décembre à 16 h",
    "Vou fechar a loja no dia 3 de janeiro para inventário",
    "Chiudo bottega il 10 agosto e riapro il 25",
]

# a polite keep request with commas between its leads ("Poderia, por gentileza, registrar que
# …?"), or with the clitic before the modal ("¿Te puedes acordar de que …?")
POLITE_KEEP: dict[str, list[tuple[str, str]]] = {
    "en": [("Could you, please, remember that the meeting is on the 12th?", "the meeting is on the 12th"),
           ("Would you, kindly, note that my dentist is Dr. Patel?", "my dentist is Dr. Patel"),
           ("Could you, if you don't mind, keep a note that the rent is due on the 1st?", "the rent is due on the 1st")],
    "es": [("¿Podrías, por favor, apuntar que Marta llega el 4 de mayo?", "Marta llega el 4 de mayo"),
           ("¿Te puedes acordar de que el gas se paga el día 20?", "el gas se paga el día 20"),
           ("¿Usted podría, por favor, anotar que mi DNI caduca en 2027?", "mi DNI caduca en 2027")],
    "de": [("Könntest du, bitte, notieren, dass Mia am 4. Mai kommt?", "Mia am 4. Mai kommt"),
           ("Würden Sie, bitte, festhalten, dass mein Termin am 9. Juni ist?", "mein Termin am 9. Juni ist"),
           ("Kannst du, bitte, dir merken, dass Jonas keine Laktose verträgt?", "Jonas keine Laktose verträgt")],
    "fr": [("Pourrais-tu, s'il te plaît, noter que Léa arrive le 4 mai ?", "Léa arrive le 4 mai"),
           ("Tu pourrais, stp, retenir que le loyer est dû le 5 ?", "le loyer est dû le 5"),
           ("Pouvez-vous, s'il vous plaît, noter que mon vol part à 7 h ?", "mon vol part à 7 h")],
    "pt": [("Poderia, por gentileza, anotar que meu CPF termina em 42?", "meu CPF termina em 42"),
           ("Podes-te lembrar de que a Marta chega a 4 de maio?", "a Marta chega a 4 de maio"),
           ("Você poderia, por favor, registrar que o aluguel vence dia 5?", "o aluguel vence dia 5")],
    "it": [("Potresti, per favore, ricordare che Marta arriva il 4 maggio?", "Marta arriva il 4 maggio"),
           ("Ti puoi ricordare che il gas si paga il 20?", "il gas si paga il 20"),
           ("Potrebbe, per cortesia, annotare che il mio volo parte alle 7?", "il mio volo parte alle 7")],
}

POLITE_KEEP_CONTROLS = [  # the same leads before a question: they ask
    "Could you, please, tell me what I said about Mia?",
    "¿Te puedes acordar de qué te dije del fontanero?",
    "Ti puoi ricordare cosa ti ho detto di Marta?",
    "Poderia, por gentileza, me dizer o que anotei sobre a Marta?",
    "Pourrais-tu, s'il te plaît, me dire ce que j'ai noté sur Léa ?",
    "Könntest du, bitte, mir sagen, wann Mia kommt?",
]

FILE_ASKED_CONTROLS = [  # the same verbs or questions about a file that change nothing
    "Can you tell me what's in old-draft.txt?",
    "Could you get rid of the smell in the fridge?",
    "the kids can go to the park after lunch",
    "¿Me dices qué hay en compras.md?",
    "Mándame la receta de la tortilla",
    "Der Hund kann weg, wenn der Regen aufhört",
    "Tu peux virer à gauche après le pont",
    "Pode sumir daqui por uma hora, estou trabalhando",
    "Puoi far sparire la macchia dal divano?",
    "Ce serait possible de me dire ce qu'il y a dans courses.md ?",
]


file_asked_right = reads_as(Intent.FILE_CHANGE)


praise_help_right = small_talk()


greeting_asks_right = small_talk()


correction_cue_right = reads_as(Intent.CORRECTION, facts=True)


keep_idiom_right = keeps_clause(Intent.REMEMBER, how="starts")


refusal_tag_right = reads_as(Intent.DO_NOT_KEEP, facts=False)


closing_talk_right = small_talk()


polite_keep_right = keeps_clause(Intent.REMEMBER, how="starts")


FAMILIES = {
    "file_asked": (FILE_ASKED, file_asked_right),
    "praise_help": (PRAISE_HELP, praise_help_right),
    "greeting_asks": (GREETING_ASKS, greeting_asks_right),
    "correction_cue": (CORRECTION_CUE, correction_cue_right),
    "keep_idiom": (KEEP_IDIOM, keep_idiom_right),
    "refusal_tag": (REFUSAL_TAG, refusal_tag_right),
    "closing_talk": (CLOSING_TALK, closing_talk_right),
    "polite_keep": (POLITE_KEEP, polite_keep_right),
}

#: sentences read right per language when each mechanism was committed
FLOOR: dict[str, dict[str, int]] = {
    "file_asked": every(3),
    "praise_help": every(3),
    "greeting_asks": every(3),
    "correction_cue": every(3),
    "keep_idiom": every(3),
    "refusal_tag": every(3),
    "closing_talk": every(3),
    "polite_keep": every(3, es=2),  # "¿Usted podría, por favor, …": not read
}


test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, LANGS)


test_a_file_verb_without_a_file_name_or_a_question_about_a_file_changes_nothing = control_test(FILE_ASKED_CONTROLS, reads_other_than(Intent.FILE_CHANGE))


test_help_or_praise_beside_a_fact_keeps_it = control_test(PRAISE_HELP_CONTROLS, reads_other_than(Intent.SMALL_TALK, facts=True))


test_a_greeting_before_a_question_about_a_thing_asks = control_test(GREETING_ASKS_CONTROLS, reads_as(Intent.QUESTION))


test_an_oops_before_a_mishap_corrects_nothing = control_test(CORRECTION_CUE_CONTROLS, reads_other_than(Intent.CORRECTION))


test_an_idiom_told_about_someone_keeps_nothing_as_asked = control_test(KEEP_IDIOM_CONTROLS, reads_other_than(Intent.REMEMBER))


test_forbidding_something_else_withholds_nothing = control_test(REFUSAL_TAG_CONTROLS, reads_other_than(Intent.DO_NOT_KEEP))


test_a_closing_phrase_beside_a_date_keeps_it = control_test(CLOSING_TALK_CONTROLS, reads_other_than(Intent.SMALL_TALK, facts=True))


test_stacked_polite_leads_before_a_question_ask = control_test(POLITE_KEEP_CONTROLS, reads_as(Intent.QUESTION))
