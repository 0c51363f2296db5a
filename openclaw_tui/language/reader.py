"""The lexicon reader: one reading of a message from the table of its language.

The message is folded once, cut into sentences once, and each sentence read in this order:
a do-not-keep phrase anywhere withholds the whole message; a privacy mark is cut out and
marks the reading private; a correction's cue, a file-change request and a remember cue are
read at a sentence's start; every other sentence is a question, a request, small talk or a
statement, and statements that name something are its facts (a fact told inside a question
too). A language without a table, or not among the settings' languages, gets the neutral
reading.

    LexiconReader().read("Merk dir, dass mein Zahnarzt Dr. Weber heißt.").facts
    # ("Mein Zahnarzt Dr. Weber heißt.",)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from openclaw_tui.language import examples as EX
from openclaw_tui.language import facts as F
from openclaw_tui.language.date_table import date_table
from openclaw_tui.language.detect import detect, guess
from openclaw_tui.language.lexicon import TABLES, Lexicon, Phrases, common, fold, has_table, laughs, lexicon, lower, tokens
from openclaw_tui.language.neutral import neutral_reading
from openclaw_tui.language.reading import Intent, MessageReading, ReaderSettings, ReplyReading
from openclaw_tui.language.secrets import find_secrets
from openclaw_tui.language.sentences import spans

QUERY_CAP = 300
#: a sentence after a small-talk opening this short, naming nothing, is still small talk
SMALL_TALK_REST = 40
#: a question tag must close the sentence: found within this many last characters
TAG_WINDOW = 24
#: a question tag left alone after a privacy mark is cut has at most this many words ("né?", "não é?")
TAG_ALONE_WORDS = 2
_LEAD = re.compile(r"[\s¿¡\"'(«„“-]*")
#: the break before a main clause, after a clause a question word joins
_MAIN_CLAUSE = re.compile(r"[,;:]\s|\s[-–—]\s")
#: what may separate an interjection from the sentence after it
_OPENER_GAP = re.compile(r"[\s,;:.!…–—-]*")
#: marks and symbols (emoji) between a greeting and what follows it; a question mark, a quote
#: or a bracket opening the rest is kept
_AFTER_GREETING = re.compile(r"[^\w¿?\"'(«„“]*")
#: an amount right after an opening verb ("debo 4.000 €")
_AMOUNT = re.compile(r"\s*[$€£]?\s*\d")


class Kind(Enum):
    QUESTION = "question"
    REQUEST = "request"
    SMALL_TALK = "small_talk"
    CHIT_CHAT = "chit_chat"  # a remark of the moment ("Long day.", "Il pleut"): a statement, never a fact
    STATEMENT = "statement"
    EMPTY = "empty"


@dataclass(frozen=True)
class Piece:
    text: str  # the sentence as typed
    folded: str  # the same, folded (same length)


#: words a verb's object before an amount may have: "devo all'Agenzia delle Entrate 950 euro"
TO_AMOUNT_WORDS = 4
_ELIDED = re.compile(r"[^\W\d_]{1,4}'")
#: the Romance "to" (with its article) of the one an amount is owed to: "debo a Hacienda", "devo ao
#: banco", "je dois à ma sœur", "devo alla banca"
_TO_SOMEONE = frozenset({"a", "al", "ao", "aos", "as", "au", "aux", "alla", "allo", "alle", "ai", "agli"})
_AMOUNT_LATER = re.compile(rf"((?:\s+[^\s\d]+){{1,{TO_AMOUNT_WORDS}}}?)\s+[$€£]?\s*\d")


def _before_an_amount(f: str, end: int, lex: Lexicon) -> bool:
    """Whether an amount follows the opening verb, at once ("debo 4.000 €") or after the one it
    is owed to ("devo all'Agenzia delle Entrate 950 euro", "debo a Hacienda 950 €"); "posso
    spendere 50 euro" and "can I bring a 20 dollar bill" ask."""
    if _AMOUNT.match(f, end):
        return True
    later = _AMOUNT_LATER.match(f, end)
    if later is None:
        return False
    first = later.group(1).split()[0]
    # "to" of the one owed, or one elided before an apostrophe ("all'Agenzia")
    return bool(_ELIDED.match(first)) or first.strip(".,;:") in _TO_SOMEONE


def _asks(s: str, f: str, lex: Lexicon) -> bool:
    """Whether the sentence is put as a question (mark, opening word, inversion, tag, a clause
    that asks after a statement, recall)."""
    body = s.rstrip(" \"'”»)")
    if body.endswith(("?", "？")) or s.lstrip().startswith("¿"):
        return True
    if lex.question_tag is not None and lex.question_tag.search(f, max(0, len(f) - TAG_WINDOW)):
        # "Nice weather today, isn't it": a tag on a remark of the moment asks nothing
        return not (lex.chit_chat is not None and lex.chit_chat.search(f))
    m = lex.question_start.match(lower(s)) if lex.question_start else None
    multiword = m is not None and len(m.group(0).split()) > 1  # "c'est combien le loyer", "quanto é a renda"
    if m and not multiword and _before_an_amount(f, m.end(), lex) and _opener(m) not in lex.question_words:
        m = None  # "debo 4.000 € de la tarjeta", "devo all'Agenzia 950 euro": a verb before an amount states
    # "When I travel …" joins a clause; "quanto eu paguei …" cannot, so it asks
    joins = m is not None and (not lex.subordinators or fold(m.group(0)).strip(" ¿¡\"'(«„“-") in lex.subordinators)
    # a clause it joins needs a main clause after a break ("Quando ho tempo, vado …"); alone,
    # "dove ho messo il libretto" asks
    joined = joins and bool(_MAIN_CLAUSE.search(f, m.end() if m else 0))
    if m and (multiword or not (joined and lex.not_question_after and lex.not_question_after.match(f[m.end():]))):
        return True
    if F.question_clause_at(s, lex) is not None or _asks_after_lead(s, f, lex):  # "The rent is $2,150, is that over 30%"
        return True
    if lex.question_inside is not None and lex.question_inside.search(lower(s)):
        return True  # "l'amministratore come fa di cognome"
    if F.asks_to_recall(f, lex, s):
        return True  # "do you remember the name of that beer", "ti ricordi che vino abbiamo bevuto"
    recall = lex.recall.match(f) if lex.recall else None
    if recall:
        word = re.match(r"\s*([^\W_]+)", f[recall.end():])
        return bool(word and word.group(1) in lex.question_words) or recall_lead(f, lex)
    return False


_RECALL_COLON = re.compile(r"\s*:\s*\w")


def recall_lead(f: str, lex: Lexicon) -> bool:
    """Whether a recall idiom opens the folded sentence before a colon and more words ("Puxa pela
    memória: o que …", "Rack your memory: the thing …"): it asks for what follows, a headless
    relative or a noun as much as a question word; not the start of a longer keep request
    ("Remember: …" keeps, by its remember cue)."""
    recall = lex.recall.match(f) if lex.recall else None
    if recall is None or _RECALL_COLON.match(f, recall.end()) is None:
        return False
    keep = lex.remember.match(f) if lex.remember is not None else None
    return keep is None or keep.end() < recall.end()


