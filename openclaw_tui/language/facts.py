"""Which words of a message are facts worth keeping, in the user's words (pure functions).

Nothing here writes a word the user did not type: a fact is a sentence, or a clause of one,
with a cue ("remember that", "recuerda que", "merk dir, dass") or a privacy mark cut off,
its first letter capitalised and a polite request's question mark made a full stop.

    remember_cue_end(fold("¿Puedes recordar que prefiero té?"), lexicon("es"))  # 21
"""

from __future__ import annotations

import re
from bisect import bisect_left

from openclaw_tui.language.date_table import date_table
from openclaw_tui.language.lexicon import Lexicon, fold, lower, tokens
from openclaw_tui.language.stopwords import LANGUAGES as STOPWORD_LANGUAGES
from openclaw_tui.language.stopwords import stopwords

#: a sentence shorter than this states nothing worth a note ("Ok.", "Sure thing.")
MIN_CHARS = 12
#: shorter than this, a clause after a cue is no fact
MIN_CUE_FACT = 4
#: a token that names something whatever the language: a digit, money, an address, a host or
#: code ("vpn-east.acme.io", "FIN-2231-B"), a code in capitals ("LH", "Q3", "iPhone")
SPECIFIC_RE = re.compile(
    r"\d|[$€£¥₹]|@|https?://|\b[^\W\d_]+[-_.][^\W_]+[-_.\w]*\b|\b[A-Z]{2,}\b|\b[A-Za-z]*[a-z][A-Z]\w*\b"
)
_SPACES = re.compile(r"\s*")
#: where a clause ends inside a sentence: a comma, semicolon or colon, a dash between spaces,
#: an opening "¿" ("…, ¿crees que …?")
_CLAUSE_BREAK = re.compile(r"\s*(?:[,;:](?=\s)|\s[-–—]\s|(?=¿))\s*")
#: a possessive opens the sentence within this many words ("Und meine …"), and its verb
#: follows the noun within this many
POSSESSIVE_AT = 1
VERB_WITHIN = 3
#: a statement before a question has at least this many words ("Tom, …" states nothing)
HEAD_WORDS = 3
_TRIM = " \t\n,;:-–—"
_WORD_AT = re.compile(r"[^\W_]+")
#: a statement ending on a time or number, no mark after it ("… lands at 6", "… à 6 h", "… um 18
#: Uhr", "… 2 100 $"): a unit or a currency sign may follow the number, or one word it counts
#: ("… 600 Euro lohnt sich da …", "… tem 9 anos dá para …", "… pesa 22 chili quale …")
_AFTER_NUMBER = re.compile(r"\d(?:[:.h]\d+)?\s*(?:[^\W\d_]{1,14}\.?|[$€£])?\s+$")
_COLON = (":", "-", "—", "–")  # what may open the fact after a remember verb ("file this away — …")
_COLON_OR_DASH = (":", "—", "–")  # the same inside a frame, where "-" may join words
#: a pronoun joined to the verb by a hyphen ("lembra-me", "recuerda-me")
_JOINED = re.compile(r"-[^\W\d_]")
#: polite leads that may follow each other before a remember verb ("could you" "make sure to")
STACKED_LEADS = 2
#: at most this many words name where to keep a fact before its "that" ("somewhere in your notes")
PLACE_WORDS = 6
#: a yes-or-no tail ("o no", "or not") spans at least this many words
TAIL_WORDS = 2
#: a polite frame before a remember verb has at most this many words ("would you mind terribly")
FRAME_WORDS = 7
#: a fact told before or after a question is at least this long when it states a preference
#: or state ("Sono celiaco, …", "Ya que soy celíaca, …")
MIN_STATE_CHARS = 8


_COMMA_GAP = re.compile(r"[\s,]*")


def _past_commas(folded: str, pos: int) -> int:
    """``pos`` past the spaces and commas between stacked polite leads."""
    m = _COMMA_GAP.match(folded, pos)
    return m.end() if m else pos


def _skip(folded: str, pos: int) -> int:
    m = _SPACES.match(folded, pos)
    return m.end() if m else pos


