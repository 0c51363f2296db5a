"""Twenty-second-round families of the lexicon reader (issue 35), written from holdout19's and
holdout20's misses (development data now) and measured on sentences written for this file
before the mechanism was (none of them is in a split; same author as the mechanism, so weaker
evidence than a blind split): a recall question put to the listener with a noun or a
which-word after "remember" ("do you remember the name of …", "Ti ricordi che vino …"); a
lasting state in the lead of a question ("Given that my knee clicks on stairs, …?"); a
statement and a yes/no question joined with no mark ("… since yesterday should I …"); a
private lead-in, a file change led by the file's place, a correction led by an apology and "I
said it wrong".

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Twenty-second round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations

from tests.language.family_checks import (control_test, drops, intent_table_test, keeps, keeps_clause, reads_as,
                                          reads_other_than, small_talk)
from tests.language.family_floor import LANGS, all_read, floor_test
from openclaw_tui.language.reading import Intent



# 1. a recall question put to the listener: "remember" with a which-word or a noun after it
# asks to look up, keeps nothing
RECALL: dict[str, list[str]] = {
    "en": ["do you remember the address of that Thai place we went to in May",
           "you remember the size of the tyres the garage put on",
           "d'you remember which hotel we stayed at in Porto"],
    "es": ["te acordás que vino tomamos en lo de Juan", "recuerdas la talla de zapatos de mi sobrino",
           "¿Te acuerdas qué presión me dijo el mecánico?"],
    "de": ["weißt du noch den Namen von dem Weingut in der Pfalz",
           "erinnerst du dich noch an die Größe von den Reifen",
           "weißt du noch, welchen Reifendruck der Mechaniker gesagt hat"],
    "fr": ["tu te rappelles le nom du vin qu'on a bu chez Paul", "tu te souviens quel temps j'avais fait au semi",
           "tu te souviens de la marque de cette huile que ma sœur a apportée"],
    "pt": ["lembra que remédio o médico receitou pro meu pai", "te lembras do tempo que fiz na meia maratona",
           "você lembra o nome daquele vinho que a gente tomou em maio"],
    "it": ["ti ricordi che vino abbiamo bevuto da Paolo", "Si ricorda che dose mi aveva prescritto il dottore",
           "te ricordi come se ciamava quel ristorante de Chioggia"],
}
recall_right = reads_as(Intent.QUESTION, asks=True, facts=False)

RECALL_CONTROLS = {  # "remember that" with a clause after it: kept
    "Can you remember that I prefer tea?": Intent.REMEMBER,
    "Remember my locker code is 4471": Intent.REMEMBER,
    "Ricordati che il meccanico chiude alle 6": Intent.REMEMBER,
    "Ti ricordi che ho il dentista domani? Segnalo.": Intent.REMEMBER,
    "Ti ricordi che Marco arriva sabato? Segnatelo.": Intent.REMEMBER,
    "Recuerda que el taller cierra a las 6": Intent.REMEMBER,
    "Merk dir, dass die Werkstatt um 6 zumacht": Intent.REMEMBER,
    "Retiens que le garage ferme à 18 h": Intent.REMEMBER,
    "Lembra que a oficina fecha às 18h": Intent.REMEMBER,
}
test_a_remember_request_with_a_clause_keeps = intent_table_test(RECALL_CONTROLS)


# 2. a lasting state in the lead of a question, no date: kept, the question answered
LASTING_LEAD: dict[str, list[tuple[str, str]]] = {
    "en": [("Since my knee clicks every time I climb stairs, should I see a physio?", "my knee clicks every time I climb stairs"),
           ("Given that the dog hates the car, how do we get him to the vet?", "the dog hates the car"),
           ("With my mother-in-law staying with us over Christmas, what meatless dish can I make?", "my mother-in-law staying with us over Christmas"),
           ("As the neighbours' dog barks all night, can I complain to the council?", "the neighbours' dog barks all night")],
    "es": [("Ya que mi rodilla cruje cada vez que subo escaleras, ¿debería ir al fisio?", "mi rodilla cruje cada vez que subo escaleras"),
           ("Dado que el perro odia el coche, ¿cómo lo llevamos al veterinario?", "el perro odia el coche"),
           ("Con mi suegra en casa por Navidad, ¿qué plato sin carne le preparo?", "mi suegra en casa por Navidad"),
           ("Como el vecino aparca siempre en mi plaza, ¿puedo llamar a la grúa?", "el vecino aparca siempre en mi plaza")],
    "de": [("Da mein Knie bei jeder Treppe knackt, sollte ich zum Physio?", "mein Knie bei jeder Treppe knackt"),
           ("Weil der Hund das Auto hasst, wie bringen wir ihn zum Tierarzt?", "der Hund das Auto hasst"),
           ("Mit meiner Schwiegermutter über Weihnachten bei uns, was koche ich ohne Fleisch?", "meiner Schwiegermutter über Weihnachten bei uns"),
           ("Wo doch der Nachbar immer auf meinem Platz parkt, darf ich den Abschleppdienst rufen?", "der Nachbar immer auf meinem Platz parkt")],
    "fr": [("Vu que mon genou craque dans les escaliers, je devrais voir un kiné ?", "mon genou craque dans les escaliers"),
           ("Étant donné que le chien déteste la voiture, comment on l'emmène chez le véto ?", "le chien déteste la voiture"),
           ("Avec ma belle-mère à la maison pour Noël, quel plat sans viande je lui fais ?", "ma belle-mère à la maison pour Noël"),
           ("Comme le voisin se gare toujours sur ma place, je peux appeler la fourrière ?", "le voisin se gare toujours sur ma place")],
    "pt": [("Já que o meu joelho estala sempre que subo escadas, devo ir ao fisioterapeuta?", "o meu joelho estala sempre que subo escadas"),
           ("Com o meu sogro a passar o verão cá em casa, onde é que ele dorme?", "o meu sogro a passar o verão cá em casa"),
           ("Com a minha sogra cá em casa no Natal, que prato sem carne lhe faço?", "a minha sogra cá em casa no Natal"),
           ("Visto que o vizinho estaciona sempre no meu lugar, posso chamar o reboque?", "o vizinho estaciona sempre no meu lugar")],
    "it": [("Visto che il ginocchio mi scricchiola sulle scale, dovrei sentire un fisioterapista?", "il ginocchio mi scricchiola sulle scale"),
           ("Dato che il cane odia la macchina, come lo portiamo dal veterinario?", "il cane odia la macchina"),
           ("Con mia suocera a casa per Natale, che piatto senza carne le preparo?", "mia suocera a casa per Natale"),
           ("Siccome il vicino parcheggia sempre al mio posto, posso chiamare il carro attrezzi?", "il vicino parcheggia sempre al mio posto")],
}
lasting_lead_right = keeps_clause(Intent.QUESTION, asks=True)

LASTING_LEAD_CONTROLS = [  # a lead of the moment (the weather, a mood now): nothing kept
    "Given that it's raining right now, should I take the bus?",
    "Ya que hoy estoy de mal humor, ¿salgo o me quedo?",
    "Da es gerade regnet, soll ich den Bus nehmen?",
    "Vu qu'il pleut en ce moment, je prends le bus ?",
    "Já que está a chover agora, apanho o autocarro?",
    "Visto che oggi sono di cattivo umore, esco lo stesso?",
]
test_a_lead_of_the_moment_is_not_kept = control_test(LASTING_LEAD_CONTROLS, reads_as(Intent.QUESTION, facts=False))


# 3. a statement and a yes/no question joined with no mark: a question, the statement kept
JOINED_YES_NO: dict[str, list[tuple[str, str, str]]] = {
    "en": [("the boiler has leaked since 3 May should I call the landlord", "the boiler has leaked since 3 May", "should I call"),
           ("my flight lands at 23:40 do you think the last train is gone by then", "my flight lands at 23:40", "do you think"),
           ("the rent goes up 80 euros in March is it worth looking for another flat", "the rent goes up 80 euros in March", "is it worth")],
    "es": [("La caldera gotea desde el 3 de mayo crees que debería llamar al casero", "La caldera gotea desde el 3 de mayo", "crees que"),
           ("Mi vuelo aterriza a las 23:40 te parece que llego al último tren", "Mi vuelo aterriza a las 23:40", "te parece que"),
           ("El alquiler sube 80 euros en marzo vale la pena buscar otro piso", "El alquiler sube 80 euros en marzo", "vale la pena")],
    "de": [("Die Heizung tropft seit dem 3. Mai soll ich den Vermieter anrufen", "Die Heizung tropft seit dem 3. Mai", "soll ich"),
           ("Mein Flug landet um 23:40 meinst du ich krieg noch die letzte Bahn", "Mein Flug landet um 23:40", "meinst du"),
           ("Die Miete steigt im März um 80 Euro lohnt es sich eine neue Wohnung zu suchen", "Die Miete steigt im März um 80 Euro", "lohnt es sich")],
    "fr": [("La chaudière fuit depuis le 3 mai tu crois que je dois appeler le proprio", "La chaudière fuit depuis le 3 mai", "tu crois que"),
           ("Mon vol atterrit à 23 h 40 est-ce que j'ai encore le dernier train", "Mon vol atterrit à 23 h 40", "est-ce que"),
           ("Le loyer augmente de 80 euros en mars ça vaut le coup de chercher un autre appart", "Le loyer augmente de 80 euros en mars", "vaut le coup")],
    "pt": [("O esquentador pinga desde 3 de maio achas que devo ligar ao senhorio", "O esquentador pinga desde 3 de maio", "achas que"),
           ("O meu voo aterra às 23h40 dá para apanhar o último comboio", "O meu voo aterra às 23h40", "dá para"),
           ("O aluguel sobe 80 reais em março vale a pena procurar outro apartamento", "O aluguel sobe 80 reais em março", "vale a pena")],
    "it": [("La caldaia perde dal 3 maggio è il caso di chiamare il padrone di casa", "La caldaia perde dal 3 maggio", "è il caso"),
           ("Il mio volo atterra alle 23:40 secondo te prendo l'ultimo treno", "Il mio volo atterra alle 23:40", "secondo te"),
           ("L'affitto sale di 80 euro a marzo vale la pena cercare un'altra casa", "L'affitto sale di 80 euro a marzo", "vale la pena")],
}
joined_yes_no_right = reads_as(Intent.QUESTION, asks=True) & keeps(1) & drops(2)

JOINED_YES_NO_CONTROLS = [  # the same words inside a statement: no question
    "Ich weiß nicht, ob ich den Vermieter anrufen soll",
    "El fontanero dice que debería cambiar la caldera el 3 de mayo",
    "The plumber said I should call the landlord before 3 May",
    "Le plombier pense que je dois changer la chaudière avant le 3 mai",
    "O canalizador acha que o esquentador aguenta até maio",
    "L'idraulico dice che è il caso di cambiare la caldaia entro il 3 maggio",
    # a place or a time fronted, no clause before the modal: a statement
    "Na biblioteca do bairro dá para levar 6 livros por 3 semanas",
    "Nella biblioteca di Pisa posso prendere 4 dischi per due settimane",
    "Morgen früh um 8 muss ich zur Arbeit",
    # the same words inside a relative clause: a statement
    "The garage that you think is best shuts on Mondays",
    "El mecánico que crees que es bueno cierra los lunes",
    "Die Werkstatt, von der du meinst, sie sei gut, hat montags zu",
    "Le garagiste que tu crois que je dois appeler ferme le lundi",
    "A oficina que achas que é boa fecha às segundas",
    "Il meccanico che secondo te è bravo chiude il lunedì",
]
test_the_asking_words_inside_a_statement_ask_nothing = control_test(
    JOINED_YES_NO_CONTROLS, reads_as(Intent.STATEMENT, asks=False))


# 4a. "what a …" before a remark, no question mark: an exclamation, no question
EXCLAIMED: dict[str, list[str]] = {
    "en": ["what a cloudburst downtown, the ring road is flooded",
           "what a queue at the post office, the whole street is waiting"],
    "es": ["qué diluvio en el centro, la avenida está inundada",
           "qué cola en la oficina de correos, media calle esperando"],
    "de": ["was für ein Wolkenbruch in der Stadt, die Ringstraße steht unter Wasser",
           "was für eine Schlange auf der Post, die halbe Straße wartet"],
    "fr": ["quelle saucée en ville, le périph est inondé",
           "quelle queue à la poste, toute la rue attend"],
    "pt": ["que toró no centro, a avenida tá alagada",
           "que fila nos correios, a rua inteira à espera"],
    "it": ["che diluvio in centro, la tangenziale è allagata",
           "che fila alla posta, mezza via in attesa"],
}
exclaimed_right = reads_as(Intent.STATEMENT, asks=False)
EXCLAIMED_CONTROLS = {  # a which-word with a question mark, or before a verb: asked
    "que horas são em Lisboa?": Intent.QUESTION,
    "che ore sono a Tokyo?": Intent.QUESTION,
    "quel train à Lyon, le direct ou l'omnibus ?": Intent.QUESTION,
}
test_a_which_word_that_asks_stays_a_question = intent_table_test(EXCLAIMED_CONTROLS)


# 4b. a private lead-in: the statement after it kept, private
PRIVATE: dict[str, list[tuple[str, str]]] = {
    "en": [("Between you and me, I'm looking for another job because my pay is late", "I'm looking for another job"),
           ("Stays between us: my sister is expecting twins", "my sister is expecting twins")],
    "es": [("Entre tú y yo, estoy buscando otro trabajo porque me pagan tarde", "estoy buscando otro trabajo"),
           ("Queda entre nosotros: mi hermana espera gemelos", "mi hermana espera gemelos")],
    "de": [("Unter uns gesagt, ich suche einen neuen Job, weil das Gehalt dauernd zu spät kommt", "ich suche einen neuen Job"),
           ("Bleibt unter uns: meine Schwester ist mit Zwillingen schwanger", "meine Schwester ist mit Zwillingen schwanger")],
    "fr": [("Entre nous, je cherche un autre boulot parce que le salaire arrive en retard", "je cherche un autre boulot"),
           ("Reste entre nous : ma sœur attend des jumeaux", "ma sœur attend des jumeaux")],
    "pt": [("Cá entre nós, estou procurando outro emprego porque o salário anda atrasado", "estou procurando outro emprego"),
           ("Fica entre nós: a minha irmã está à espera de gémeos", "a minha irmã está à espera de gémeos")],
    "it": [("Detto tra noi, sto cercando un altro lavoro perché lo stipendio arriva in ritardo", "sto cercando un altro lavoro"),
           ("Resta tra noi: mia sorella aspetta due gemelli", "mia sorella aspetta due gemelli")],
}
private_right = reads_as(Intent.STATEMENT, private=True) & keeps(1, how="starts")
PRIVATE_CONTROLS = [  # a private lead-in before a remark of the moment: nothing kept
    "Entre nous, je suis crevé parce que j'ai mal dormi",
    "Cá entre nós, estou cansado porque dormi mal",
]
test_a_private_remark_of_the_moment_keeps_nothing = control_test(PRIVATE_CONTROLS, reads_as(Intent.STATEMENT, facts=False))


# 4c. a file change led by the file's place: "In the file x.md, add a line …"
FILE_PLACE: dict[str, list[str]] = {
    "en": ["In the file recipes/soups.md, tack a line on at the end with the minestrone",
           "In the folder recipes, create a file cakes.md"],
    "es": ["En el fichero recetas/sopas.md, júntale al final una línea con el gazpacho",
           "En la carpeta recetas, crea un archivo tartas.md"],
    "de": ["In der Datei rezepte/suppen.md, häng unten eine Zeile mit der Gulaschsuppe dran",
           "Im Ordner rezepte, leg eine Datei kuchen.md an"],
    "fr": ["Dans le fichier recettes/soupes.md, joins à la fin une ligne avec le pistou",
           "Dans le dossier recettes, crée un fichier gateaux.md"],
    "pt": ["No ficheiro receitas/sopas.md, junta no fim uma linha com a sopa da pedra",
           "Na pasta receitas, cria um ficheiro bolos.md"],
    "it": ["Nel file ricette/zuppe.md, accoda una riga con la ribollita",
           "Nella cartella ricette, crea un file torte.md"],
}
file_place_right = reads_as(Intent.FILE_CHANGE)
FILE_PLACE_CONTROLS = [  # the file named in a statement, or a joining verb with no file: no file change
    "No ficheiro notas/vinhos.md há uma linha com o Douro 2015",
    "In the file notes/wines.md there is a line about the Douro 2015",
    "Junta uma colher de açúcar ao molho",
    "Accoda la spesa alla lista di domani",
    "In the folder recipes, there are 12 files",
    "Nella cartella ricette, ci sono 12 file",
]
test_a_file_named_in_a_statement_is_no_file_change = control_test(
    FILE_PLACE_CONTROLS, reads_other_than(Intent.FILE_CHANGE))


# 4d. a correction led by an apology and "I said it wrong": the lead-in not kept
SAID_WRONG: dict[str, list[tuple[str, str, str]]] = {
    "en": [("Sorry, I said it wrong, Fritzi weighs 5.2 kilos not 4.8", "Fritzi weighs 5.2 kilos", "said it wrong"),
           ("Sorry, I said that wrong: the vet is on Mill Lane, not Mill Road", "the vet is on Mill Lane", "said that wrong")],
    "es": [("Perdona, lo dije mal, Fritzi pesa 5,2 kilos y no 4,8", "Fritzi pesa 5,2 kilos", "dije mal"),
           ("Perdona, me expresé mal: el veterinario está en la calle Molino 4, no en la 6", "el veterinario está en la calle Molino 4", "me expresé mal")],
    "de": [("Sorry, falsch gesagt, der Kater wiegt 5,2 Kilo und nicht 4,8", "der Kater wiegt 5,2 Kilo", "falsch gesagt"),
           ("Sorry, hab mich versprochen: der Tierarzt ist in der Mühlgasse 4, nicht 6", "der Tierarzt ist in der Mühlgasse 4", "versprochen")],
    "fr": [("Pardon, je me suis mal exprimé, Fritzi pèse 5,2 kilos et pas 4,8", "Fritzi pèse 5,2 kilos", "mal exprimé"),
           ("Pardon, j'ai mal dit : le véto est au 4 rue du Moulin, pas au 6", "le véto est au 4 rue du Moulin", "mal dit")],
    "pt": [("Desculpa, falei mal, a Fritzi pesa 5,2 quilos e não 4,8", "a Fritzi pesa 5,2 quilos", "falei mal"),
           ("Desculpa, disse mal: o veterinário é na Rua do Moinho 4, não no 6", "o veterinário é na Rua do Moinho 4", "disse mal")],
    "it": [("Scusa, ho detto male, Fritzi pesa 5,2 chili e non 4,8", "Fritzi pesa 5,2 chili", "detto male"),
           ("Scusa, mi sono spiegato male: il veterinario è in via del Mulino 4, non al 6", "il veterinario è in via del Mulino 4", "spiegato male")],
}
said_wrong_right = reads_as(Intent.CORRECTION) & keeps(1) & drops(2)
SAID_WRONG_CONTROLS = {  # someone else said it wrong: a statement
    "Der Arzt hat den Namen falsch gesagt, das Medikament heißt Ibuflam": Intent.STATEMENT,
    "The vet said it wrong on the phone, the clinic is on Elm Street": Intent.STATEMENT,
}
test_someone_else_saying_it_wrong_corrects_nothing = intent_table_test(SAID_WRONG_CONTROLS)


FAMILIES = {
    "recall": (RECALL, recall_right),
    "lasting_lead": (LASTING_LEAD, lasting_lead_right),
    "joined_yes_no": (JOINED_YES_NO, joined_yes_no_right),
    "exclaimed": (EXCLAIMED, exclaimed_right),
    "private": (PRIVATE, private_right),
    "file_place": (FILE_PLACE, file_place_right),
    "said_wrong": (SAID_WRONG, said_wrong_right),
}
FLOOR = {
    "recall": all_read(RECALL),
    "lasting_lead": all_read(LASTING_LEAD),
    "joined_yes_no": all_read(JOINED_YES_NO),
    "exclaimed": all_read(EXCLAIMED),
    "private": all_read(PRIVATE),
    "file_place": all_read(FILE_PLACE),
    "said_wrong": all_read(SAID_WRONG),
}

test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, list(LANGS))
