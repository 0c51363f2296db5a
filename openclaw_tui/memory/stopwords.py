"""Words that carry no topic in a memory query, per language (DESIGN §4 keyword extraction).

English, Spanish, Portuguese and Arabic words are matched against whole word tokens.
Chinese, Japanese and Korean are written without spaces between words (Korean: without
spaces between a word and its particles), so their lists are also used to cut a CJK run
apart before it is split into bigrams (see ``query.query_terms``).

Words that are also ordinary English words (Spanish "son", "sin", "hay", "era"…) are left out
of the other languages' lists: a stopword is dropped from every query, whatever its language.
"""

from __future__ import annotations

# English function words and question words.
EN = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been before being
    below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
    during each either else ever few for from further had hadn't has hasn't have haven't having he he'd
    he'll he's her here here's hers herself him himself his how how's however i i'd i'll i'm i've if in
    into is isn't it it's its itself just let's like me might more most much must mustn't my myself no
    nor not now of off on once only or other ought our ours ourselves out over own per really same shall
    shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs them
    themselves then there there's these they they'd they'll they're they've this those through to too
    under until up upon us very via was wasn't we we'd we'll we're we've were weren't what what's when
    when's where where's whether which while who who's whom whose why why's will with won't would
    wouldn't yet you you'd you'll you're you've your yours yourself yourselves
    also anything something everything nothing thing things kind sort get got gets getting
    tell told know knew let please recall remember remind find show give us one ones
    """.split()
)

# Spanish: articles, pronouns, prepositions, auxiliaries, vague time words, question words.
ES = frozenset(
    """
    el la los las un una unos unas lo del este esta estos estas ese esa esos esas aquel aquella
    yo tú tu mí mi mis me te se nos nosotros nosotras vosotros usted ustedes él ella ellos ellas su sus
    nuestro nuestra
    de a en con por para sobre entre hasta desde según hacia y e o u ni pero sino si porque como
    que qué quién quien cuál cual cómo cuándo cuando dónde donde cuánto
    es está están estaba fue fueron ser estar haber he ha han había tener tengo tiene hacer hizo
    ayer hoy mañana antes después despues ahora luego recientemente ya todavía
    algo nada cosa cosas favor ayuda dime muéstrame
    """.split()
)

# Portuguese, same groups.
PT = frozenset(
    """
    o a os as um uma uns umas este esta estes estas esse essa esses essas aquele aquela isso isto
    eu me mim meu minha meus minhas tu te você vocês ele ela eles elas nós nos seu sua seus suas
    de do da dos das em no na nos nas com por pelo pela para sobre entre até desde sem e ou nem mas
    se porque como
    que quê quem qual quando onde quanto
    é está estão estava foi foram ser estar há haver tem tinha fazer fez
    ontem hoje amanhã antes depois agora recentemente já ainda
    algo nada coisa coisas favor ajuda
    """.split()
)

# Arabic: connectors, pronouns, prepositions, auxiliaries, vague time words, question words.
AR = frozenset(
    """
    و أو ثم لكن بل ف
    أنا نحن أنت أنتم هو هي هم هذا هذه ذلك تلك هنا هناك الذي التي الذين
    من إلى الى في على عن مع بين حتى عند منذ
    كان كانت يكون تكون ليس قد لقد يمكن
    أمس امس بالأمس اليوم غدا الآن الان قبل بعد مؤخرا
    ماذا ما لماذا كيف متى أين هل أي
    شيء فضلك فضلا ساعدني
    """.split()
)

# Chinese (simplified and traditional forms of the common ones).
ZH = frozenset(
    """
    我 我们 你 你们 他 她 它 他们 她们 这 那 这个 那个 这些 那些 這 這個 那個 這些 那些 我們 你們 他們
    的 了 着 過 过 吗 嗎 呢 吧 啊 呀 嘛 啦
    是 有 在 被 把 给 給 让 讓 和 与 與 或 但 但是 因为 因為 所以 如果 也 都 就 还 還 又 再 才 只
    之前 以前 之后 之後 以后 以後 刚才 剛才 现在 現在 昨天 今天 明天 最近 上次
    东西 東西 事情 什么 什麼 哪个 哪個 哪些 怎么 怎麼 为什么 為什麼 多少 一下
    请 請 帮 幫 帮忙 幫忙 告诉 告訴 记得 記得 提到 说过 說過
    """.split()
)

# Japanese: demonstratives, auxiliaries, particles written in kana, vague time words.
JA = frozenset(
    """
    これ それ あれ どれ この その あの どの ここ そこ あそこ どこ
    する した して します しました です でした ます いる いた ある あった なる できる
    の は が を に で と も へ や から まで より だけ こと もの ため そして しかし また でも について
    なぜ どう 何 なに いつ 誰 だれ
    昨日 今日 明日 最近 今 さっき 前 後 この前
    教えて ください 覚えて
    """.split()
)

# Korean: particles, pronouns, vague nouns and adverbs, conjunctions, question and time words.
KO = frozenset(
    """
    은 는 이 가 을 를 의 에 에서 로 으로 와 과 도 만 까지 부터 한테 에게 께 처럼 보다 마다
    나 나는 내가 너 우리 저 저희 그 그녀 그들 이것 저것 그것 여기 저기 거기
    있다 없다 하다 되다 이다 것 거 등 수 때 곳 중
    잘 더 또 매우 정말 아주 많이 너무 좀 그리고 하지만 그래서 그런데 그러나 또는
    왜 어떻게 뭐 언제 어디 누구 무엇 어떤 어제 오늘 내일 최근 지금 아까 전에
    """.split()
)

#: Korean particles that follow a noun without a space, longest first.
KO_PARTICLES = tuple(
    sorted(
        "은 는 이 가 을 를 의 에 에서 로 으로 와 과 도 만 까지 부터 한테 에게 처럼 보다 마다 이랑 랑".split(),
        key=len,
        reverse=True,
    )
)

#: every language's stopwords; a token in here is never a search term
ALL = EN | ES | PT | AR | ZH | JA | KO

#: multi-character stopwords of the unspaced scripts, longest first: they cut a CJK run
#: apart ("之前讨论" → "讨论"). Single characters are too often part of a word to cut on.
CJK_CUTS = tuple(sorted((w for w in ZH | JA | KO if len(w) >= 2), key=len, reverse=True))