def remember_cue_end(folded: str, lex: Lexicon, typed: str = "") -> int | None:
    """Where the "remember that" lead-in of a sentence ends, or None when it has none. Without
    "that" or a colon after the verb, a sentence put as a question recalls ("Remember what I
    said?", "remember the name of my accountant?", "Can you remember what …"), and so does a
    verb with a pronoun joined to it ("Lembra-me em que dia …": remind me); "please remember
    I'm …" keeps. ``typed``: the sentence as typed, where an accent tells a question word from
    "that" ("¿Puedes recordar qué te dije?")."""
    if lex.remember is None or asks_to_recall(folded, lex, typed):
        return None
    lead = lex.courtesy_lead.match(folded) if lex.courtesy_lead is not None else None
    if lead is not None and lead.end() > 0:
        # "Si fuera tan amable, tome nota de que …", "Le sarei grato se volesse prendere nota che …":
        # the keep request after a courtesy lead; without a keep verb after it the lead asks nothing
        at = _past_commas(folded, lead.end())
        inner = remember_cue_end(folded[at:], lex, typed[at:] if typed else "")
        if inner is not None:
            return at + inner
    pos = 0
    polite = lex.polite.match(folded) if lex.polite else None
    if polite:
        pos = _past_commas(folded, polite.end())
        for _ in range(STACKED_LEADS):  # "could you make sure to remember …", "por favor, ¿puedes …"
            more = lex.polite.match(folded[pos:]) if lex.polite else None  # anchored: on the rest
            if more is None or more.end() == 0:
                break
            pos = _past_commas(folded, pos + more.end())  # "Poderia, por gentileza, registrar que …"
    start = re.match(r"[\s¿¡\"'(«„“,-]*", folded[pos:])
    pos += start.end() if start else 0
    verb = lex.remember.match(folded, pos)
    if verb is None:
        return _framed_cue_end(folded, lex, pos, typed) if not polite else None
    if _JOINED.match(folded, verb.end()) or _opens_a_question(typed or folded, lex, verb.start(), verb.end()):
        return None
    pos = _after_please(folded, lex, _skip(folded, verb.end()))
    pos = _past_place(folded, lex, pos)
    that = lex.that.match(folded, pos) if lex.that else None
    if that and _opens_a_question(typed or folded, lex, that.start(), that.end()):
        return None  # "Puoi ricordare che cosa ti ho detto …": "che cosa" asks, it is no "that"
    if that and not (typed and fold(typed[that.start():that.end()]) == folded[that.start():that.end()]
                     and typed[that.start():that.end()].lower() != folded[that.start():that.end()]):
        return _skip(folded, that.end() + (1 if folded[that.end():that.end() + 1] in ":," else 0))
    if that:
        return None  # "qué", "quê": a question word, not "that"
    if folded[pos:pos + 1] in _COLON:
        return _skip(folded, pos + 1)
    if folded.rstrip(" \"')”»").endswith(("?", "？")) and states_a_clause(folded, pos, lex) is None:
        # "Tu peux noter ça ?", "Podes anotar isto?": the verb's object is "this", nothing after
        # it; what to keep comes in the next sentence
        if _owned_value(folded[pos:], lex):
            return pos  # "Le dispiacerebbe prendere nota del mio codice cliente, cioè 3301987?"
        return len(folded) if _this_last(folded[verb.start():verb.end()], folded[pos:], lex) else None
    clause = states_a_clause(folded, pos, lex)
    if clause is not None:
        return clause  # "can u remember my shoe size is 44", "kannst du dir notieren, meine Schuhgröße ist 43"
    if polite and lex.question_start and lex.question_start.match(lower(typed or folded).lstrip(" ¿¡")):
        return None  # "Peux-tu te souvenir de l'adresse …": asks; "Please remember I'm …" keeps
    word = _WORD_AT.match(folded, pos)
    if word is None or word.group(0) in lex.question_words:
        return None
    after = _WORD_AT.search(folded, word.end())  # "… te rappeler à quelle heure …": a preposition first
    if word.group(0) in lex.function_words and after and after.group(0) in lex.question_words:
        return None
    return pos


def asks_to_recall(folded: str, lex: Lexicon, typed: str = "") -> bool:
    """Whether the sentence asks the listener whether they remember something, to look it up:
    a form of ``recall_asked`` ("do you remember", "ti ricordi", "weißt du noch") before a
    question word ("te ricordi come se chiamava …"), a which-word and a noun ("Ti ricordi che
    vino abbiamo bevuto …": :func:`_which_noun`), or a noun with no clause stated after it ("do
    you remember the name of that beer I liked"); "Do you remember that I prefer tea?" and "do
    you remember my code is 4471" state, and are kept."""
    m = lex.recall_asked.match(folded) if lex.recall_asked is not None else None
    if m is None:
        return False
    at = _past_commas(folded, m.end())
    word = _WORD_AT.match(folded, at)
    if word is None or folded[at:at + 1] in _COLON:
        return False
    if word.group(0) in lex.question_words and not (lex.that and lex.that.match(folded, at)):
        return True
    that = lex.that.match(folded, at) if lex.that else None
    if that is not None:
        return _which_noun(folded, _skip(folded, that.end()), lex, typed)
    return states_a_clause(folded, at, lex) is None


def _which_noun(folded: str, pos: int, lex: Lexicon, typed: str = "") -> bool:
    """Whether "that" before ``pos`` is a which-word before its noun ("che vino abbiamo …",
    "que remédio o médico …"): the word at ``pos`` is one the table does not know, in lower case
    as typed, no number or date word, and the word after it none of ``clause_openers`` (an
    article or a subject: "che viene la nonna", "che pago io" open clauses) nor a name."""
    words = list(_WORD_AT.finditer(folded, pos))[:2]
    if len(words) < 2 or words[0].start() != pos:
        return False
    noun, after = words[0].group(0), words[1].group(0)
    shown = typed[words[0].start():words[0].end()] if len(typed) == len(folded) else noun
    shown_after = typed[words[1].start():words[1].end()] if len(typed) == len(folded) else after
    if noun in lex.vocabulary or not shown[:1].islower() or (lex.date_words and lex.date_words.match(folded, pos)):
        return False
    return after not in lex.clause_openers and shown_after[:1].islower() and not after.isdigit()


