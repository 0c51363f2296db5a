"""The seeded values a conversation of ``eval survival`` fills its sentences with: hosts,
codes, names, amounts, times, and secrets of real shapes (an API key, a card number that
passes Luhn, an IBAN with valid check digits, a PIN). Language-neutral; how a value is
written in a language (thousands separator, a 12- or 24-hour clock) comes from that
language's material (``data/<lang>.json``).

    v = draw(random.Random(7), fmt=Formats(thousands=".", clock="24h"), iban_country="ES")
    v["host"], v["card"], luhn_ok(v["card"])
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

FIRST = ("Priya", "Tomas", "Aiko", "Lena", "Rahul", "Marta", "Jonas", "Chloe", "Kwame", "Sofia", "Dmitri", "Nadia",
         "Oscar", "Ines", "Yusuf", "Greta", "Mateo", "Hana", "Felix", "Amara")
LAST = ("Raman", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Oliveira", "Brandt", "Novak", "Haddad", "Castillo",
        "Kowalski", "Achterberg", "Mensah", "Varga", "Petrov", "Sato", "Quintero", "Falkenrath", "Zielinski", "Abernethy")
PROJECTS = ("Atlas", "Harbor", "Kestrel", "Juniper", "Beacon", "Orchid", "Falcon", "Meridian", "Quarry", "Willow")
#: invented company names: a withheld value that can appear in no template file by chance
COMPANIES = ("Veltrano", "Quorvix", "Brindlemoor", "Sarkanto", "Ottervale", "Zumbrella", "Calvinor", "Pexaroni")
CITIES = ("east", "west", "north", "paris", "oslo", "lagos", "lima", "kyoto", "dublin", "austin")
DOMAINS = ("acme", "corpnet", "initech", "globex")

#: length of the national part of an IBAN (after the country and check digits), and its letters
IBAN_LAYOUT = {"GB": "AAAA" + "9" * 14, "ES": "9" * 20, "DE": "9" * 18, "FR": "9" * 23, "PT": "9" * 21,
               "IT": "A" + "9" * 10 + "9" * 12}


@dataclass(frozen=True)
class Formats:
    thousands: str = ","  # "43,500" / "43.500" / "43 500"
    clock: str = "12h"  # "5:40 pm" or "17:40"


def luhn_ok(number: str) -> bool:
    """Whether the digits of ``number`` pass the Luhn check (spaces and dashes aside)."""
    digits = [int(c) for c in number if c.isdigit()]
    if len(digits) < 12:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def card_number(r: random.Random) -> str:
    """A 16-digit card number (a 4 lead, like a Visa) that passes Luhn, in groups of four."""
    body = [4] + [r.randint(0, 9) for _ in range(14)]
    for check in range(10):
        if luhn_ok("".join(map(str, body + [check]))):
            digits = "".join(map(str, body + [check]))
            return " ".join(digits[i:i + 4] for i in range(0, 16, 4))
    raise AssertionError("no Luhn digit")  # pragma: no cover - one of ten always fits


def _iban_number(text: str) -> int:
    return int("".join(str(int(c, 36)) for c in text))


def iban_ok(iban: str) -> bool:
    """Whether ``iban`` (spaces aside) has valid ISO 13616 check digits."""
    compact = iban.replace(" ", "").upper()
    return len(compact) > 4 and compact[:2].isalpha() and _iban_number(compact[4:] + compact[:4]) % 97 == 1


def iban(r: random.Random, country: str) -> str:
    """An IBAN of ``country``'s length with valid check digits, in groups of four."""
    national = "".join(r.choice(string.ascii_uppercase) if c == "A" else str(r.randint(0, 9)) for c in IBAN_LAYOUT[country])
    check = 98 - _iban_number(national + country + "00") % 97
    compact = f"{country}{check:02d}{national}"
    return " ".join(compact[i:i + 4] for i in range(0, len(compact), 4))


def api_key(r: random.Random) -> str:
    return "sk-" + "".join(r.choice(string.ascii_letters + string.digits) for _ in range(32))


def pin(r: random.Random) -> str:
    """Four digits that read as no year and repeat no digit pattern (never in a template by chance)."""
    while True:
        value = f"{r.randint(3000, 9899)}"
        if len(set(value)) >= 3:
            return value


def clock(hour: int, minute: int, fmt: Formats) -> tuple[str, tuple[str, ...]]:
    """A time as the language writes it and the other spellings an answer may use."""
    h12 = hour % 12 or 12
    ampm = "pm" if hour >= 12 else "am"
    forms = (f"{hour}:{minute:02d}", f"{hour}h{minute:02d}", f"{hour}.{minute:02d}", f"{h12}:{minute:02d}{ampm}",
             f"{h12}:{minute:02d} {ampm}")
    said = f"{h12}:{minute:02d} {ampm}" if fmt.clock == "12h" else f"{hour}:{minute:02d}"
    return said, forms


def amount(n: int, fmt: Formats) -> str:
    return f"{n:,}".replace(",", fmt.thousands)


def draw(r: random.Random, *, fmt: Formats, iban_country: str) -> dict[str, str]:
    """One conversation's values, each slot distinct; ``*_forms`` hold other spellings (``|``-joined)."""
    first, last = r.sample(FIRST, 3), r.sample(LAST, 4)
    hour, minute = r.randint(13, 21), r.choice((5, 15, 20, 35, 40, 50))
    time_said, time_forms = clock(hour, minute, fmt)
    rooms = r.sample(range(100, 499), 3)
    letters = r.sample("ABCDE", 3)
    counts = r.sample(range(13, 87), 3)
    new_hour = r.randint(9, 20)
    new_said, new_forms = clock(new_hour, (minute + 30) % 60, fmt)
    old_said, old_forms = clock(new_hour - r.randint(1, 2) if new_hour > 10 else new_hour + 2, minute, fmt)
    v = {
        "host": f"vpn-{r.choice(CITIES)}-{r.randint(2, 98)}.{r.choice(DOMAINS)}.net",
        "amount": amount(r.randint(11, 97) * 1000 + r.randint(1, 9) * 100, fmt),
        "first": first[0], "first2": first[1], "first3": first[2], "last": last[0], "last2": last[1], "last3": last[2], "last4": last[3],
        "project": r.choice(PROJECTS),
        "code": f"{r.choice(('FIN', 'OPS', 'MKT', 'ENG'))}-{r.randint(1000, 9999)}-{r.choice('ABCDEFGHJK')}",
        "room": f"{letters[0]}{rooms[0]}", "new_room": f"{letters[1]}{rooms[1]}", "old_room": f"{letters[2]}{rooms[2]}",
        "ext": str(r.randint(2000, 2999)),
        "flight": f"{r.choice(('LH', 'BA', 'KL', 'AF', 'IB', 'TP', 'AZ'))}{r.randint(100, 2999)}",
        "ticket": f"INC-{r.randint(10000, 99999)}",
        "count": str(counts[0]), "new_count": str(counts[1]), "old_count": str(counts[2]),
        "time": time_said, "time_forms": "|".join(time_forms),
        "new_time": new_said, "new_time_forms": "|".join(new_forms),
        "old_time": old_said, "old_time_forms": "|".join(old_forms),
        "anchor": f"{r.choice('KLMNPRST')}-{r.randint(1000, 4999)}", "anchor2": f"{r.choice('KLMNPRST')}-{r.randint(5000, 9999)}",
        "company": r.choice(COMPANIES),
        "locker": str(r.randint(100000, 999999)),
        "api_key": api_key(r), "card": card_number(r), "iban": iban(r, iban_country), "pin": pin(r),
    }
    return v