#: a lead before a colon, or a topic after "and" before a comma, has at most this many words
#: when the clause after it asks ("Denk mal nach: welchen Wein …", "E a infiltração, o que …")
LEAD_WORDS = 5
_LEAD_BREAK = re.compile(r"\s?[:,]\s")


def _asks_after_lead(s: str, f: str, lex: Lexicon) -> bool:
    """A short lead, then a clause to the end opening on a question word, with no mark: after a
    colon any lead ("Sforzati un po': che regalo …", "Think back: which …"), after a comma a
    topic opening on "and" ("E a infiltração, o que ficou combinado …", "Und das Dach, was …")."""
    brk = _LEAD_BREAK.search(s)
    if brk is None or lex.question_start is None or len(tokens(f[:brk.start()])) > LEAD_WORDS:
        return False
    lead = tokens(f[:brk.start()])
    if ":" not in brk.group(0) and not (lead and lead[0] in lex.topic_leads):
        return False
    rest, frest = s[brk.end():], f[brk.end():]
    q = lex.question_start.match(lower(rest))
    if q is None or not set(tokens(_opener(q))[:1]) & lex.question_words or _MAIN_CLAUSE.search(frest):
        return False
    return _asks(rest, frest, lex)


def _opener(m: re.Match[str]) -> str:
    return fold(m.group(0)).strip(" ¿¡\"'(«„“-")


def _polite_end(f: str, lex: Lexicon) -> int:
    m = lex.polite.match(f) if lex.polite else None
    return m.end() if m else 0


def opener_end(f: str, lex: Lexicon) -> int:
    """Where the interjections opening a folded sentence end ("oops, ", "oye y ", "bon, "):
    what follows is read as the sentence; 0 when it opens on none."""
    pos = 0
    while lex.interjection is not None:
        m = lex.interjection.match(f, pos)
        if m is None or m.end() == pos:
            break
        # "well done", "oops, I meant", "tá bom", "ya que": a longer phrase of another list reads whole
        if any(other is not None and (o := other.match(f, pos)) is not None and o.end() > m.end()
               for other in (lex.small_talk, lex.correction, lex.remember, lex.polite, lex.closing, lex.leaving,
                             lex.fact_lead, lex.exclamation)):
            break
        rest = _OPENER_GAP.match(f, m.end())
        pos = rest.end() if rest else m.end()
    return pos


def after_opener(piece: Piece, lex: Lexicon) -> Piece:
    """The sentence without its opening interjections ("Uy, error mío: …" → "error mío: …")."""
    pos = opener_end(piece.folded, lex)
    return Piece(piece.text[pos:], piece.folded[pos:]) if pos else piece


def _exclaims(s: str, f: str, lex: Lexicon) -> bool:
    """A question word before a remark of the moment, without a question mark, exclaims:
    "Qué calor hace hoy", "Che afa oggi", "What a day"."""
    if "?" in s or "¿" in s:
        return False
    if lex.exclamation is not None and lex.exclamation.match(f):
        return True
    if lex.chit_chat is None or lex.question_start is None:
        return False
    m = lex.question_start.match(lower(s))
    if m is None or fold(m.group(0)).strip(" ¿¡\"'(«„“-") not in lex.question_words:
        return False
    return bool(lex.chit_chat.match(f, _skip_spaces(f, m.end())))


def _skip_spaces(f: str, pos: int) -> int:
    while pos < len(f) and f[pos] in " \t":
        pos += 1
    return pos


def kind_of(s: str, f: str, lex: Lexicon, *, nested: bool = False) -> Kind:
    """What one sentence does ("Hi, how are you?" is small talk twice over)."""
    if not any(ch.isalnum() for ch in s):
        return Kind.QUESTION if "?" in s else Kind.EMPTY
    if laughing(Piece(s, f), lex) or takes_leave(s, f, lex):
        return Kind.SMALL_TALK
    cut = opener_end(f, lex)
    if cut:
        if not any(ch.isalnum() for ch in s[cut:]):
            return Kind.SMALL_TALK
        return kind_of(s[cut:], f[cut:], lex, nested=nested)
    if _exclaims(s, f, lex):
        return Kind.CHIT_CHAT
    if greets(s, f, lex):
        return Kind.SMALL_TALK
    if lex.small_talk is not None:
        hello = lex.small_talk.match(f)
        longer = lex.question_start.match(lower(s)) if hello and lex.question_start is not None else None
        if hello and longer is not None and longer.end() > hello.end():
            hello = None  # "a ver si recuerdas cuánto …": a longer question opener reads whole
        if hello:
            rest, frest = s[hello.end():], f[hello.end():]
            # "Bom diaaa ☀️ tudo certo?": marks and emoji after the greeting say nothing more
            gap = _AFTER_GREETING.match(rest)
            cut = gap.end() if gap else 0
            rest, frest = rest[cut:], frest[cut:]
            if not any(ch.isalnum() for ch in rest) or _only_an_address(rest, lex):
                return Kind.SMALL_TALK  # "¡Hola, don Luis!", "Morning, Mr Hughes!"
            if lex.question_tag is not None and _only_a_tag(frest, lex.question_tag):
                return Kind.SMALL_TALK  # "Cá estamos de novo, não é?": a tag on small talk asks nothing
            inner = kind_of(rest, frest, lex, nested=True)
            if inner is Kind.QUESTION and asks_after_listener(Piece(rest, frest), lex):
                return Kind.SMALL_TALK  # "Servus du, alles im grünen Bereich bei dir?"
            if inner in (Kind.STATEMENT, Kind.SMALL_TALK, Kind.CHIT_CHAT) and len(rest) < SMALL_TALK_REST and not F.is_specific(rest, frest, lex):
                return Kind.SMALL_TALK
            return inner
    if _asks(s, f, lex):
        return Kind.QUESTION
    pos = _polite_end(f, lex)
    if pos or (lex.request is not None and (ask := lex.request.match(f)) and not _kept_past(f, ask.end(), lex)):
        return Kind.REQUEST
    moments = list(lex.chit_chat.finditer(f)) if lex.chit_chat is not None else []
    if moments and not _kept_beside(f, moments, lex) and not _moment_in_reason(f, moments, lex):
        return Kind.CHIT_CHAT
    return Kind.STATEMENT


#: a question after a greeting asking how the listener is has at most this many words; one
#: opening on "how" and speaking to no one, at most HOW_ALONE_WORDS ("Comu semu oggi?")
LISTENER_WORDS = 8
HOW_ALONE_WORDS = 3