def _past_place(folded: str, lex: Lexicon, pos: int) -> int:
    """Past the words naming where to keep a fact, when "that" or a colon follows them: "note
    somewhere in that brain of yours that …", "guardar en algún sitio que …", "irgendwo
    speichern, dass …". Each word is a ``keep_places`` word of the table; "note the name of the
    place that …" stops at "name"."""
    if not lex.keep_places or lex.that is None:
        return pos
    at = pos
    for _ in range(PLACE_WORDS):
        word = _WORD_AT.match(folded, at)
        if word is None or word.group(0) not in lex.keep_places:
            return pos
        at = _skip(folded, word.end())
        if folded[at:at + 1] == ",":
            at = _skip(folded, at + 1)
        if folded[at:at + 1] in _COLON_OR_DASH:
            return at
        that = lex.that.match(folded, at)
        if that is not None:  # "ricordare in che reparto …", "lembrar o que …": a question word
            last = word.group(0) in lex.function_words
            return pos if last or _opens_a_question(folded, lex, word.start(), that.end()) else at
    return pos


def _owned_value(rest: str, lex: Lexicon) -> bool:
    """Whether a remember verb's object, put as a question, is a thing of mine with its value:
    it opens on a possessive of the table (after one article or preposition at most) and holds a
    digit after a comma or colon, the value after its name ("Could you make a note of my customer
    number, 3301987?", "… prendere nota del mio codice cliente, cioè 3301987?"); "Can you note my
    number?", "Can you remember my 3 passwords?" name no value and ask."""
    words = tokens(rest)[:2]
    if not words or not re.search(r"[,:][^?]*\d", rest):
        return False
    return words[0] in lex.possessives or (len(words) > 1 and words[0] in lex.function_words and words[1] in lex.possessives)


def _this_last(verb: str, rest: str, lex: Lexicon) -> bool:
    """Whether a remember verb's match holds "this"/"that" as its object ("noter ça", "anotar
    isto", "note this down", "dir das merken") and only a question mark follows it."""
    words = tokens(verb)
    if lex.that is None or rest.strip(" ?？.!\"')”»"):
        return False
    return any((m := lex.that.match(w)) is not None and m.end() == len(w) for w in words[1:])


def _opens_a_question(text: str, lex: Lexicon, start: int, end: int) -> bool:
    """Whether a question opener of the table starts at ``start`` and reaches past ``end``:
    the remember verb or "that" there is part of a longer opener that asks ("Lembra daquela
    padaria …", "Ti ricordi quel ristorante …", "che cosa")."""
    if lex.question_start is None:
        return False
    m = lex.question_start.match(lower(text)[start:])
    return m is not None and start + m.end() > end and bool(_WORD_AT.search(lower(text)[end:start + m.end()]))


def _after_please(folded: str, lex: Lexicon, pos: int) -> int:
    """Past a comma and a polite word after a remember verb ("Grava aí, por favor: …",
    "Merk dir, bitte, dass …", "Note, please, that …")."""
    if folded[pos:pos + 1] == ",":
        pos = _skip(folded, pos + 1)
    please = lex.polite.match(folded[pos:]) if lex.polite else None  # anchored: on the rest
    if please and please.end() > 0:
        after = _skip(folded, pos + please.end())
        if folded[after:after + 1] == ",":
            after = _skip(folded, after + 1)
        if folded[after:after + 1] in _COLON or (lex.that and lex.that.match(folded, after)):
            return after
    return pos


def _framed_cue_end(folded: str, lex: Lexicon, pos: int, typed: str = "") -> int | None:
    """A remember verb inside a polite frame, with "that" or a colon after it: "Do me a favour
    and jot down that …", "Ça te dérangerait de noter que …", "Quisiera que guardes esto: …",
    "Vorrei che ti ricordassi questo: …". The frame must address the listener or voice a wish
    (``frame_words``) within the first words, and ask nothing (no question word before, none
    opening at "that")."""
    if not lex.frame_words or lex.remember is None:
        return None
    verb = lex.remember.search(folded, pos)
    if verb is None:
        return None
    head = tokens(folded[pos:verb.start()])
    if not head or len(head) > FRAME_WORDS or not lex.frame_words.intersection(head):
        return None
    if lex.question_words.intersection(head) or (lex.do_not_keep and lex.do_not_keep.search(folded[:verb.end()])):
        return None
    after = _skip(folded, verb.end())
    that = lex.that.match(folded, after) if lex.that else None
    if that and _opens_a_question(typed or folded, lex, that.start(), that.end()):
        return None  # "Você lembra que dia é …?": "que dia" asks
    if that:
        return _skip(folded, that.end() + (1 if folded[that.end():that.end() + 1] in ":," else 0))
    if folded[after:after + 1] in _COLON_OR_DASH:
        return _skip(folded, after + 1)
    return states_a_clause(folded, after, lex)  # "do me a favour and remember my flight is on the 14th"


def states_a_clause(folded: str, pos: int, lex: Lexicon) -> int | None:
    """Where a clause stating something starts at ``pos`` (after a comma too), when a keep verb
    takes it with no "that" and no colon: a possessive or a first-person subject, then a verb of
    being or having within :data:`VERB_WITHIN` words, or a word the table does not know (a name)
    with such a verb right after it and more after that ("… remember my shoe size is 44", "…
    notieren, meine Schuhgröße ist 43", "… keep in mind I'm vegetarian"); "remember my locker
    number?" names a thing and asks, and is none."""
    at = _skip(folded, pos + 1) if folded[pos:pos + 1] == "," else pos
    words = tokens(folded[at:at + 120])
    if len(words) >= 3 and words[0] not in lex.vocabulary and words[1] in lex.state_verbs:
        return at  # "Would you please remember Oskar takes his coffee black?": a name, then its verb
    if len(words) < 2 or (words[0] not in lex.possessives and words[0] not in lex.subject_pronouns):
        return None
    return at if any(w in lex.state_verbs for w in words[1:2 + VERB_WITHIN]) else None