def asks_after_listener(piece: Piece, lex: Lexicon) -> bool:
    """Whether a question after a greeting asks how the listener is, naming nothing: short, no
    digit or name, no first-person word, no opener asking for something (a question word but
    "how", a polite lead, "do you know"), and a word for the listener in it ("…bei dir?", "Ça
    roule de ton bord?") or "how" opening three words at most ("Comu semu oggi?")."""
    s, f = piece.text, piece.folded
    words = tokens(f)
    opened = _how_opened(f, lex)
    around = s if opened is None else s[:opened[0]] + " " + s[opened[1]:]  # "t'es-tu d'attaque" is no name-like token
    if not words or F.SPECIFIC_RE.search(around) or not lex.listener_words:
        return False
    first = s.split(None, 1)
    if (len(first) > 1 and F.names_by_capital(first[1], lex)) or lex.first_person & set(words):
        return False
    if opened is not None and not _polite_end(f, lex) and _only_light(f[:opened[0]] + " " + f[opened[1]:], lex):
        return True  # "Bom dia! Como é que vai isso?", "po, ¿cómo ha estado la semana?", "…, mon robot ?"
    if len(words) > LISTENER_WORDS or F.SPECIFIC_RE.search(s) or lex.possessives & set(words):
        return False
    how = words[0] in lex.how_words or (opened is not None and opened[0] == len(f) - len(f.lstrip(" ¿¡")))
    clause = lex.question_clause is not None and lex.question_clause.match(lower(s).lstrip(" ¿¡"))
    if _polite_end(f, lex) or (clause and not how):
        return False
    opener = lex.question_start.match(lower(s)) if lex.question_start is not None else None
    if opener is not None and not how:
        return False
    return bool(lex.listener_words & set(words)) or (how and len(words) <= HOW_ALONE_WORDS)


_WORD_AT = re.compile(r"[\s,;:!¿¡.…-]*[^\W\d_]+")


def _how_opened(f: str, lex: Lexicon) -> tuple[int, int] | None:
    """Where a how-opener stands when it opens ``f`` or follows light words only ("po, ¿cómo ha
    estado …"): its start and end."""
    at = 0
    while lex.how_opener is not None:
        m = lex.how_opener.any.match(f[at:])
        if m is not None:
            return at + len(m.group(0)) - len(m.group(0).lstrip(" \t¿¡\"'(«„“-")), at + m.end()
        word = _WORD_AT.match(f, at)
        if word is None or not _only_light(word.group(0), lex):
            return None
        at = word.end() + len(f[word.end():]) - len(f[word.end():].lstrip(" ,;:!.…"))
    return None


def _only_light(rest: str, lex: Lexicon) -> bool:
    """Whether the words after a how-opener are function words or ``how_topics`` only (a period,
    life, things, a name for the listener): "… la semana", "… de bello stamattina", "…, mon robot"."""
    return all(w in lex.function_words or w in lex.how_topics or w in lex.listener_words for w in tokens(rest))


def _kept_past(f: str, end: int, lex: Lexicon) -> bool:
    """Whether a keep row opening the sentence reaches past the request verb ending at ``end``:
    "Faz três anos que não como carne" states a habit, "Faz isso" asks."""
    kept = lex.keep.match(f) if lex.keep is not None else None
    return kept is not None and kept.end() > end


#: a greeting or thanks in words of the table has at most this many words, and at most one
#: word the table does not know ("Thanks a ton, talk tomorrow": "ton")
GREETING_WORDS = 7


def _greeting_word(word: str, lex: Lexicon) -> bool:
    return any(word == stem or (len(stem) >= 4 and word.startswith(stem)) for stem in lex.small_talk_stems) or laughs(word, lex)


#: clauses between commas, or between emoji standing for one ("notte ragazzi 😴 domani si riparte")
_CLAUSES = re.compile(r"[^,;:\U0001F300-\U0001FAFF\u2600-\u27BF]+")
#: the first word of a clause and the gap after it (laughter before a closing remark)
_LAUGH_LEAD = re.compile(r"([^\W\d_]+)[\s!.…]*")
#: spaces, stops and symbols (emoji) at a clause's ends; a question mark is kept
_SYMBOLS_AROUND = re.compile(r"^[^\w?¿]+|[^\w?]+$")


#: a pronoun joined to its verb by a hyphen ("desejo-te", "fico-te", "dites-moi"): no code
_CLITIC = re.compile(r"(?<=[^\W\d_])-(?:te|me|lhe|lhes|nos|vos|se|lo|la|los|las|tu|moi|toi|vous|nous|le|les)\b",
                     re.IGNORECASE)


def takes_leave(s: str, f: str, lex: Lexicon) -> bool:
    """Whether a sentence naming nothing is leave-taking clause by clause ("right, gotta run,
    catch you tomorrow", "bueno, me tengo que ir, hablamos mañana", "vado, ci sentiamo dopo"):
    every clause between commas is a ``leaving``, ``closing`` or ``thanking`` clause whole ("deal
    then", "te debo una birra", "trop chou", "Le agradezco de veras el favor"), a greeting or an
    opener, and one at least takes leave, closes or thanks."""
    if (lex.leaving is None and lex.closing is None) or "?" in s:
        return False
    if F.SPECIFIC_RE.search(_CLITIC.sub("", _without_thanks(s, f, lex))):
        return False
    left = False
    for m in _CLAUSES.finditer(f):
        clause = _SYMBOLS_AROUND.sub("", m.group(0))  # "j'adore 😍": an emoji closing a clause says nothing more
        if not any(ch.isalnum() for ch in clause):
            continue
        start = m.start() + m.group(0).find(clause)
        body = clause[opener_end(clause, lex):]  # "waouh génial": after an interjection
        laugh = _LAUGH_LEAD.match(body)
        if laugh is not None and laughs(laugh.group(1), lex) and laugh.end() < len(body):
            body = body[laugh.end():]  # "jajaj tremendo meme": a closing after laughter
        if _thanks_clause(clause, lex) or any(_whole(found.match(body), body) for found in (lex.leaving, lex.closing, lex.thanking)
                                              if found is not None and body):
            left = True
        elif not (greets(s[start:start + len(clause)], clause, lex) or opener_end(clause, lex) == len(clause)
                  or _whole(lex.small_talk.match(clause) if lex.small_talk is not None else None, clause)):
            return False
    return left


def _thanks_clause(clause: str, lex: Lexicon) -> bool:
    """Whether a folded clause is thanks or praise of the listener, whole (``thanking``)."""
    body = _SYMBOLS_AROUND.sub("", clause)
    return lex.thanking is not None and bool(body) and _whole(lex.thanking.match(body), body)


def _without_thanks(s: str, f: str, lex: Lexicon) -> str:
    """``s`` with its thanking clauses blanked: their hyphens ("bem-haja", "Agradeço-lhe") name nothing."""
    if lex.thanking is None:
        return s
    for m in _CLAUSES.finditer(f):
        if _thanks_clause(m.group(0), lex):
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return s


def _only_an_address(rest: str, lex: Lexicon) -> bool:
    """Whether what follows a greeting is a form of address of the table and a name, nothing
    more ("don Luis!", "Mr Hughes!", "senhor Costa!", "madame Petit !"): the greeting names no one
    worth a note."""
    words = rest.strip(" ,;:!.…¡¿").split()
    if not 2 <= len(words) <= 3 or not lex.titles:
        return False
    titles = {fold(t).rstrip(".") for t in lex.titles}
    return fold(words[0]).rstrip(".") in titles and all(w[:1].isupper() and w.isalpha() for w in words[1:])