def tidy(fact: str) -> str:
    """A clause as a note: trimmed, first letter capitalised, a question mark made a stop."""
    fact = fact.strip(_TRIM)
    fact = fact.rstrip("?？").rstrip() + "." if fact.rstrip().endswith(("?", "？")) else fact
    fact = fact.lstrip("¿¡ ")
    if not fact:
        return fact
    first = fact[0].upper()
    return (first if len(first) == 1 else fact[0]) + fact[1:]  # "ß" stays "ß", not "SS"


def cut(text: str, start: int, end: int) -> str:
    """``text`` without ``text[start:end]`` and the punctuation left dangling by it."""
    before, after = text[:start].rstrip(_TRIM + "("), text[end:].lstrip(_TRIM + ")")
    if not before:
        return after
    if not after or after[0] in ".!?":
        return before + after
    return before + " " + after


def is_specific(sentence: str, folded: str, lex: Lexicon) -> bool:
    """Whether ``sentence`` names something worth keeping: a specific token, a preference or
    decision, a date word, or (where only names are capitalised) a capitalised word after the
    first."""
    if SPECIFIC_RE.search(sentence):
        return True
    if worth_keeping(folded, lex) or (lex.date_words and lex.date_words.search(folded)):
        return True
    if kin_named(sentence, lex):
        return True
    if lex.capitalized_nouns:
        return about_someone(folded, lex)
    words = sentence.split()
    for w in words[1:]:
        bare = w.strip(".,;:!?¿¡\"'()«»“”")
        if len(bare) > 2 and bare[:1].isupper() and bare[1:].islower() and fold(bare) not in lex.function_words:
            return True
    return False


def worth_keeping(folded: str, lex: Lexicon) -> bool:
    """Whether a ``keep`` row names something worth keeping in the folded clause, unless a
    ``keep_idle`` row says it holds nothing lasting ("Tengo una pregunta", "Ho una domanda":
    the having of a question is no fact)."""
    return bool(lex.keep and lex.keep.search(folded) and not (lex.keep_idle and lex.keep_idle.search(folded)))


def a_habit(sentence: str, folded: str, lex: Lexicon) -> bool:
    """Whether ``sentence`` tells a first-person habit, ability or dislike of the ``habits``
    table, however short ("Não dirijo.", "I can't ski."): worth keeping as it stands."""
    return bool(lex.habit and len(sentence.strip()) >= MIN_STATE_CHARS and lex.habit.search(folded)
                and not (lex.keep_idle and lex.keep_idle.search(folded)))


def about_someone(folded: str, lex: Lexicon) -> bool:
    """Whether the sentence opens on a possessive and states with a verb of being, living,
    working or owning how things stand: "Meine Schwiegermutter wohnt in Jena.", "Unser Auto
    ist ein grauer Golf." (where nouns are capitalised, a capital names nothing)."""
    if not lex.possessives or not lex.state_verbs:
        return False
    words = tokens(folded)
    for i, w in enumerate(words[:POSSESSIVE_AT + 1]):
        if w in lex.possessives:
            return any(v in lex.state_verbs for v in words[i + 2: i + 2 + VERB_WITHIN])
    return False


_WORD = re.compile(r"[^\W\d_][\w'-]*")


def kin_named(sentence: str, lex: Lexicon) -> bool:
    """Whether a capitalised word stands right after a kinship noun ("Mein Patenonkel Reinhold
    …", "my niece Vroni"): a name, where every noun is capitalised too."""
    if not lex.kin_nouns:
        return False
    words = _WORD.findall(sentence)
    return any(fold(a) in lex.kin_nouns and b[:1].isupper() and b[1:2].islower() and fold(b) not in lex.function_words
               and fold(b) not in lex.kin_nouns for a, b in zip(words, words[1:]))


def question_clause_at(sentence: str, lex: Lexicon) -> int | None:
    """Where a clause that asks without a question mark starts after a statement ("the rent is
    $2,150, is that over 30%", "mi hijo pesa 14 kilos, cuánto le puedo dar", "… notice so when
    do I have to tell him"), or None."""
    if lex.question_clause is None:
        return None
    low = sentence.lower()
    for m in _CLAUSE_BREAK.finditer(sentence):
        if m.start() > 0 and m.end() < len(sentence) and lex.question_clause.match(low[m.end():]):
            return m.end()
    joined = _joined_questions(sentence, lex) + _inverted(sentence, lex) + _yes_no_joined(sentence, lex)
    return min(j[1] for j in joined) if joined else None


_WORD_START = re.compile(r"(?<=\s)(?=[^\W_])")