def laughing(piece: Piece, lex: Lexicon) -> bool:
    """Whether a sentence opens on laughter and is small talk by :func:`greets` ("jajajaja me
    muero 😂", "haha geil", "ahahah troppo forte"): read whole, before its opener is cut."""
    words = tokens(piece.folded)
    return bool(words) and laughs(words[0], lex) and greets(piece.text, piece.folded, lex)


def _whole(m: re.Match[str] | None, word: str) -> bool:
    return m is not None and m.end() == len(word)


def greets(s: str, f: str, lex: Lexicon) -> bool:
    """Whether a short sentence naming nothing is a greeting, thanks or goodbye by its words: it
    opens on a word of ``small_talk_stems`` and every other word but one is such a word or a
    function word ("Thanks heaps!", "Merci infiniment, à plus", "Servus und pfiat di")."""
    words = tokens(f)
    rest = s.split(None, 1)[1:]  # a capital after the first word names someone ("Thanks, Maria")
    # laughter in capitals ("JAJAJA") is no code
    plain = " ".join(w for w in s.split() if not all(laughs(t, lex) for t in tokens(fold(w))) or not tokens(fold(w)))
    if not words or len(words) > GREETING_WORDS or F.SPECIFIC_RE.search(plain) or (rest and F.names_by_capital(rest[0], lex)):
        return False
    content = [w for w in words if w not in lex.vocabulary or _greeting_word(w, lex)]
    while len(content) > 1 and content[0] in lex.small_talk_follow and not _greeting_word(content[0], lex):
        content = content[1:]  # "massive thanks", "un énorme merci": an intensifier before the thanks
    if not content or not _greeting_word(content[0], lex) or (lex.keep is not None and lex.keep.search(f)):
        return False
    unknown = [w for w in content[1:] if not _greeting_word(w, lex) and w not in lex.small_talk_follow
               and not (lex.date_words is not None and _whole(lex.date_words.match(w), w))]
    return len(unknown) <= 1


def _kept_beside(f: str, moments: list[re.Match[str]], lex: Lexicon) -> bool:
    """Whether a habit or preference stands beside the remarks of the moment, not inside one:
    "I'm on the 7:10 bus every Monday" is kept; "Sono in coda alla Coop" and "Rientrato ora
    dal calcetto, ho le gambe a pezzi" are not."""
    return lex.keep is not None and any(all(m.end() <= x.start() or m.start() >= x.end() for x in moments)
                                        for m in lex.keep.finditer(f))


def _moment_in_reason(f: str, moments: list[re.Match[str]], lex: Lexicon) -> bool:
    """Whether every remark of the moment stands inside a clause giving a reason, after a main
    clause of :data:`F.HEAD_WORDS` words or more: "je cherche un autre boulot parce que le
    salaire arrive en retard" states why; "je suis en retard parce que …" is the moment."""
    join = lex.reason_join.search(f) if lex.reason_join is not None else None
    if join is None or len(tokens(f[:join.start()])) < F.HEAD_WORDS:
        return False
    return all(m.start() >= join.end() for m in moments)


#: the "X, not Y" frame: what it contrasts comes within this many characters after it
CONTRAST_REACH = 24


def _in_clause(folded: str, end: int, lex: Lexicon) -> bool:
    """An opener with no mark after it that its clause goes on from in a verb-second language
    ("Eigentlich haben wir 74 Stühle bestellt": without it the note would read as a question)."""
    rest = folded[end:].lstrip()
    return lex.verb_second and rest[:1].isalnum() and folded[:end].rstrip()[-1:].isalnum()


def correction_end(piece: Piece, lex: Lexicon) -> int | None:
    """Where the new fact of a correction starts in the sentence, or None when it corrects
    nothing: after a correction cue ("Correction:", "Me equivoqué:"); after a soft opener
    ("Actually,", "Perdón,", "En fait") when a statement naming something follows; at the start
    of a statement naming something in the "X, not Y" frame ("… is on Friday, not Thursday",
    "… a Córdoba, no a Rosario", "… has three cats, not two")."""
    f = piece.folded
    cue = lex.correction.match(f) if lex.correction else None
    if cue:
        return cue.end()
    soft = lex.soft_correction.match(f) if lex.soft_correction else None
    bare = lex.bare_no.match(f) if soft is None and lex.bare_no else None
    at = _skip_gap(f, soft.end()) if soft else _skip_gap(f, bare.end()) if bare else 0
    rest, frest = piece.text[at:], f[at:]
    if not rest.strip() or F.remember_cue_end(frest, lex, rest) is not None or kind_of(rest, frest, lex) is not Kind.STATEMENT:
        return None  # "Actually, remember that …" asks to keep
    if bare and _restates(rest, frest, lex):
        return at
    if soft and (F.is_specific(rest, frest, lex) or _named_subject(rest, frest, lex)):
        return at
    if soft and lex.mixup is not None and lex.mixup.search(frest):
        return at  # "Ah non, Ousmane est infirmier, pas pharmacien, j'ai confondu avec son cousin"
    versus = lex.contrast.search(frest) if lex.contrast else None
    if soft and versus is not None:
        return at  # "En fait, Moka a peur de l'aspirateur, pas de la sonnette": a soft opener and the frame
    if versus is not None:
        tail = rest[versus.end(): versus.end() + CONTRAST_REACH]
        if F.names_by_number_or_date(tail, fold(tail), lex) or F.names_by_capital(tail, lex) or _counts(tail, lex):
            return at
        if lex.mixup is not None and lex.mixup.search(frest, versus.end()):
            return at  # "Hannah is a nurse, not a midwife, I mixed her up with her sister"
    return None


def _restates(rest: str, frest: str, lex: Lexicon) -> bool:
    """Whether the clause after a bare "No," restates a fact: a subject that is no pronoun, a
    verb of the ``subject_end`` table, and a number, a date word or a name ("No, the dentist is
    Tuesday", "Nein, der Termin ist am Dienstag"); "No, I don't think so", "No, not yet" are
    answers."""
    if lex.subject_end is None or (lex.bare_no_not_before is not None and lex.bare_no_not_before.match(frest)):
        return False
    verb = lex.subject_end.search(frest)
    if verb is None or verb.start() == 0:
        return False
    after = rest[verb.end():]
    return F.names_by_number_or_date(after, fold(after), lex) or F.names_by_capital(after, lex)


def _named_subject(rest: str, frest: str, lex: Lexicon) -> bool:
    """Whether the clause opens on a name (after an article) and a verb of the ``subject_end``
    table: "Pixel est une chatte", "o Tobias é uma cadela" (a soft opener's plain fact)."""
    verb = lex.subject_end.search(frest) if lex.subject_end is not None else None
    if verb is None or verb.start() == 0:
        return False
    subject = rest[:verb.start()]
    return len(subject.split()) <= NAMED_SUBJECT_WORDS and F.names_by_capital(subject, lex)


#: at most this many words before the verb make a named subject ("o Tobias")
NAMED_SUBJECT_WORDS = 2


def _counts(tail: str, lex: Lexicon) -> bool:
    """Whether ``tail`` opens on a number word above one of the language's date table ("…, not
    two", "…, nicht sechs"); "one", "a", "un" are articles as often as numbers."""
    table = date_table(lex.code)
    words = tokens(fold(tail))
    return bool(table is not None and words and table.numbers.get(words[0], 0) > 1)


def _remember_cue(piece: Piece, lex: Lexicon) -> int | None:
    """Where the remember cue of the sentence ends, after a soft opener too ("Actually,
    remember that …", "Perdón, apunta que …"); a longer small-talk row at the start reads whole
    ("logging off for today" is a goodbye, not "logging" a note)."""
    hello = lex.small_talk.match(piece.folded) if lex.small_talk is not None else None
    verb = lex.remember.match(piece.folded) if lex.remember is not None else None
    if hello is not None and verb is not None and hello.end() > verb.end():
        return None
    cue = F.remember_cue_end(piece.folded, lex, piece.text)
    if cue is None and hello is not None and hello.end() < len(piece.folded):
        # "hey can u remember my shoe size is 44", "hola, ¿puedes apuntar que …": after a greeting
        at = _skip_gap(piece.folded, hello.end())
        inner = F.remember_cue_end(piece.folded[at:], lex, piece.text[at:])
        if inner is not None:
            return at + inner
    soft = lex.soft_correction.match(piece.folded) if cue is None and lex.soft_correction else None
    if soft is None:
        return cue
    at = _skip_gap(piece.folded, soft.end())
    inner = F.remember_cue_end(piece.folded[at:], lex, piece.text[at:])
    return None if inner is None else at + inner


def _skip_gap(f: str, pos: int) -> int:
    gap = _OPENER_GAP.match(f, pos)
    return gap.end() if gap else pos


def _is_file_change(piece: Piece, folded_all: str, text: str, lex: Lexicon) -> bool:
    """A request to write, edit or delete a file: its verb opens the sentence (after "please",
    "can you") and the message names a file (a file word or a file name)."""
    if lex.file_verb is None:
        return False
    f = piece.folded
    pos = _polite_end(f, lex)
    lead = _LEAD.match(f, pos)
    pos = lead.end() if lead else pos
    named = lex.file_verb_named is not None and lex.file_verb_named.match(f, pos) is not None
    if named and (common().file_name.search(piece.text) or _folder_and_name(f, lex) or _two_names(f)):
        return True  # "tack 'call the bank' onto todo.md", "get rid of trips/2022, the whole folder"
    if _noted_into_a_file(piece, pos, lex):
        return True  # "Apunta huevos en compras.md": a note put into the file named
    if not lex.file_verb.match(f, pos) and not (pos and lex.file_verb_late and lex.file_verb_late.search(f, pos)):
        # "Kannst du an tagebuch.md einen Absatz anhängen?": the verb last
        return _file_named_first(piece, lex) or _placed_first(piece, folded_all, text, lex)
    return bool((lex.file_noun and lex.file_noun.search(folded_all)) or common().file_name.search(text)
                or names_a_folder(f, lex) or _folder_and_name(f, lex) or _two_names(f))


def _noted_into_a_file(piece: Piece, pos: int, lex: Lexicon) -> bool:
    """Whether a note verb of the ``file_note_verbs`` table opens the sentence (no "that" after
    it) and a file name stands right after a word of ``file_into_words`` ("Jot down milk in
    groceries.md", "Notier Eier in einkauf.md"): the note goes into that file."""
    verb = lex.file_note.match(piece.folded, pos) if lex.file_note is not None else None
    if verb is None or (lex.that is not None and lex.that.match(piece.folded[verb.end():].lstrip(" ,"))):
        return False
    for name in common().file_name.finditer(piece.text, verb.end()):
        before = tokens(piece.folded[verb.end():name.start()])
        if before and before[-1] in lex.file_into:
            return True
    return False


#: a name-like token: word characters joined by "_", "-", "." or "/" (a path), or holding a digit
#: ("fotos_tmp", "tmp-exports", "screenshot_2019", "fotos/lixo"); a comma may stand before it
#: after "new" ("una carpeta nueva, facturas-luz")
_NAME_LIKE = re.compile(r"[\s,]*[\"'«“`]?(?:\w+[_./-]\w[\w./-]*|[^\W\d_]*\d\w*)")


def names_a_folder(f: str, lex: Lexicon) -> bool:
    """Whether a folder's noun with a name-like token right after it stands in the folded
    sentence ("la carpeta fotos_tmp", "le dossier captures_ecran_2021")."""
    return lex.folder_noun is not None and any(
        _NAME_LIKE.match(f, m.end()) for m in lex.folder_noun.finditer(f))


#: a name-like token anywhere: "old-scans", "archivio-2025", "viajes/2019"
_NAME_ANYWHERE = re.compile(r"(?<![\w./-])(?:\w+[_./-]\w[\w./-]*|[^\W\d_]*\d\w*)")


def _folder_and_name(f: str, lex: Lexicon) -> bool:
    """Whether a change request opening on a file verb names a folder and a name-like token
    anywhere in the sentence ("Delete the old-scans folder …", "Rinomina la cartella viaggi in
    viaggi-2026"); "Coloca a pasta de dentes na mala" names none."""
    return lex.folder_noun is not None and lex.folder_noun.search(f) is not None and bool(_NAME_ANYWHERE.search(f))


#: a name joined by "_" or "/" (a path): "drafts_old", "trips/2022"; a plain word or number is none
_JOINED_NAME = re.compile(r"(?<![\w./-])\w+[_/]\w[\w./-]*")


def _two_names(f: str) -> bool:
    """Whether a change request opening on a file verb names two joined names ("Rename drafts_old
    to drafts_2026", "Benenne rezepte_alt in rezepte_2026 um"); "Rename the meeting to Friday"
    names none."""
    return len(_JOINED_NAME.findall(f)) >= 2


#: a place lead before a file change ("Dans le dossier recettes, …") has at most this many words
PLACE_LEAD_WORDS = 6


def _placed_first(piece: Piece, folded_all: str, text: str, lex: Lexicon) -> bool:
    """A place naming a folder or a file before a comma, then a file change ("Dans le dossier
    recettes, crée un fichier gateaux.md", "Na pasta receitas, cria um ficheiro bolos.md"):
    the clause after the comma read as a request of its own; put as a question it asks."""
    cut = piece.text.find(",")
    if cut <= 0 or "?" in piece.text:
        return False
    head = piece.folded[:cut]
    named = common().file_name.search(piece.text[:cut]) or any(
        p is not None and p.search(head) for p in (lex.folder_noun, lex.file_noun))
    if not named or len(tokens(head)) > PLACE_LEAD_WORDS:
        return False
    at = _skip_gap(piece.folded, cut + 1)
    rest = Piece(piece.text[at:], piece.folded[at:])
    return "," in piece.text[:at] and _is_file_change(rest, folded_all, text, lex)


def without_courtesy(fact: str, lex: Lexicon) -> str:
    """A kept clause without the courtesy clause closing it ("…, I'd appreciate it", "…, te lo
    agradecería", "…, wär das super")."""
    m = lex.courtesy_tail.search(fold(fact)) if lex.courtesy_tail is not None else None
    return fact[:m.start()] if m and m.start() > 0 else fact