def _inverted(sentence: str, lex: Lexicon) -> list[tuple[int, int]]:
    """(start, start) of an asking clause joined with no comma and no joining word, where the
    clause asks by its form wherever it stands: a verb before its subject ("… pregnant can I
    still fly", "… on peut-tu se permettre …", "… qual bolo eu faço …"), a question word before
    a verb ("… a month how much should I put aside"), a yes-or-no tail ("… cabe o no", "…
    ce la faccio"). Its head has at least :data:`HEAD_WORDS` words, no word of
    ``inversion_not_after`` right before it ("… and so do I"), and the tail no word of
    ``yes_no_not_with`` before it ("whether it rains or not")."""
    if lex.inversion is None and lex.yes_no_tail is None:
        return []
    low = sentence.lower()
    folded = fold(low)  # fold keeps the length: folded once, sliced per word (a long paste was quadratic)
    for m in _WORD_START.finditer(low):
        at = m.start()
        head = tokens(folded[max(0, at - 200):at])  # the words just before (bounded: linear in the text)
        if at > 200 and len(head) < HEAD_WORDS:
            head = tokens(folded[:at])
        if len(head) < HEAD_WORDS or head[-1] in lex.inversion_not_after:
            continue
        if lex.inversion is not None and lex.inversion.match(low[at:]):
            return [(at, at)]
        tail = lex.yes_no_tail.match(low[at:]) if lex.yes_no_tail is not None else None
        if tail is not None and len(tokens(tail.group(0))) < TAIL_WORDS:
            tail = None  # "troppo buono": a space may be none in a phrase, "o no" inside one word is none
        if tail is not None and not lex.yes_no_not_with.intersection(tokens(folded)):
            return [(at, at)]
    return []


def _yes_no_joined(sentence: str, lex: Lexicon) -> list[tuple[int, int]]:
    """(start, start) of a yes-or-no asking start of ``yes_no_openers`` joined to a statement
    with no mark ("my knee still hurts should I see a physio", "El gato vomita cada mañana crees
    que …", "Die Katze frisst seit gestern nichts mehr soll ich …", "… da ieri sera è il caso
    di …"): never opening the sentence, no word of ``question_inversions_not_after`` or
    ``yes_no_not_after`` right before it ("… dice que debería", "… 2027 y debo pedir cita"), no full stop closing the sentence, and
    the words before it a complete clause opening on a subject (:func:`_a_clause`,
    :func:`_subject_first`) unless the start speaks to the
    listener ("… 23:40 meinst du …"): "Morgen früh um 8 muss ich …" fronts a time, no clause,
    and states."""
    if lex.yes_no_opener is None or sentence.rstrip(" \"'”»)").endswith(_CLOSED):
        return []
    low = sentence.lower()
    for m in lex.yes_no_opener.finditer(low):
        at = m.start()
        if at == 0 or not low[at - 1].isspace():
            continue
        head = sentence[max(0, at - 200):at]
        words = tokens(fold(head))
        if len(words) < HEAD_WORDS or words[-1] in lex.inversion_not_after or words[-1] in lex.yes_no_not_after:
            continue
        if not (_a_clause(head, lex) and _subject_first(sentence, lex)) and not lex.listener_words & set(tokens(fold(m.group(0)))):
            continue  # "meinst du", "tu crois que", "secondo te": put to the listener, it asks after any head
        return [(at, at)]
    return []


def _a_clause(head: str, lex: Lexicon) -> bool:
    """Whether the words before an asking start may be a clause of their own: after its first
    word, :data:`CLAUSE_WORDS` that are no function word or stopword, number or date word (where
    nouns are capitalised, in lower case: "frisst seit", not "Montag um 9 Uhr")."""
    table = date_table(lex.code)
    days = {d for d, _ in table.weekdays} | {d for d, _ in table.relative_days} if table is not None else set()
    stop = stopwords(lex.code) if lex.code in STOPWORD_LANGUAGES else frozenset()
    found = 0
    for word in head.split()[1:]:
        bare = word.strip(".,;:!?¿¡\"'()«»“”")
        low = fold(bare)
        if not bare or any(ch.isdigit() for ch in bare) or low in lex.function_words or low in stop or (low,) in days:
            continue
        found += not lex.capitalized_nouns or bare[:1].islower()
    return found >= CLAUSE_WORDS


def _subject_first(sentence: str, lex: Lexicon) -> bool:
    """Whether the sentence opens on a subject: a word of ``clause_openers`` (an article, a
    possessive, a subject pronoun: "El gato …", "my knee …") or a name (a capitalised word that
    is no function word: "Tobia …"); "Na biblioteca …", "In biblioteca a Firenze …" front a
    place."""
    first = sentence.split(None, 1)[0] if sentence.split() else ""
    words = tokens(fold(first))
    if not words:
        return False
    return words[0] in lex.clause_openers or (first[:1].isupper() and words[0] not in lex.function_words
                                              and words[0] not in lex.vocabulary)


#: words of their own a clause before a joined yes-or-no start holds
CLAUSE_WORDS = 2


def _joined_questions(sentence: str, lex: Lexicon) -> list[tuple[int, int]]:
    """(start, end) of each joining word with no comma before it after which a question word
    opens an asking clause ("… notice so when do I …", "… Abendessen also wann muss ich …")."""
    if lex.question_join is None or lex.question_clause is None:
        return []
    low = sentence.lower()
    marked = sentence.rstrip(" \"'”»)").endswith(("?", "？"))
    out = []
    for m in lex.question_join.finditer(low):
        if m.start() == 0 or not low[m.start() - 1].isspace():
            continue
        rest = _skip(low, m.end())
        word = _WORD_AT.match(fold(low[rest:]))
        if lex.not_question_joined is not None and lex.not_question_joined.match(low[rest:]):
            continue  # "… and what's more the heating is broken"
        if word and word.group(0) in lex.question_words and lex.question_clause.match(low[rest:]):
            out.append((m.start(), rest))
        elif (marked and word and lex.question_start is not None and lex.question_start.match(low[rest:])
              and not _CLAUSE_BREAK.search(sentence, rest)):
            out.append((m.start(), rest))  # "I'm on warfarin so is ibuprofen okay …?": the last clause
    return sorted(out + _unjoined_questions(sentence, lex) + _deliberated(sentence, lex))