def _file_named_first(piece: Piece, lex: Lexicon) -> bool:
    """The file named before the verb: "Nel file note.md sostituisci …", "In notes.md replace …"
    (the verb right after the file), "Den letzten Eintrag in tagebuch.md bitte rausnehmen." (the
    verb last); a question ("In notes.md, what did I write?") is none."""
    named = common().file_name.search(piece.text)
    if named is None or lex.file_verb is None:
        return False
    f = piece.folded
    gap = _OPENER_GAP.match(f, named.end())
    at = gap.end() if gap else named.end()
    if lex.file_verb.match(f, at) or (lex.file_verb_named is not None and lex.file_verb_named.match(f, at)):
        return True
    # put as a question, the verb right after the file ("En gastos.md, ¿me cambias …?", "In
    # notes.md, can you replace …?"); "In notes.md, what did I write?" asks
    lead = _LEAD.match(f, at)
    at = lead.end() if lead else at
    if "?" in piece.text:
        at += _polite_end(f[at:], lex)
        lead = _LEAD.match(f, at)
        return bool(lex.file_verb.match(f, lead.end() if lead else at))
    last = f.rstrip(" .!…\"')»”")
    for verbs in (lex.file_verb_late, lex.file_verb, lex.file_verb_named):
        if verbs is None:
            continue
        for m in verbs.finditer(last[named.end():]):
            if named.end() + m.end() == len(last):
                return True
    return False


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


class LexiconReader:
    """A :class:`~openclaw_tui.language.reading.Reader` over the per-language tables."""

    def __init__(self, settings: ReaderSettings | None = None) -> None:
        self.settings = settings or ReaderSettings()
        self.languages = tuple(lang for lang in self.settings.languages if has_table(lang)) or TABLES

    def language_of(self, text: str, previous: str | None = None) -> str:
        return detect(text, previous=previous, pinned=self.settings.language, langs=self.languages)

    def read(self, text: str, *, previous: str | None = None) -> MessageReading:
        stripped = (text or "").strip()
        if not stripped or stripped.startswith("/"):
            return MessageReading(text=text, language="und", intent=Intent.UNKNOWN)
        lang = self.language_of(stripped, previous)
        if lang not in self.languages:
            return neutral_reading(text, lang)
        lex = lexicon(lang)
        reading = read_in(lex, text, previous)
        return with_examples(lex, reading) if self.settings.examples else reading

    def read_reply(self, text: str) -> ReplyReading:
        return read_reply_in(text, self.languages)


def read_reply_in(text: str, langs: tuple[str, ...]) -> ReplyReading:
    """What a reply says about memory, in any of ``langs`` (a reply's language need not be
    the user's)."""
    if not text or not text.strip():
        return ReplyReading()
    f = fold(text)
    found = guess(text, langs).language
    order = ((found,) if found in langs else ()) + tuple(lang for lang in langs if lang != found)
    claims = promises = cannot = False
    language = found if found in langs else ""
    for lang in order:
        lex = lexicon(lang)
        c, p = _save_and_promise(f, lex)
        n = bool(lex.cannot_answer and lex.cannot_answer.search(f))
        if (c or p or n) and not language:
            language = lang
        claims, promises, cannot = claims or c, promises or p, cannot or n
    return ReplyReading(claims_save=claims, promises_not_to_store=promises, cannot_answer=cannot,
                        language=language or "und")


def _clause_around(f: str, start: int, end: int) -> str:
    """The clause of ``f`` holding ``f[start:end]`` (cut at sentence marks and commas)."""
    lo = max(f.rfind(mark, 0, start) for mark in ".!?;,") + 1
    his = [i for i in (f.find(mark, end) for mark in ".!?;,") if i >= 0]
    return f[lo: min(his) if his else len(f)]


def _save_and_promise(f: str, lex: Lexicon) -> tuple[bool, bool]:
    """(claims a save, promises not to store) of a folded reply: "I saved the visit, but left
    the code out" is both; a save phrase inside a not-stored one ("ich notiere das nicht") is
    no claim; "not yet" ("Todavía no he guardado nada") promises nothing."""
    refusals = list(lex.not_store.finditer(f)) if lex.not_store else []
    promises = any(not (lex.not_yet and lex.not_yet.search(_clause_around(f, m.start(), m.end())))
                   for m in refusals)
    claims = any(not any(r.start() < m.end() and m.start() < r.end() for r in refusals)
                 for m in (lex.claims_save.finditer(f) if lex.claims_save else ()))
    return claims, promises


def read_in(lex: Lexicon, text: str, previous: str | None) -> MessageReading:
    """The reading of ``text`` with the table ``lex``."""
    folded = fold(text)
    pieces = [Piece(text[a:b], folded[a:b]) for a, b in spans(text, lex)]
    if _drops_a_named_file(folded, text, lex):
        return MessageReading(text=text, language=lex.code, intent=Intent.FILE_CHANGE,
                              private=bool(lex.private and lex.private.search(folded)), basis="cue")
    refusal = refusal_in(folded, text, lex)
    if refusal is not None:
        asks = any(kind_of(p.text, p.folded, lex) is Kind.QUESTION for p in pieces
                   if not _refuses(refusal, p.folded, lex))
        return MessageReading(text=text, language=lex.code, intent=Intent.DO_NOT_KEEP,
                              withheld=tuple(p.text for p in pieces), asks=asks, basis="cue")
    private = bool(lex.private and lex.private.search(folded))
    if private and lex.private is not None:
        pieces = [_without(p, lex.private, lex.question_tag) for p in pieces]
        pieces = [p for p in pieces if any(ch.isalnum() for ch in p.text)]
    return _compose(lex, text, pieces, previous, private)


def _refuses(found: Phrases, folded: str, lex: Lexicon, fix: int = 0) -> bool:
    """Whether a refusal of ``found`` stands in the folded text, not inside a remember cue that
    negates it ("don't forget what I told you" asks to keep; "forget what I told you" refuses),
    nor inside the correction cue opening a message that then names the new fact ("Oublie ce
    que j'ai dit, Kader arrive le 13" corrects); a refusal reaching past that cue reads whole
    ("Não é para anotar em lado nenhum:" is no "não é" correction)."""
    cues = list(lex.remember.finditer(folded)) if lex.remember is not None else []
    guarded = found is lex.refusal or found is lex.do_not_keep
    return any(not any(c.start() < m.start() < c.end() for c in cues) and not (fix and m.start() < fix and m.end() <= fix)
               and not (guarded and _said_by_me(folded, m.start(), lex)) for m in found.finditer(folded))


_CLAUSE_MARK = re.compile(r"[.,;:!?—–()]")