#: a joined asking start with nothing after it has at least this many words ("so can I" agrees)
ASKING_WORDS = 4
#: a sentence closed by one of these states ("… so I can work from home on Fridays.")
_CLOSED = (".", "!", "…")


def _deliberated(sentence: str, lex: Lexicon) -> list[tuple[int, int]]:
    """(start, start) of a joining word after a statement, no comma needed,
    and a start that weighs a choice (``joined_asking``): "… with no lift so should I still order
    the sofa", "… sin elevador entonces me conviene …", "… sans ascenseur donc ça vaut le coup
    de …", "… então vale a pena …", "… quindi conviene prendere …". The statement before it has
    :data:`HEAD_WORDS` words or more, a word follows the start (or it has :data:`ASKING_WORDS`),
    and no full stop closes the sentence ("… so I can work from home." states)."""
    if lex.joined_asking is None:
        return []
    if sentence.rstrip(" \"'”»)").endswith(_CLOSED):
        return []
    folded = fold(sentence)
    for m in lex.joined_asking.finditer(folded):
        if m.start() == 0 or not folded[m.start() - 1].isspace():
            continue
        if len(tokens(m.group(0))) < ASKING_WORDS and not _WORD_AT.search(folded, m.end()):
            continue  # "… and so can I" agrees; "… lohnt es sich trotzdem" asks
        if len(tokens(folded[max(0, m.start() - 200):m.start()])) < HEAD_WORDS:
            continue
        return [(m.start(), m.start())]
    return []


def _unjoined_questions(sentence: str, lex: Lexicon) -> list[tuple[int, int]]:
    """(start, start) of each asking clause that follows a statement with no mark and no joining
    word: right after a time or number ("My flight lands at 6 can I make …", "um 6 schaff ich
    …"), or opened by a question word before a noun ("… and a dog what size car should we …",
    "… perro grande qué coche nos recomiendas", "… chien quel char on devrait …"; "the car which we
    …" and "o cão que come" are relative clauses, no question). The clause must be a row of
    ``question_clauses``."""
    if lex.question_clause is None:
        return []
    low = sentence.lower()
    folded = fold(low)  # once: per word it made a long paste quadratic (a 3,500-word message ran for minutes)
    starts = [t.start() for t in re.finditer(r"\S+", low)]
    out = []
    for m in _WORD_AT.finditer(low):
        at = m.start()
        if at == 0 or not low[at - 1].isspace() or bisect_left(starts, at) < HEAD_WORDS:
            continue
        asked = lex.question_clause.match(low[at:])
        if not asked:
            continue
        before = fold(low[max(0, at - 40):at]).split()  # the word before (a bounded look back: linear in the text)
        if before and before[-1].strip(".,;:") in lex.inversion_not_after:
            continue  # "Mi tío no sabe cuánto cuesta …": a question word after "knows" is no question
        after = _WORD_AT.search(folded, m.end())
        wh = bool(lex.question_words.intersection(tokens(fold(asked.group(0)))))
        if _after_a_number(low[max(0, at - 40):at], lex) or (wh and (_after_a_day(before, lex) or _to_the_end(low, at + asked.end()))) or (
                fold(m.group(0)) in lex.question_words and after is not None
                and after.group(0) not in lex.function_words and not after.group(0).isdigit()):
            out.append((at, at))
    return out


def _after_a_number(before: str, lex: Lexicon) -> bool:
    """Whether the text before a clause ends on a number, a unit or one word it counts after it
    ("… lands at 6", "… 600 Euro"); a joining word after the number ("… il 4 aprile 2027 e devo
    prenotare …") joins a second statement, no question."""
    m = _AFTER_NUMBER.search(before)
    word = tokens(fold(m.group(0))) if m else []
    return m is not None and not (word and word[-1] in lex.function_words)


def _to_the_end(low: str, end: int) -> bool:
    """Whether an asking clause holding a question word runs to the sentence's end: the question
    word left where its answer goes ("… dans la cour j'apporte quoi", "… je mets quoi")."""
    return end >= len(low.rstrip(" .!…\"'”»)"))


def _after_a_day(before: list[str], lex: Lexicon) -> bool:
    """Whether the words before a clause end on a day of the language's date table, a weekday
    or a relative day ("… a school trip on Thursday what does he need", "… sortie scolaire
    jeudi il lui faut quoi", "… la gita venerdì cosa deve …"): a time closes the statement as a
    number does, when the clause holds a question word ("Credo che domani posso venire" states)."""
    table = date_table(lex.code)
    if table is None or not before:
        return False
    words = [w.strip(".,;:") for w in before[-2:]]
    days = {d for d, _ in table.weekdays} | {d for d, n in table.relative_days if n is not None}
    return (words[-1],) in days or tuple(words) in days