def _said_by_me(folded: str, at: int, lex: Lexicon) -> bool:
    """Whether a first-person subject stands before ``at`` in its clause: "Ich kann mir Namen
    nicht merken", "je ne peux pas le retenir" state; "nicht merken, bitte" refuses; a refusal
    opening on a joining word ("… but this stays out of your notes", "… mais ça reste hors de
    tes notes") is a clause of its own, and so is one opening on a dash ("… — deixa isso de fora")."""
    if lex.interjection is not None and (join := lex.interjection.match(folded[at:])) is not None and join.end() > 0:
        return False
    marks = [m.end() for m in _CLAUSE_MARK.finditer(folded, 0, at + 1)]
    head = folded[marks[-1] if marks else 0: at] if not marks or marks[-1] <= at else ""
    return bool(lex.subject_pronouns.intersection(tokens(head)))


def _correction_lead(folded: str, text: str, lex: Lexicon) -> int:
    """Where a correction cue opening the folded message ends, when a statement naming something
    follows it in the same sentence and names no secret ("Esquece o que eu disse, o Kaique chega
    dia 13"); else 0."""
    lead = _LEAD.match(folded)
    at = lead.end() if lead else 0
    cue = lex.correction.match(folded, at) if lex.correction is not None else None
    if cue is None or cue.end() == at or find_secrets(text):
        return 0  # "Forget what I said, my PIN is 4821" keeps nothing
    stop = min((i for i in (folded.find(mark, cue.end()) for mark in ".!?\n") if i >= 0), default=len(folded))
    clause, fclause = text[cue.end():stop], folded[cue.end():stop]
    return cue.end() if clause.strip(" ,:;-") and F.is_specific(clause, fclause, lex) else 0


_CLAUSE_CUT = re.compile(r"[,;:—–]\s*")


def _drops_a_named_file(folded: str, text: str, lex: Lexicon) -> bool:
    """Whether the message names a file and a later clause of it opens on a file verb of the
    table ("Die Datei alt.pdf kann weg, lösch sie", "Il vecchio.pdf buttalo via, cancellalo"):
    the "delete it" deletes that file, it withholds nothing; put as a question it asks."""
    named = common().file_name.search(text)
    if named is None or lex.file_verb is None or "?" in text:
        return False
    for cut in _CLAUSE_CUT.finditer(folded, named.end()):
        at = cut.end() + _polite_end(folded[cut.end():], lex)
        if lex.file_verb.match(folded, at) or (lex.file_verb_named is not None and lex.file_verb_named.match(folded, at)):
            return True
    return False


def refusal_in(folded: str, text: str, lex: Lexicon) -> Phrases | None:
    """The refusal list that withholds the message, or None: the table's own; the refusals of
    languages without a table (detection may give "Heslo je …, nikam si ho neukládej" to a
    table); beside a secret (a key, card, IBAN, a named PIN or password), the refusal of any
    table ("PIN 4821, no lo guardes" read as English still keeps nothing)."""
    fix = _correction_lead(folded, text, lex)
    for found in (lex.do_not_keep, common().do_not_keep, lex.refusal):
        if found is not None and _refuses(found, folded, lex, fix):
            return found
    if not find_secrets(text):
        return None
    for code in TABLES:
        other = lexicon(code)
        for found in (other.do_not_keep, other.refusal):
            if code != lex.code and found is not None and _refuses(found, folded, other if found is other.refusal else lex, fix):
                return found
    return None


def _without(piece: Piece, pattern: Phrases, tag: Phrases | None = None) -> Piece:
    """``piece`` without the marks ``pattern`` finds; a question tag left alone by the cut
    ("Isso fica só comigo, tá?", "Esto es solo para mí, ¿eh?") goes with the mark: the mark
    asked nothing."""
    text, f = piece.text, piece.folded
    for m in reversed(list(pattern.finditer(f))):
        text = F.cut(text, m.start(), m.end())
        f = fold(text)
    if text != piece.text and tag is not None and _only_a_tag(f, tag):
        return Piece("", "")
    return Piece(text, f)


def _only_a_tag(folded: str, tag: Phrases) -> bool:
    """Whether ``folded`` is a question tag and nothing else ("tá?", "¿eh?", "ok?")."""
    rest = folded.strip(" ¿¡?!.,;:-–—")
    if not rest or len(rest.split()) > TAG_ALONE_WORDS:
        return False
    m = tag.search(", " + rest + "?")
    return m is not None and m.start() == 0


def _compose(lex: Lexicon, text: str, pieces: list[Piece], previous: str | None, private: bool) -> MessageReading:
    facts: list[str] = []
    kinds: list[Kind] = []
    intent: Intent | None = None
    replaces: tuple[str, ...] = ()
    subject = ""  # a correction's new fact without an opener kept in its clause: what it replaces
    folded_all = fold(text)
    loose: list[str] = []  # statements naming nothing specific, waiting for the fact they go with
    joins: int | None = None  # the fact a following statement joins (the last one a statement made)
    asked_by_words = False  # a sentence asks by a word, a clause or a request, not by its mark alone
    for i, whole in enumerate(pieces):
        if laughing(whole, lex):  # "jajajaja me muero 😂": the laugh is not an opener before a remark
            kinds.append(Kind.SMALL_TALK)
            continue
        p = after_opener(whole, lex)
        if not any(ch.isalnum() for ch in p.text):  # "righto 👍": an emoji after the opener says nothing more
            kinds.append(Kind.SMALL_TALK)
            continue
        if intent is None and i == 0 and _is_file_change(p, folded_all, text, lex):
            return MessageReading(text=text, language=lex.code, intent=Intent.FILE_CHANGE, private=private,
                                  basis="cue")
        fix = correction_end(p, lex) if intent is None else None
        if fix is not None:
            intent = Intent.CORRECTION
            whole_clause = _in_clause(p.folded, fix, lex)
            new = F.tidy(p.text[0 if whole_clause else fix:])
            if len(new) >= F.MIN_CUE_FACT:
                facts.append(new)
                if whole_clause and not subject:
                    subject = F.tidy(p.text[fix:])
            kinds.append(Kind.STATEMENT)
            continue
        cue = _remember_cue(p, lex)
        if cue is not None and intent in (None, Intent.REMEMBER):
            intent = Intent.REMEMBER
            fact = F.tidy(without_courtesy(p.text[cue:], lex))
            if len(fact) >= F.MIN_CUE_FACT:
                facts.append(fact)
            kinds.append(Kind.STATEMENT)
            continue
        kind = _piece_kind(p, whole, kinds, lex)
        kinds.append(kind)
        if kind is Kind.REQUEST or kind is Kind.QUESTION and _asks_by_words(p.text, lex):
            asked_by_words = True
        if kind is Kind.STATEMENT:
            told = intent in (Intent.CORRECTION, Intent.REMEMBER) or private
            if told and len(p.text.strip()) >= F.MIN_CUE_FACT or len(whole.text) >= F.MIN_CHARS and F.is_specific(
                    whole.text, whole.folded, lex) or F.a_habit(whole.text, whole.folded, lex):
                facts.append(" ".join([*loose, F.tidy(p.text) if told else whole.text.strip()]))
                loose = []
                joins = len(facts) - 1
            elif len(whole.text.strip()) >= F.MIN_CHARS and F.content_words(whole.text, lex):
                if joins is not None and joins == len(facts) - 1:
                    # a statement after a fact says more about it ("My neighbour is Gerda Berger. She
                    # waters our plants when we travel."): kept with it, where its "she" has a name
                    facts[-1] = f"{facts[-1]} {whole.text.strip()}"
                else:
                    loose.append(whole.text.strip())  # one before a fact goes with it
        elif kind is Kind.QUESTION:
            inner = F.fact_in_question(p.text, p.folded, lex)
            if inner:
                facts.append(inner)
    if intent is Intent.CORRECTION and facts:
        replaces = F.subject_words(subject or facts[0], lex)
    asks = any(k in (Kind.QUESTION, Kind.REQUEST) for k in kinds)
    basis = "cue"
    if intent is None:
        intent = _intent_of(kinds)
        basis = {Intent.QUESTION: "asked" if asked_by_words else "mark", Intent.STATEMENT: "default",
                 Intent.UNKNOWN: ""}.get(intent, "cue")
        if intent is Intent.QUESTION and (recall_lead(folded_all, lex) or F.asks_to_recall(folded_all, lex, text)):
            basis = "recall"  # a recall idiom or question asks to look up, never to keep ("Puxa pela memória: o que …")
    # "Read USER.md for me": a request about a named file is answered by reading it, not by a lookup
    looks_up = any(k is Kind.QUESTION or (k is Kind.REQUEST and not common().file_name.search(p.text))
                   for k, p in zip(kinds, pieces))
    query = _query(lex, text, previous) if looks_up else ""
    follow_up = looks_up and not F.content_words(_strip_search(lex, text), lex)
    return MessageReading(text=text, language=lex.code, intent=intent, facts=_unique(facts), query=query,
                          follow_up=follow_up, asks=asks, private=private, replaces=replaces, basis=basis)