def fact_in_question(sentence: str, folded: str, lex: Lexicon) -> str | None:
    """The fact a question states around itself: "Since my flight lands at 9:40, can I make
    it?" → "My flight lands at 9:40"; "Can I make it, since …?" and "My flight lands at 9:40,
    can I make it?" the same; a comma inside a number ("$2,150") ends no clause, and a lead with no
    clause after it is a question word ("Cómo está el tráfico …", "Since when …?")."""
    if lex.fact_lead is not None:
        start = _skip(folded, len(folded) - len(folded.lstrip(" ¿¡")))
        lead = lex.fact_lead.match(folded, start) or _named_lead(sentence, folded, start, lex)
        breaks = [m for m in _CLAUSE_BREAK.finditer(sentence, lead.end()) if m.start() > lead.end()] if lead else []
        if lead and breaks:  # with no clause after it, "Como tá o trânsito" asks how, not since
            end = next((m for m in breaks if _asks_from(sentence[m.end():], lex)), breaks[0])
            return _kept_after_lead(sentence[lead.end(): end.start()], lex)
        for m in lex.fact_lead.finditer(folded):
            if folded[:m.start()].rstrip().endswith(","):
                return _kept_after_lead(sentence[m.end():], lex)
    return _stated_before_asking(sentence, lex)


def _kept_after_lead(clause: str, lex: Lexicon) -> str | None:
    """The clause a fact lead opens, as a note: kept as any statement is, or when it names
    someone for a span of time with no digit ("Since Kowalski is on call this week" → "Kowalski
    is on call this week"): after the lead, a capital opening the clause is no sentence's
    first letter but a name (where nouns are capitalised, a bare one: no article before it)."""
    kept = _kept(clause, lex)
    if kept is not None:
        return kept
    body = clause.strip(_TRIM + "¿¡")
    folded = fold(body)
    said = lex.reported.search(folded) if lex.reported is not None else None
    if said and len(tokens(folded[said.end():])) >= REPORTED_WORDS:
        return tidy(body)  # "Since the plumber says that the boiler is broken, …?": what I was told
    if not said and _lasting(body, folded, lex):
        return tidy(body)  # "Given that the dog hates the car, …?": a state that lasts ("Tom says that it's fine" judges)
    when = (lex.time_span is not None and lex.time_span.search(folded)) or (
        lex.date_words is not None and lex.date_words.search(folded))
    # with no span of time, a longer clause about someone named with no copula ("Seeing as Pickle
    # hates the carrier", "Étant donné que Praline ne supporte plus les escaliers") states a lasting fact
    words = tokens(folded)
    lasting = len(words) >= NAMED_STATE_WORDS and not lex.copulas & set(words)  # "… is so reliable" judges
    if not (when or lasting) or len(body) < MIN_CHARS or not _names_someone(body, lex):
        return None
    return tidy(body)


#: words a statement about someone close before a question holds to be kept with nothing else
#: named ("my mum is tired, …" is a mood; "a minha madrinha vem passar uns dias cá em casa …" a plan)
KIN_HEAD_WORDS = 6
#: words a clause after a fact lead naming someone holds to be kept with no span of time
NAMED_STATE_WORDS = 4
#: words after a reporting verb's that-word for the reported clause to be kept ("… says that it's
#: fine" judges; "… says that the boiler is broken" states)
REPORTED_WORDS = 4


def _lasting(body: str, folded: str, lex: Lexicon) -> bool:
    """Whether a clause after a fact lead states something that lasts: :data:`LASTING_WORDS`
    words or more, :data:`LASTING_CONTENT` of them no function word, and no word of the moment
    (``momentary``: "right now", "in a bad mood", "gerade", "oggi"; a remark on the weather of
    ``chit_chat``): "my knee clicks every time I climb stairs" lasts; "it's raining right now"
    and "hoy estoy de mal humor" pass."""
    words = tokens(folded)
    if len(words) < LASTING_WORDS or len([w for w in words if w not in lex.vocabulary]) < LASTING_CONTENT:
        return False
    if lex.momentary is None or lex.momentary.search(folded) or (lex.chit_chat is not None and lex.chit_chat.search(folded)):
        return False
    return len(body) >= MIN_CHARS


#: words a clause after a fact lead holds to state a lasting fact with nothing specific in it,
#: and how many of them name something
LASTING_WORDS = 5
LASTING_CONTENT = 2
_FIRST_WORD = re.compile(r"\s*[^\W\d_]+")


def _named_lead(sentence: str, folded: str, start: int, lex: Lexicon) -> re.Match[str] | None:
    """A lead of ``fact_leads_named`` opening the sentence with a name right after it ("With
    Kowalski on call …", "Wo Kowalski diese Woche … hat, …"); None before anything else ("With
    the budget …", "Wo ist …")."""
    lead = lex.named_lead.match(folded, start) if lex.named_lead is not None else None
    if lead is not None and not _name_first(sentence[lead.end():], lex) and _kin_first(folded[lead.end():], lex):
        return _FIRST_WORD.match(folded, start)  # "Com a minha sogra cá em casa …": someone close, the article kept
    return lead if lead is not None and _name_first(sentence[lead.end():], lex) else None


def _name_first(clause: str, lex: Lexicon) -> bool:
    """Whether the clause opens on a capitalised word that is no function word nor possessive."""
    words = clause.split(None, 1)
    first = words[0].strip(".,;:!?¿¡\"'()«»“”") if words else ""
    return len(first) > 1 and first[:1].isupper() and fold(first) not in lex.function_words \
        and fold(first) not in lex.possessives


def _names_someone(clause: str, lex: Lexicon) -> bool:
    """Whether a clause after a fact lead names someone by a capital: any word of it, the first
    too; where every noun is capitalised, its first word bare (no article or possessive before
    it: "Da Kowalski …", not "Da das Wetter …")."""
    return names_by_capital(clause, lex) if not lex.capitalized_nouns else _name_first(clause, lex)