def _piece_kind(p: Piece, whole: Piece, kinds: list[Kind], lex: Lexicon) -> Kind:
    """What a sentence (``p``, after its opener; ``whole``, with it) is, after the sentences before it."""
    kind = kind_of(p.text, p.folded, lex)
    if kind is Kind.QUESTION and kinds and all(k is Kind.SMALL_TALK for k in kinds) and asks_after_listener(p, lex):
        return Kind.SMALL_TALK  # "hiya! hows life treating you on your end?"
    if kind is Kind.STATEMENT and p is not whole and _asks_after_lead(whole.text, whole.folded, lex):
        return Kind.QUESTION  # "Y lo de la gotera, qué quedamos …": the "and" cut opens the topic
    return kind


def _asks_by_words(s: str, lex: Lexicon) -> bool:
    """Whether a sentence read as a question still asks without its question marks."""
    bare = s.strip().rstrip(" \"'”»)?？").lstrip(" ¿")
    return bool(bare) and _asks(bare, fold(bare), lex)


def with_examples(lex: Lexicon, reading: MessageReading) -> MessageReading:
    """The reading, or where the tables' decision is weak (``examples.YIELDS``: a statement by
    default, a question) and the classifier trained on the labelled examples says remember or
    small talk with confidence ≥ ``examples.THRESHOLD``, the reading of that intent: a request to
    keep keeps the clause after the request (the tables' remember verbs and "that" words in a
    question, a colon) and is not taken when there is none; small talk keeps nothing and asks
    nothing, and is not taken over a message that names a time or a number ("… am Montag?") or
    tells a fact the keep table names ("Sono diabetico, …")."""
    allowed = EX.YIELDS.get(reading.basis, ())
    if not allowed:
        return reading
    got, confidence = EX.shipped().predict(reading.text)
    if got == reading.intent.value or got not in allowed or confidence < EX.THRESHOLD:
        return reading
    text = reading.text
    if got == Intent.SMALL_TALK.value:
        if _names_a_time_or_number(text, lex):  # "Servus! Alles klar mit dem Termin am Montag?" asks
            return reading
        if any(F.worth_keeping(fold(fact), lex) for fact in reading.facts):
            return reading  # "Sono diabetico, la frutta secca va bene?": a lasting fact told, then asked
        return MessageReading(text=text, language=lex.code, intent=Intent.SMALL_TALK, private=reading.private,
                              basis="examples")
    if got == Intent.REMEMBER.value:
        if reading.private:  # "Tienilo per te, per piacere: …": the keep verb asked who may see it
            return reading
        kept = _kept_by_request(lex, text, by_verb=reading.basis != "default")
        if not kept:  # nothing the tables can tell apart from the request: "Busca en mis notas lo que …"
            return reading
        return MessageReading(text=text, language=lex.code, intent=Intent.REMEMBER, facts=kept,
                              private=reading.private, basis="examples")
    return reading


def _names_a_time_or_number(text: str, lex: Lexicon) -> bool:
    """A specific token (a digit, an e-mail, a file …) or one of the table's date words."""
    return bool(F.SPECIFIC_RE.search(text) or (lex.date_words and lex.date_words.search(fold(text))))


def _kept_by_request(lex: Lexicon, text: str, *, by_verb: bool) -> tuple[str, ...]:
    """What a request to keep that the tables did not read as one asks to keep: in a question
    (``by_verb``), the clause after a remember verb and its "that" ("Would you be a star and
    remember that …?"); else, and in a statement only, after a colon ("Grave-toi ça quelque
    part : …") — a statement naming a remember verb with no colon tells of remembering ("I
    remembered that …", "J'oublie pas que …"); nothing when neither is there (the request words
    are never kept)."""
    folded = fold(text)
    for m in lex.remember.finditer(folded) if lex.remember is not None and by_verb else ():
        end = F.remember_cue_end(folded[m.start():], lex, text[m.start():])
        if end is not None:
            fact = F.tidy(text[m.start() + end:])
            if len(fact) >= F.MIN_CUE_FACT:
                return (fact,)
    colon = text.find(":")
    if colon > 0:
        fact = F.tidy(text[colon + 1:])
        if len(fact) >= F.MIN_CUE_FACT:
            return (fact,)
    return ()


def _intent_of(kinds: list[Kind]) -> Intent:
    if any(k in (Kind.QUESTION, Kind.REQUEST) for k in kinds):
        return Intent.QUESTION
    if Kind.STATEMENT in kinds:
        return Intent.STATEMENT
    if Kind.SMALL_TALK in kinds:
        return Intent.SMALL_TALK
    if Kind.CHIT_CHAT in kinds:
        return Intent.STATEMENT
    return Intent.UNKNOWN


def _strip_search(lex: Lexicon, text: str) -> str:
    stripped = text.strip()
    m = lex.search_prefix.match(fold(stripped)) if lex.search_prefix else None
    return (stripped[m.end():].lstrip(" :,.-") if m else stripped) or stripped


def _query(lex: Lexicon, text: str, previous: str | None) -> str:
    """What auto-recall searches: the message without a "search your memory" lead-in; a
    follow-up with no words of its own gets the message before it in front."""
    query = _strip_search(lex, text)
    if previous and previous.strip() and not F.content_words(query, lex):
        before = _strip_search(lex, previous)
        room = QUERY_CAP - len(query) - 1
        if room > 0:
            query = f"{before[-room:] if len(before) > room else before} {query}"
    return query[:QUERY_CAP]