def _asks_from(tail: str, lex: Lexicon) -> bool:
    """Whether a clause opens as a question (question word, inversion, "can you")."""
    tail = tail.lstrip(" ¿¡")
    polite = lex.polite.match(fold(tail)) if lex.polite else None
    low = tail.lower()
    return bool(polite or (lex.question_start and lex.question_start.match(low))
                or (lex.question_clause and lex.question_clause.match(low))
                or (lex.inversion and lex.inversion.match(low)) or (lex.yes_no_tail and lex.yes_no_tail.match(low))
                or (lex.yes_no_opener is not None and lex.yes_no_opener.match(low) is not None)
                or (lex.joined_asking is not None and lex.joined_asking.match(fold(tail)) is not None))


def _stated_before_asking(sentence: str, lex: Lexicon) -> str | None:
    """The statement before a question in the same sentence: "My train gets in at 18:05 — is
    that enough?", "Tengo 1.200 € ahorrados, ¿crees que alcanza?", "Marco finit à 22 h, je
    peux passer ?". The clause break is the first one after which a question opens, else (the
    sentence ends with a question mark) the last one; the statement must name something by a
    number, a date, a preference (a capital alone is not enough: "For the Berlin trip, …")."""
    if lex.question_start is None or lex.question_start.match(sentence.lstrip(" ¿¡").lower()):
        return None
    breaks = [m.span() for m in _CLAUSE_BREAK.finditer(sentence) if m.start() > 0]
    breaks = sorted(breaks + _joined_questions(sentence, lex) + _inverted(sentence, lex) + _yes_no_joined(sentence, lex))
    if not breaks:
        return None
    chosen = next((b for b in breaks if _asks_from(sentence[b[1]:], lex)), None)
    if chosen is None:
        if not sentence.rstrip(" \"'”»)").endswith(("?", "？")):
            return None
        chosen = breaks[-1]
    head = sentence[:chosen[0]]
    if lex.hypothetical_lead is not None and lex.hypothetical_lead.match(fold(head.lstrip(" ¿¡"))):
        return None  # "If a train leaves at 14:10 …, when does it arrive?": a supposition, not a fact
    state = worth_keeping(fold(head), lex)  # "Sono celiaco, che pizzeria …?"
    if (len(head.split()) < HEAD_WORDS and not state) or not _names_something(head, fold(head), lex):
        return None
    kept = _kept(head, lex)
    if kept is None and _kin_first(fold(head), lex) and len(head.split()) >= KIN_HEAD_WORDS:
        return tidy(head)  # "a minha madrinha vem passar uns dias cá em casa …": a plan of someone close
    return kept


def names_by_number_or_date(text: str, folded: str, lex: Lexicon) -> bool:
    """Whether ``text`` names a number, a code or a date word ("the 14th", "am 19.", "lunes")."""
    return bool(SPECIFIC_RE.search(text) or (lex.date_words and lex.date_words.search(folded)))


def names_by_capital(text: str, lex: Lexicon) -> bool:
    """Whether ``text`` holds a capitalised word that is a name ("Rosario", "York"); never where
    every noun is capitalised (German)."""
    if lex.capitalized_nouns:
        return False
    for w in text.split():
        bare = w.strip(".,;:!?¿¡\"'()«»“”")
        if len(bare) > 1 and bare[:1].isupper() and fold(bare) not in lex.function_words:
            return True
    return False


def _names_something(text: str, folded: str, lex: Lexicon) -> bool:
    return bool(SPECIFIC_RE.search(text) or worth_keeping(folded, lex)
                or (lex.date_words and lex.date_words.search(folded)) or kin_named(text, lex) or _kin_first(folded, lex))


def _kin_first(folded: str, lex: Lexicon) -> bool:
    """Whether the clause opens on a possessive and a kinship noun ("my aunt …", "a minha
    madrinha …", "meine Schwiegermutter …"): what it says of someone close is worth a note."""
    words = tokens(folded)[:POSSESSIVE_AT + 2]
    return any(a in lex.possessives and b in lex.kin_nouns for a, b in zip(words, words[1:]))


def _kept(clause: str, lex: Lexicon) -> str | None:
    clause = tidy(clause)
    folded = fold(clause)
    if worth_keeping(folded, lex) and len(clause) >= MIN_STATE_CHARS:
        return clause
    return clause if len(clause) >= MIN_CHARS and is_specific(clause, folded, lex) else None


def content_words(text: str, lex: Lexicon) -> list[str]:
    """The words of ``text`` that name something (not the language's function words)."""
    return [w for w in tokens(fold(text)) if w not in lex.vocabulary and len(w) > 1]


def subject_words(fact: str, lex: Lexicon) -> tuple[str, ...]:
    """The words naming what a correction is about: its content words before the verb
    ("the offsite moved to Friday" → ("offsite",)), all of them when there is no verb or
    only a pronoun stands before it ("we have 74 chairs …", "wir haben 74 Stühle …")."""
    folded = fold(fact)
    verb = lex.subject_end.search(folded) if lex.subject_end else None
    head = fact[: verb.start()] if verb and verb.start() > 0 else fact
    words = content_words(head, lex) or content_words(fact, lex)
    if lex.correction:
        words = [w for w in words if not lex.correction.match(w)]
    return tuple(dict.fromkeys(w for w in words if not w.isdigit()))
