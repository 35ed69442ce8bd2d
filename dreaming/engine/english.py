"""English clause rules: where a self-disclosure clause starts and ends, what disqualifies it, and its
statement, category and implied facts ("my two brothers" → the user has two brothers)."""
from __future__ import annotations

import re

from dreaming.engine.language import content_tokens
from dreaming.engine.third_person import conjugate, to_third_person_en

_SUBJ = r"(?:I|i|I'm|I’m|i'm|Im|im|I m|[Ii]am|I've|I’ve|i've|Ive|I'd|I’d|I'll|I’ll|[Mm]y|MY)"

# Where a new first-person clause starts inside a sentence.
EN_CLAUSE_SPLIT_RE = re.compile(
    rf"(?:,|;|:|\s-\s|\s–\s|(?<=\w)[-–—]\s+)\s*(?:(?:and|but|so|because|cause|since|though|although|plus|then|now)\s+)?"
    rf"(?={_SUBJ}\b)|(?<=\w)[-–—]\s+(?=[Ww]e\b(?!'d|’d| would| could| should| might| can))"
    rf"|\s+(?:and|but|so|because|cause|since|though|although|plus|while|as|now that|&)\s+(?:(?:yes|yeah|no|well|also|now),?\s+)?(?=(?:{_SUBJ}|[Ww]e|[Ww]e've)\b)"
    r"|\s+and\s+(?=(?:also\s+|usually\s+|often\s+|really\s+)?(?:am|have|love|like|enjoy|hate|prefer|play|watch|"
    r"listen|read|work|live|own|go|do|take|spend|make|cook|bake|write|run|ride|drive|teach|study|collect|sing|"
    r"dance|draw|paint|travel|hike|swim|fish|hunt|volunteer|got|went|moved|started|bought|"
    # a second past-tense verb of the same "I": "I took your advice and watched The Lord of the Rings"
    r"watched|tried|finished|visited|explored|joined|won|met|saw|made|took|ran|played|learned|signed up|adopted|baked|cooked|painted|wrote|built|found|decided|ended up|had)\b)"
    # "The hardest part is that we had to say goodbye to Max": what follows "is that" is the news
    r"|\s+(?:is|was)\s+that\s+(?=(?:I|I've|I’ve|I'm|I’m|we|my)\b)"
    # a dropped "I" after a dash or a semicolon: "Been quite a ride - had an audition yesterday"
    r"|(?:\s[-–—]\s|(?<=\w)[-–—]\s+|;\s*)(?=(?:just\s+)?(?:had|got|went|finished|started|took|made|won|bought|"
    r"visited|joined|moved|booked|signed up)\s)"
    r"|,?\s+but\s+|,\s*(?:do|did|are|have|what|how|where|which|who|would|can|could|is)\s+you\b.*$"
    r"|[,\s]+(?:what|how) about you\b.*$|,\s*(?:and )?(?:you|yours|u)\s*\?.*$",
)

LEAD_FILLER_RE = re.compile(
    r"^(?:(?:oh|ah|aw|aww|wow|haha+|hah|lol|lmao|hehe|well|yes|yeah|yea|yep|yup|no|nope|nah|hi|hello|hey|fine|"
    r"cool|nice|neat|great|awesome|sure|ok|okay|alright|hmm+|um+|uh|so|and|but|also|actually|honestly|"
    r"anyway|anyways|really|true|right|same|me too|same here|good|thanks|thank you|that's cool|that's great|"
    r"that's awesome|that is cool|that sounds (?:fun|great|nice|awesome)|i see|interesting|oh wow|"
    r"definitely|absolutely|of course|exactly|indeed|wait|hmm|fair enough|not really|not much|sounds good|"
    r"i agree|to be honest|tbh|personally|funny|ha|omg|gosh|yikes|sorry|i know|you know|i mean|"
    r"i think|i guess|i believe|i suppose|i feel like|i would say|i'd say|i have to say|i must say|"
    r"that's why|thats why|which is why|that is why|now|then|because|cause|since|though|although|"
    r"i get that|i hear you|i feel you|i know right|i'm sure|i am sure|i bet|i'm great thanks|"
    r"i see what you mean|i understand|doing (?:ok|okay|good|great|well|fine|alright|pretty good)(?: here)?|"
    r"not bad|pretty good|not much|i'm (?:good|great|fine|ok|okay|doing (?:well|good|great|ok|okay|fine))|"
    r"i am (?:good|great|fine|ok|okay|doing (?:well|good|great|ok|okay|fine))|hi there|hello there|hey there|maybe that's why|maybe thats why|"
    r"that's probably why|probably because|well then|good to know|thank you|thanks|awe|aww+|"
    r"i (?:just |recently |finally )?(?:learned|learnt|realized|realised|found out|discovered|noticed) that|"
    r"i (?:gotta|got to|have got to) say|gotta say|"
    # "I found out recently I'm allergic to cockroaches": what was found out is the disclosure
    r"i (?:learned|learnt|realized|realised|found out|discovered|noticed)(?: recently| lately| today| last \w+)?"
    r"(?= (?:I|I'm|I’m|I've|I’ve|my)\b)|"
    # when it happened, said first: "Last week I won my second tournament" (the message's date keeps the when)
    r"last (?:week|weekend|month|year|night|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday)|yesterday|just yesterday|the other day|earlier today|this (?:morning|afternoon)|"
    r"recently|lately|a (?:few|couple of) (?:days|weeks|months) ago|(?:two|three|\d+) (?:days|weeks|months) ago|"
    # a plan's time said first: "Next month I'm having an art show" (extract.py puts it back in the statement)
    r"next (?:week|weekend|month|year|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)|this (?:coming )?(?:weekend|summer|winter|spring|fall|autumn|friday|saturday|sunday)|"
    r"tomorrow|tonight|later today|soon)"
    r"(?:[\s,!.…:;-]+|$))+",
    re.IGNORECASE,
)

EN_START_RE = re.compile(rf"^{_SUBJ}\b")

# In English the word after "I" is (nearly always) a verb or an adverb before one: "I fix computers",
# "I immigrated from Britain". Opinion and conversation verbs are turned away by _EN_GENERIC_RE.
_EN_ANY_VERB_RE = re.compile(r"^(?:I|i)\s+[A-Za-z]{2,}\b")

_EN_GENERIC_RE = re.compile(
    r"^(?:I|i)(?:'m|’m| am)?\s+(?:(?:really|just|so|very|totally|also|too)\s+)*"
    r"(?:think|guess|see|know|agree|mean|understand|believe|suppose|bet|wonder|was wondering|hear|"
    r"heard(?! (?:some|a|an|many|lots of|stories|the story)\b)|"
    r"can imagine|can't imagine|cannot imagine|can see|can tell|get it|get that|feel you|hope so|"
    r"hope you|love that|like that|love it|like it|love this|like this|love those|love them|"
    r"sure|not sure|glad|sorry|afraid|kidding|joking|fine|good|ok|okay|great|well|"
    r"doing(?!\s+(?:some |a lot of |a bit of )?(?:\w+ing|yoga|pilates|karate|judo|crossfit|art|crafts|research|volunteer work|"
    r"charity|my (?:own|first|best|masters?|phd)|an? (?:\w+ )?(?:course|class|degree|program|internship|project|marathon|"
    r"triathlon|workshop))\b)|"
    r"have a question|have an idea|have no idea|have to go|have to say|have to ask|must say|would say|"
    r"don't know|dont know|do not know|didn't know|did not know|don't think|dont think|can't wait|"
    r"can relate|totally agree|have heard|hadn't|haven't heard|forgot|remember that|'m here|am here|"
    r"was going to|'m going to ask|am going to ask|appreciate|thank|would love to hear|"
    r"would like to know|want to know|'d like to know|wanted to ask|want to ask|have never heard|"
    r"have not heard|hope that|hope it|hope they|hope he|hope she|do too|am too|have too|did too|"
    r"am a big fan|am a fan|'m a big fan|'m a fan|am the same|'m the same|was the same|was thinking|"
    r"do as well|do!?$|am!?$|have!?$|did!?$|love!?$|like!?$|dunno|reckon|assume|doubt|admit|promise|swear|"
    r"apologi[sz]e|recommend|suggest|realize|realise|notice|noticed|gotta go|love you|hate to say|"
    r"say|said|told you|mean it|was just (?:saying|kidding|joking|wondering|asking|curious)|"
    r"hope(?! to)|could|would|should|(?:might|may)(?! have (?:just )?(?:found|got|gotten|landed|booked|met|bought|sold)\b)|must|will have to|'ll have to|’ll have to|'ll (?:check|look|try|give)|"
    r"will (?:check|look|try|give)|'ll be (?:more than )?happy|will be (?:more than )?happy)\b",
    re.IGNORECASE,
)

# Replies to the other side's news or advice: "I'll have to try it", "I can't wait", "I would like to do that".
_EN_REACTION_RE = re.compile(
    r"^(?:I|i)(?:'ll|’ll| will| would| 'd|'d|’d)\s+(?:have to|check|look|try|give|keep|think about|love to (?:see|hear|try))\b|"
    r"^(?:I|i)\s+(?:cant|can't|cannot)\s+wait\b|^(?:I|i)\s+(?:\w+\s+)?feel\s+(?:that way|the same)\b|"
    r"^(?:I|i)(?:'d|’d| would)\s+(?:like|love)\s+to\s+(?:do|try|see|hear|visit)\s+(?:that|it|this|them)\b",
    re.IGNORECASE,
)
# A state of the moment is small talk, not something to remember: "I'm so jealous", "I am busy today".
_EN_MOMENT_RE = re.compile(
    r"^(?:I|i)(?:'m|’m| am| m|m| was|'ve been|’ve been| have been| ve been)\s+(?:(?:so|very|really|pretty|just|a bit|a little|kinda|too|quite|"
    r"super|totally|not)\s+)*(?:busy|tired|jealous|bored|excited|happy|sad|sorry|glad|good|great|fine|ok|okay|"
    r"well|hungry|sleepy|exhausted|stressed|curious|confused|impressed|surprised|envious|lucky|"
    r"relaxing|chilling|here|back|home|ready|done|listening|thinking|wondering|waiting|trying|sure|"
    r"too old for that|old|scared|afraid|nervous|worried|jealous|sick of it)\b"
    r"(?:\s+(?:right now|today|tonight|now|lately|this week|at the moment|lol|haha|to hear that|about that|for you))?\s*$",
    re.IGNORECASE,
)

# What the user is doing this minute: "I'm just looking out at the desert", "I was just watching a movie".
EN_RIGHT_NOW_RE = re.compile(
    r"^(?:I|i)(?:'m|’m| am| m|m| was)\s+just\s+(?!started|moved|got|graduated|finished school)\w+ing\b|"
    r"^(?:I|i)(?:'m|’m| am| m|m)\s+(?:just\s+)?(?:off to|about to|heading (?:out|off|to bed)|getting ready to)\b|"
    r"^(?:I|i)(?:'ll|’ll| will| am going to|'m going to|’m going to|'m gonna| am gonna)\s+(?:go\s+)?"
    r"(?:go|head|get|grab|make|take|watch|eat|have|try|sleep|rest|relax)\b.*\b(?:now|tonight|later|today|soon)\b",
    re.IGNORECASE,
)

_EN_QUESTION_INSIDE_RE = re.compile(
    r"[,\s]+(?:what|how|where|which|who|why|when|can you|could you|would you|do you|did you|are you|have you|"
    r"any (?:tips|ideas|advice|suggestions))\b",
    re.IGNORECASE,
)

_EN_QUESTION_START_RE = re.compile(
    r"^(?:do|does|did|are|is|was|were|have|has|can|could|would|will|should|what|why|how|where|when|who|"
    r"which|whats|what's|how's|any)\b",
    re.IGNORECASE,
)

EN_HYPOTHETICAL_RE = re.compile(
    r"^(?:if|unless|suppose|imagine|what if|pretend|in case|maybe|perhaps)\b|"
    r"\b(?:suppose|imagine|what if|pretend|maybe|perhaps|someday)\b|"
    r"^(?:I|i)(?:'d|’d| would| could| might| may| should)\b(?! (?:been|had|gone|lived|(?:really )?(?:like|love) to\b))"
    # "I may have found a job": news said with a hedge, not a hypothetical
    r"(?!(?<=may|ght) have (?:just )?(?:found|got|gotten|landed|booked|met|bought|sold)\b)|"
    r"^(?:I|i)(?: want| wanna| need| would like|'d like|’d like| would love|'d love|’d love| plan| hope) (?:to )?"
    r"(?:know|see|ask|say|hear|tell|thank|"
    r"check|make sure|try it|try that|try this|look)\b",
    re.IGNORECASE,
)

_EN_REQUEST_RE = re.compile(
    r"\b(?:(?:want|need|would like|'d like|’d like|wanted) (?:you|u|someone|somebody|it|this|that)\b|"
    r"can you|could you|would you|will you|(?<!to )help me|for me\b|please|pls|plz|tell me|show me|give me|"
    r"let me know|write me|make me|explain|suggest|recommend me)",
    re.IGNORECASE,
)

_EN_TASK_NOUN_RE = re.compile(
    r"\b(?:poem|story|essay|article|email|e-mail|(?<!rejection )(?<!acceptance )(?<!offer )(?<!admission )(?<!love )letter|code|script|function|program|prompt|paragraph|"
    r"sentence|summary|translation|caption|title|outline|response|reply|answer|example|examples|list|"
    r"slogan|description|lyrics|speech|joke|riddle|word count|words|file|files|error|bug|question|"
    r"questions|chatbot|this chat|assistant|ai|gpt|chatgpt|your answer|the text|the following|output|"
    r"input|table|chart|formula|macro|column|variable|class (?:method|file|that|which)|method|compile|install|"
    r"api|code base|codebase|repo|repository|assignment|homework|exam question|quiz)\b",
    re.IGNORECASE,
)

_EN_TASK_VERB_RE = re.compile(
    r"\b(?:need|want|'m looking for|am looking for|looking for|trying to (?:write|make|fix|get|build|code|"
    r"create|find|understand)|wrote|writing|have written|created|running|ran|getting|got|tried|used|using|"
    r"have|had|see|saw)\b",
    re.IGNORECASE,
)

_EN_NOT_ABOUT_USER_RE = re.compile(r"\b(?:you|your|yours|u)\b", re.IGNORECASE)

_EN_FILLER_WORDS_RE = re.compile(
    r"\s*\b(?:really|actually|just|pretty|totally|definitely|absolutely|basically|literally|honestly|"
    r"unfortunately|fortunately|luckily|sadly|hopefully|obviously|personally|"
    r"seriously|kinda|sorta|lol|haha+|hehe|lmao)\b",
    re.IGNORECASE,
)

_EN_TRAILING_RE = re.compile(
    r"(?:[\s,;:]+(?:too|as well|also|though|lol|haha+|either|anyway|anyways|in my (?:free|spare) time|"
    r"these days|nowadays|currently|right now|at the moment|sometimes|a lot|alot|all the time|so much|"
    r"very much|for sure|on the side|still|still though|and such|and stuff|and things|etc|mainly|mostly|"
    r"usually|often|every day|everyday))+\s*$",
    re.IGNORECASE,
)

PRONOUN_ONLY = frozenset("it that this those these them one ones so too much lot there here together".split())
_EN_PRONOUN_ONLY = PRONOUN_ONLY

_RELATION_EN_RE = re.compile(
    r"\b(?:wife|husband|spouse|partner|boyfriend|girlfriend|fiance|fiancee|fiancé|fiancée|sisters?|brothers?|"
    r"sibling|siblings|mom|mum|mother|dad|father|parents|son|sons|daughter|daughters|kid|kids|child|children|"
    r"baby|babies|grandma|grandpa|grandmother|grandfather|grandparents|grandson|granddaughter|grandkids|"
    r"grandchildren|aunt|uncle|cousin|cousins|niece|nephew|family|friend|friends|best friend|roommate|"
    r"neighbor|neighbour|boss|coworker|co-worker|colleague|in-laws|stepmom|stepdad|twin|married|divorced|"
    r"engaged|single|widowed|dating)\b",
    re.IGNORECASE,
)

_PREFERENCE_EN_RE = re.compile(
    r"\b(?:like|likes|liked|love|loves|loved|adore|enjoy|enjoys|enjoyed|hate|hates|dislike|dislikes|prefer|"
    r"prefers|favorites?|favourites?|faves?|hobby|hobbies|fan of|into|can't stand|cannot stand|passion|passionate|obsessed|"
    r"addicted to|big on|crazy about|drawn to|(?:important|special|meaningful|significant|interesting|dear|precious) (?:to|for) User|means a lot to User|motivates User|inspires User|guides? User|(?:has|have) (?:allowed|helped|enabled) User|significance for User|go-to|"
    r"happy place|helps User|keeps User|brings User|gives User|top of User's list|reminds? User|speaks to User)\b",
    re.IGNORECASE,
)

_EMOTION_EN_RE = re.compile(
    r"\b(?:feel|feels|feeling|felt|happy|sad|stressed|excited|nervous|worried|scared|afraid|tired|"
    r"exhausted|lonely|angry|upset|frustrated|overwhelmed|proud|grateful|bored|anxious|heartbroken|"
    # "content" is a feeling only after a linking word ("gaming content" is a thing)
    r"thrilled|relieved|disappointed|jealous|homesick|miserable|(?<=is )content|(?<=feel )content|(?<=feels )content|"
    r"(?<=so )content|(?<=very )content|(?<=was )content|hopeful|ashamed|embarrassed)\b",
    re.IGNORECASE,
)

_EVENT_EN_RE = re.compile(
    r"\b(?:yesterday|today|tonight|last (?:week|month|year|night|weekend|summer|winter)|this (?:week|month|"
    r"year|weekend|morning)|recently|just (?:got|moved|started|finished|bought|came|went|had|graduated)|"
    r"went|moved|got|started|finished|graduated|retired|bought|visited|traveled|travelled|adopted|met|won|"
    r"lost|quit|joined|married|will|going to|gonna|next (?:week|month|year))\b",
    re.IGNORECASE,
)

LONG_LIVED_EN_RE = re.compile(
    r"\b(?:live|lives|lived|from|born|grew up|work|works|worked|job|career|profession|name is|named|"
    r"years old|married|kids|children|son|daughter|wife|husband|degree|college|university|school|"
    r"teacher|nurse|engineer|doctor|student|retired|own|owns|dog|cat|pet|vegan|vegetarian|moving|move|moved)\b",
    re.IGNORECASE,
)

SPECIFIC_EN_RE = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|hundred|first|"
    r"second|third)\b|\b(?:named|called)\b|\b(?:in|at|from|to) [A-Z]\w+|(?<!^)(?<![.!?] )\b[A-Z][a-z]{2,}",
)


# "started learning the ukulele" is a hobby taken up, which lasts, not a one-off event.
_TAKEN_UP_EN_RE = re.compile(
    r"\b(?:started|began|begun|took up|taken up|picked up)\s+(?:learning|playing|practicing|practising|studying|"
    r"doing|going to|attending|hitting the gym|taking (?:a|an|classes|lessons)|volunteering|"
    r"to learn|to play|to practice|running|swimming|cycling|climbing|painting|drawing|singing|dancing|knitting|"
    r"baking|cooking|hiking|yoga|boxing)\b",
    re.IGNORECASE,
)


def category_en(text: str) -> str:
    if _RELATION_EN_RE.search(text):
        return "relation"
    if _PREFERENCE_EN_RE.search(text):
        return "preference"
    if _EMOTION_EN_RE.search(text):
        return "emotion"
    if _TAKEN_UP_EN_RE.search(text):
        return "fact"
    if _EVENT_EN_RE.search(text):
        return "event"
    return "fact"


# Where the main clause ends and a subordinate tail begins ("… so if he ever needs …", "… when I was a boy").
_EN_TAIL_RE = re.compile(
    r"\s+(?:so|as|and|because|cause|since|while|when|whenever|until|unless|if|though|although|whereas|"
    r"which|who|that)\s+(?=(?:if|I|i|he|she|we|they|it|you|my|his|her|their|our|there|this|that)\b)"
    # ("the cause" / "a good cause" is a noun, not "'cause")
    r"|(?<!\bthe)(?<!\ba)(?<!\bgood)(?<!\bworthy)(?<!\bour)(?<!\bmy)(?<!\bthis)"
    r"\s+(?:because|'?cause|’cause|since|if|unless|although|though|whereas|which|whenever)\s+"
    r"|\s+and\s+(?=(?:hoping|hope|wondering|wishing)\b)"
    r"|\s+(?:that|who)\s+(?=(?:likes|loves|enjoys|is|was|has|makes|takes|goes|works|lives)\b)"
    r"|,\s*(?=(?:\w+\s+){0,2}(?:is|are|was|were|it's|its)\b)"
    r"|,\s*(?=(?:maybe|perhaps|so|which|but|though|because|since|and|or|except|unless|nice|how|what|"
    r"especially|mostly|mainly|particularly)\b)"
    r"|\s*\((?:[^)]*)\)|\s+[—–]\s*|\s+-\s+|(?<=\w)[-–—]\s+|\s*[:;]-?[()DPp]\B|\s*[\U0001F300-\U0001FAFF]",
)

_EN_PRONOUN_OBJECT_RE = re.compile(
    r"^(?:I|i)\s+(?:\w+\s+){0,2}?(?:\w+)\s+(?:to\s+do\s+|doing\s+)?(?:it|that|this|them|those|these|one|"
    r"four|three|two|five)(?:\s+(?:anyway|too|as well|a lot|so much|very much|alot|either|also))?$|"
    r"^(?:I|i)\s+(?:have|had|got|own)\s+(?:a bunch|a lot|a few|some|plenty|lots|many)$",
    re.IGNORECASE,
)

IMPLICIT_SUBJECT_RE = re.compile(
    r"^(?:(?:also|usually|often|really)\s+)?(?:am|have|love|like|enjoy|hate|prefer|play|watch|listen|read|work|"
    r"live|own|go|do|take|spend|make|cook|bake|write|run|ride|drive|teach|study|collect|sing|dance|draw|"
    r"paint|travel|hike|swim|fish|hunt|volunteer|got|went|moved|started|bought|watched|tried|finished|visited|explored|joined|won|met|saw|made|took|ran|played|learned|signed up|adopted|baked|cooked|painted|wrote|built|found|decided|ended up|had)\b"
)

# Chat often drops the "I": "Just got home from work", "Thinking about quitting my job".
PRO_DROP_RE = re.compile(
    r"^(?:just\s+|recently\s+|finally\s+|still\s+)?(?:got|finished|came|went|started|moved|bought|adopted|graduated|"
    r"retired|quit|joined|(?:love|like|enjoy|hate|prefer)(?!\s+and\b)|work|live|took|visited|spent|lost|won|dyed|booked|signed up|"
    r"picked up|baked|painted|wrote|gonna|"
    # "Researching adoption agencies", "Been reading a lot", "Getting ready for the move": an activity, unless
    # the gerund is a subject ("Reading is my escape", "Getting sponsors was difficult").
    # "Been real busy tackling a project", "Trying to get a petition going", "had an audition yesterday"
    r"been\s+(?:(?:real|really|so|super|pretty|very|quite|crazy)\s+)?busy\s+(?:with\b|\w+ing\b)|trying to|"
    r"had(?=\s+(?:a|an|my|our|some|\d+)\s+(?!(?:good|great|nice|wonderful|lovely|fun|blast|ball|bad|rough|tough|long|"
    r"busy|crazy|wild|hard|great|amazing|awesome|fantastic|terrible|horrible|weird|strange)\s+(?:time|day|week|night|"
    r"weekend|month|year|one)\b))|"
    r"been\s+(?:\w+ly\s+)?(?!going\b)\w+ing\b|been\s+(?:only\s+|just\s+|once\s+)?to\s+(?=(?-i:[A-Z]))|"
    r"(?:been\s+)?(?:moving|thinking about|heading|planning|getting|training|studying|working on|learning|saving up|"
    r"looking forward to|researching|reading|writing|painting|volunteering|practicing|practising|preparing|"
    r"building|renovating|decorating|applying|interviewing|recovering|exploring)"
    r"(?!(?:\s+[\w'-]+){0,5}\s+(?:is|was|are|were|isn't|wasn't|aren't|has|have|had|helps|help|makes|made|keeps|brings|gives|"
    r"means|looks|seems|sounds|feels|does|doesn't|can|will)\b)(?!['’]s\b)|"
    # "Dyed my hair last week", "Booked our flights": a past action on the user's own things.
    r"(?!(?:loved|liked|enjoyed|hated|needed|wanted|missed|wished|guessed|figured|agreed|noticed|realized|"
    r"realised|appreciated|used|supposed|seemed|looked|sounded|reminded|excited|tired|bored|interested|"
    r"pleased|surprised|confused|worried|impressed|scared|stressed)\b)[a-z]{3,}ed(?=\s+(?:my|our|a|an|some|two|three)\b))"
    r"\b(?!\s+(?:it|that|this|them|you|your|to hear|hearing|the idea|that idea|should|can|could|will|would)\b)",
    re.IGNORECASE,
)

# "After finishing my screenplay I got a rejection letter", "When I was younger, we had money problems": the
# main clause after a subordinate opening says what happened. (A sentence ending in a subordinate tail is cut by
# _EN_TAIL_RE instead.)
_SUBORDINATE_OPENING_RE = re.compile(
    r"(?:[A-Z][a-z]+,\s+|(?:oh|well|yeah|yes|so|and|but|then|also|anyway),?\s+)?"
    r"(?P<sub>(?:(?:especially|right|just|even|ever|only)\s+)?(?:after|when|once|since|before|while|as soon as)\s+"
    r"(?P<body>[^,;?]{3,80}?))"
    # without a comma only "I" can open the main clause ("after finishing my screenplay I got …")
    r"(?:\s*,\s*(?=(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll|my|My|we|We|we've|we’ve|we're|we’re)\b)"
    r"|\s+(?=(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll)\s))",
    re.IGNORECASE,
)
# The subordinate clause is itself news when it is a first-person deed: "after I failed the test recently, …".
_SUBORDINATE_DEED_RE = re.compile(r"(?:I|i)\s+(?:(?:just|recently|finally)\s+)?(?!was\b|were\b|had been\b)[a-z]{2,}ed\b|"
                                  r"(?:I|i)\s+(?:(?:just|recently|finally)\s+)?(?:got|went|won|lost|met|made|took|saw|"
                                  r"left|quit|began|ran|wrote|bought|found|gave|sold|built|drove|flew)\b")
# "when I was younger" / "when I was a kid": when the main clause happened, kept in its statement.
_CHILDHOOD_RE = re.compile(r"when (?:I|i) was (?P<x>younger|little|young|a kid|a child|a teenager|a teen|a boy|a girl|"
                           r"growing up|in (?:high school|middle school|college|school))$", re.IGNORECASE)


_SUBORDINATE_ONLY_RE = re.compile(
    r"(?:[A-Z][a-z]+,\s+|(?:oh|well|yeah|yes|so|and|but|then|also|anyway),?\s+)?"
    r"(?P<sub>(?:(?:especially|right|just|even|ever|only)\s+)?(?:after|when|once|since|before|while|as soon as)\s+"
    r"(?P<body>[^,;?]{3,80}?))[\s,]*$",
    re.IGNORECASE,
)


def subordinate_split(text: str, pieces: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(start, end, suffix) clauses: a piece opening with "after …" / "when …" is split before its main clause
    (or, split off by a comma already, is only the subordinate part); the subordinate part stays only when it
    is a first-person deed; suffix is "when they were younger" for a main clause about the user's childhood."""
    out, carried = [], ""
    for start, end in pieces:
        m = _SUBORDINATE_OPENING_RE.match(text, start, end)
        if not m or m.end() >= end:
            m = _SUBORDINATE_ONLY_RE.match(text, start, end)
            if not m:
                out.append((start, end, carried))
                carried = ""
                continue
        if _SUBORDINATE_DEED_RE.match(text, m.start("body"), m.end("body")):
            out.append((m.start("body"), m.end("body"), ""))
        childhood = _CHILDHOOD_RE.search(m.group("sub"))
        suffix = f" when they were {childhood.group('x').lower()}" if childhood else ""
        if m.end() < end and m.re is _SUBORDINATE_OPENING_RE:
            out.append((m.end(), end, suffix))
            carried = ""
        else:
            carried = suffix  # the main clause is the next piece
    return out


# "We have a dog and a cat" / "We live in Ohio": the user's household.
WE_RE = re.compile(
    r"^(?:[Ww]e|[Ww]e've|[Ww]e’ve)\s+(?:(?:also|still|just|recently|now)\s+)?"
    r"(?:(?P<verb>live|lived|moved|rent)\b(?P<rest>.*)|(?P<verb2>have|own|bought|adopted|got|raise)\b"
    r"(?P<rest2>.*\b(?:kids?|children|sons?|daughters?|babies|baby|twins|dogs?|cats?|pets?|puppy|horses?|chickens|"
    r"house|home|apartment|flat|farm|garden|cabin|boat|car|cars|truck)\b.*))$"
)

# "We explored the old town", "we went to the beach recently": something the user did with others (it is
# still something the user did). Only past activities: "we think", "we should", "we are" say nothing lasting.
WE_DID_RE = re.compile(
    r"^(?:[Ww]e)\s+(?:(?:also|just|recently|finally|even|all)\s+)?(?P<verb>went|explored|visited|tried|made|took|watched|"
    r"played|spent|celebrated|threw|hosted|saw|finished|camped|hiked|travel(?:l)?ed|toured|baked|cooked|built|painted|"
    r"ran|won|volunteered|attended|climbed|planted|adopted|drove|flew|swam|had|did|held|organized|organised|raised|"
    r"worked|performed|danced|donated|roasted|launched|opened|started|put on|put together|got to)\b(?P<rest>.+)$"
)

# "We're putting together a talent show next month", "we're considering adopting a rescue dog": the
# user's plans, made with others.
WE_PLAN_RE = re.compile(
    r"^(?:[Ww]e(?:'re|’re| are))\s+(?:(?:also|now|still|finally|even)\s+)?(?P<verb>putting together|planning|considering|"
    r"thinking about|thinking of|going to|hoping to|organizing|organising|hosting|adopting|starting|opening|launching|"
    r"building|renovating|saving up for|saving for|moving|getting|expecting|trying to)\b(?P<rest>.+)$"
)

# "We always look forward to our family camping trip", "We love painting together": what the user's
# household does and likes.
WE_LIKE_RE = re.compile(
    r"^(?:[Ww]e)\s+(?:(?:all|both|really|always|usually|also|just|still|often)\s+)*(?P<verb>love|like|enjoy|adore|"
    r"look forward to|go|visit|play|watch|cook|bake|hike|camp|travel|volunteer)\b(?P<rest>.+)$"
)


# "Big country music fan here", "65 here": the user describing themself without a verb.
HERE_RE = re.compile(
    r"^(?P<x>(?:(?:a|an|just a|just an)\s+)?(?:[\w'-]+\s+){0,3}(?:fan|lover|person|guy|girl|boy|gal|man|woman|mom|"
    r"dad|mother|father|grandma|grandpa|student|nurse|teacher|veteran|vet|nerd|geek|introvert|extrovert|"
    r"homebody|foodie|gamer|runner|reader|writer|artist|musician|engineer|programmer|\d{1,3}))\s+here\b",
    re.IGNORECASE,
)


# "I love sports, especially basketball" also says the user loves basketball.
ESPECIALLY_RE = re.compile(
    r"^(?P<head>(?:I|i)\s+(?:(?:really|also|just)\s+)?(?:like|love|enjoy|adore|prefer))\b[^,.!?]*,\s*"
    r"(?P<quote>(?:especially|mostly|mainly|particularly)\s+(?P<x>[^,.!?;]{2,40}))"
)


# "I am a vegetarian that likes eating fruit" also says the user likes eating fruit.
RELATIVE_LIKE_RE = re.compile(
    r"^(?:I|i)(?:'m|’m| am)\s+(?:an?\s+)?[\w' -]{2,40}?\s+(?:that|who)\s+"
    r"(?P<quote>(?P<verb>likes|loves|enjoys|hates|adores)\s+(?P<x>[^,.!?;]{2,50}))"
)


# "Just got back from fishing" / "got home from work": what the user comes back from, they do regularly.
BACK_FROM_RE = re.compile(
    r"^(?:(?:I|i)\s+)?(?:just\s+)?(?:got|came)\s+(?:back|home|done|in)\s+from\s+(?:a\s+|the\s+|my\s+)?"
    r"(?:(?P<activity>[a-z]+ing)|(?P<place>work|school|class|classes|college|university|practice|gym|office|"
    r"the gym|the office|training|rehearsal|band practice))\b",
    re.IGNORECASE,
)


# "The rainbow flag mural is important to me", "Dance is my go-to for stress relief", "Playing video games
# helps me unwind": what matters to the user, said with the user as the object. The subject must name
# the thing: "it" / "this" / "they" would leave the memory about nothing.
VALUE_RE = re.compile(
    r"^(?P<x>(?!(?:it|he|she|which|what|there|here|you|we|everything|nothing|something|anything|all|who|one|their|"
    r"his|her|its|our|your|stuff|things?)\b)"
    r"[A-Za-z\"“][\w\"“”'’ &-]{2,70}?)\s+"
    r"(?P<pred>(?:is|are|was|has been|have been)\s+(?:(?:really|so|very|super|particularly|especially|truly|"
    r"incredibly|extremely|always|still)\s+)*(?:important|special|meaningful|significant|interesting|dear|precious)"
    r"\s+(?:to|for)\s+me"
    r"|(?:means|meant|mean)\s+(?:a lot|so much|the world|everything|a great deal)\s+to\s+me"
    r"|(?:has|have|had|holds|hold)\s+(?:a lot of|so much|a special|special|great|deep|a deep|real)\s+"
    r"(?:significance|meaning|place)\s+(?:for|to|in)\s+(?:me|my heart)"
    r"|(?:is|are)\s+(?:at the top of|high on|first on)\s+my\s+list"
    r"|(?:really\s+|always\s+)?(?:speaks|speak|spoke)\s+to\s+me"
    r"|(?:always\s+|still\s+)?(?:reminds|remind)\s+me\s+of\s+[\w' -]{3,50}"
    r"|(?:is|are|was)\s+(?:pretty much\s+|definitely\s+|always\s+)?my\s+(?:go-to|passion|happy place|escape|"
    r"therapy|outlet|comfort|safe place|sanctuary)(?:\s+(?:for|when)\s+[\w' -]{2,40})?"
    r"|(?:helps|help|keeps|keep)\s+me\s+(?:to\s+)?(?:unwind|relax|de-?stress|destress|calm|stay (?:focused|calm|"
    r"sane|grounded|motivated|positive|fit|healthy|creative)|focus|recharge|cope|sleep|think|grounded|sane|"
    r"motivated|going|express myself)\b[\w' -]{0,40}"
    r"|(?:motivates|motivate|inspires|inspire|drives|drive|guides|guide|grounds|ground)\s+me\b[\w', -]{0,60}"
    # "Art's allowed me to explore who I am", "Running has helped me stay sane"
    r"|(?:has\s+|have\s+)?(?:allowed|helped|enabled)\s+me\s+(?:to\s+)?[\w' -]{3,60}"
    r"|(?:has|have)\s+(?:given|taught|shown)\s+me\s+[\w' -]{3,60}"
    r"|(?:brings|bring|gives|give)\s+me\s+(?:so much\s+|a lot of\s+|such\s+|great\s+)?(?:joy|peace|comfort|"
    r"happiness|strength|hope|energy)\b[\w' -]{0,40})$",
    re.IGNORECASE,
)


# "Playing video games and watching movies are my main hobbies" → "User's main hobbies are …".
_HOBBIES_RE = re.compile(
    r"^(?P<x>[A-Za-z][\w'’ ,&-]{2,80}?)\s+(?:is|are)\s+(?:(?:probably|definitely|really|basically)\s+)?my\s+"
    r"(?P<k>(?:main|favou?rite|biggest|two|three|only|other)\s+)?(?P<h>hobby|hobbies|passions?|interests)$",
    re.IGNORECASE,
)
# "… my love of reading", "my passion for baking": what the user loves, said as a noun.
_LOVE_OF_RE = re.compile(r"\b[Mm]y\s+(?:(?:deep|great|huge|big|lifelong|own)\s+)?(?P<n>love|passion)\s+(?:of|for)\s+"
                         r"(?P<x>(?!(?:it|that|this|them|you|your)\b)[\w' -]{3,40}?)(?=\s+(?:even|more|and|so|too|as|ever|since|is|was|has|"
                         r"have|had|are|were|made|makes|keeps|helps|led|grew|started|will|can|brought)\b|[,.!?;]|$)")


def love_of(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for "… appreciate my love of reading" → "User loves reading"."""
    m = _LOVE_OF_RE.search(sentence)
    if not m or EN_HYPOTHETICAL_RE.search(sentence) or sentence.rstrip().endswith("?"):
        return None
    x = m.group("x").strip()
    return m.group(0), f"User loves {x}" if m.group("n") == "love" else f"User is passionate about {x}"


_DESCRIBED_RE = re.compile(
    r"^(?P<np>(?!(?:it|this|that|they|he|she|there|what|which|my|our)\b)[A-Za-z][\w' -]{2,40}?) (?:is|was) "
    r"(?!(?:[\w']+ ){0,5}?(?:my|me|I|mine)\b)(?:[\w']+ ){0,5}?[\w']+\s*(?:[-–—,;]|\band\b)\s*it (?P<rest>(?:really |always |just |truly |totally |still )?"
    r"(?:speaks?|helps?|keeps?|brings?|gives?|reminds?|motivates?|inspires?|means?|guides?|grounds?)\b.+)$",
    re.IGNORECASE,
)


def value_statement(clause: str) -> tuple[str, str] | None:
    """(quote, statement) for "X is important to me" / "X helps me unwind" (VALUE_RE), or None."""
    hobbies = _HOBBIES_RE.match(clause.rstrip(" ,;:-.!…"))
    if hobbies and not re.match(r"(?:it|that|this|they|those|these)\b", hobbies.group("x"), re.I) and not (
        _EN_NOT_ABOUT_USER_RE.search(hobbies.group("x"))
    ):
        x = hobbies.group("x")
        kind = (hobbies.group("k") or "") + hobbies.group("h")
        verb = "are" if kind.endswith("s") else "is"
        return hobbies.group(0), f"User's {kind} {verb} {x[:1].lower() + x[1:] if not x[:2].isupper() else x}"
    # "Contemporary dance is so expressive - it really speaks to me": "it" is the thing just described
    described = _DESCRIBED_RE.match(clause.rstrip(" ,;:-.!…"))
    if described and not _EN_NOT_ABOUT_USER_RE.search(described.group("np")):
        read = value_statement(f"{described.group('np')} {described.group('rest')}")
        if read:
            return described.group(0), read[1]
    # "…help me discover who I am": the relative clause is the point, not a tail to cut
    m = VALUE_RE.match((clause if re.search(r"\bwho I am\b", clause) else cut_tail(clause)).rstrip(" ,;:-.!…"))
    if not m or not content_tokens(m.group("x")) or _EN_NOT_ABOUT_USER_RE.search(m.group("x")):
        return None  # "Your support means a lot to me" is about the other side
    thing, pred = m.group("x"), m.group("pred")
    if re.match(r"(?:allowed|helped|enabled)\b", pred):
        if not re.search(r"(?:'s|’s)$", thing):
            return None  # "X allowed me to …" without "has" is one past event, not what X means to the user
        thing, pred = thing[:-2], "has " + pred  # "Art's allowed me" → "Art has allowed User"
    if thing.lower() in ("that", "this", "they", "these", "those") or re.search(r"\b(?:I|I've|I’ve)\b", thing):
        # "This is important to me": about something the memory would not name; "the figurines I bought
        # remind me of…" is read by made_by_me
        return None
    thing = re.sub(r"^(?:this|that|these|those)\b", "The", thing, flags=re.IGNORECASE)  # "This necklace" → "The necklace"
    if re.search(r"\b(?:this|that|these|those|them|it|her|him|they|he|she|we|you)\b", thing, re.IGNORECASE):
        return None  # "Stuff like this mural", "Seeing them grow": hangs on something unnamed
    if len(re.findall(r"[\"“”]", thing)) % 2:
        thing = re.sub(r"[\"“”]", "", thing)  # the clause's opening quote mark was trimmed away
    thing = thing[:1].upper() + thing[1:]
    # The first "me" / "my" is the user by name, later ones "them" / "their".
    # "User" by name even after "User's family": "them" at the end would read as someone unnamed.
    predicate = re.sub(r"\b(me|my)\b", lambda w: "User" if w.group(1) == "me" else "User's", pred, count=1)
    predicate = re.sub(r"\bmyself\b", "themself", re.sub(r"\bme\b", "them", re.sub(r"\bmy\b", "their", predicate)))
    predicate = re.sub(r"\bwho I am\b", "who they are", predicate)
    predicate = re.sub(r"\bI(?:'m|’m| am)\b", "they are", re.sub(r"\bI\b(?!'|’)", "they", predicate))
    thing = re.sub(r"\bmy\b", "their", re.sub(r"\bMy\b", "User's", thing))
    return m.group(0), f"{thing} {predicate}"


# "These figurines I bought yesterday remind me of family love", "Here's the space I designed": the
# user did something to the thing the sentence is about.
MADE_BY_ME_RE = re.compile(
    r"\b(?P<det>(?i:the|this|that|these|those|my))\s+(?P<np>(?:[\w'-]+\s+){0,2}?[\w'-]{3,})\s+(?:I|I've|I’ve)\s+"
    r"(?:just\s+|recently\s+|finally\s+)?(?P<verb>bought|made|painted|drew|wrote|baked|cooked|built|designed|read|"
    r"watched|found|took|visited|planted|knitted|sewed|crafted|created|won|received|adopted|finished|did|got|saw|"
    r"went to|attended|tried|climbed|hiked|"
    # what the user does habitually: "the desserts I bake", "the songs I write"
    r"bake|make|cook|paint|draw|write|knit|sew|grow|build|design|collect|brew)\b"
    # "after finishing my screenplay I got a rejection letter": the verb has its own object, no relative clause
    r"(?:(?=\s+(?:a few|a couple|a while|the other day))"
    r"|(?!\s+(?:a|an|the|my|our|some|this|that|these|those|his|her|their|its|it|him|them|\d+)\b))"
    r"(?P<when>\s+(?:yesterday|today|last (?:week|weekend|month|year|night|\w+day)|this (?:week|weekend|month|year|"
    r"morning)|recently|the other day|a while (?:ago|back)|(?:a few|a couple of|two|three|\d+) (?:days|weeks|months|years) ago))?"
)
_NOT_A_THING = frozenset("one thing way time day stuff lot kind bit".split())
_HABIT_VERBS = frozenset("bake make cook paint draw write knit sew grow build design collect brew".split())


def made_by_me(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for "these figurines I bought yesterday" → "User bought figurines yesterday"."""
    m = MADE_BY_ME_RE.search(sentence)
    if not m or m.group("np").split()[-1].lower() in _NOT_A_THING or _EN_NOT_ABOUT_USER_RE.search(m.group("np")):
        return None
    np = m.group("np")
    det, verb = m.group("det").lower(), m.group("verb")
    if verb in _HABIT_VERBS:  # "the desserts I bake" → "User bakes desserts"
        obj = np if np.endswith("s") and not np.endswith("ss") else f"their {np}" if det == "my" else np
        return m.group(0), f"User {conjugate(verb)} {obj}"
    if det == "my":
        obj = f"their {np}"
    elif np.endswith("s") and det in ("these", "those"):
        obj = np
    else:
        obj = f"the {np}" if det in ("the", "that") else f"a {np}" if np[:1].lower() not in "aeiou" else f"an {np}"
    return m.group(0), f"User {verb} {obj}{m.group('when') or ''}"


# "Here's a pic of my cork board", "Check out my painting for the art show", "Here's one of my trophies from a
# dance contest": showing something of one's own says the user has it.
_SHOWN_MINE_RE = re.compile(
    r"\b(?:here'?s|here’s|here is|here are|check out|check|take a look at|have a look at|look at|(?:a|another)\s+(?:pic|picture|"
    r"photo|snap|shot|snapshot|peek)\s+(?:of|at))\s+(?:(?:a|another|the|this)\s+(?:pic|picture|photo|snap|shot|snapshot|"
    r"peek)\s+(?:of|at)\s+)?(?P<one>(?:one|some|a few|two|a couple) of\s+)?my\s+(?P<np>[^,.!?;:()\-–—]{2,80})",
    re.IGNORECASE,
)
_SHOWN_NP_END_RE = re.compile(
    r"\s+(?:that|which|who|when|where|I|I'm|I’m|I've|I’ve|and|so|because|it|it's|they|we|you|if|but|to|as)\b.*$"
    # "my dog playing in the snow": the activity is not the thing ("my painting for the show" is)
    r"|(?<=\w)\s+\w+ing\s+(?:at|in|on|with|around|outside|by|together|the|a|an)\b.*$"
    r"|\s+(?:now|today|yesterday|lately|recently|again|too|here|there|lol|haha)$",
)
# Not things one has: "my life", "my favorite", "my way", people (implied_possessions reads "my kids" …).
_NOT_SHOWN = frozenset(
    "life day week weekend year time way journey heart mind thoughts feelings favorite favourite fave place turn "
    "family friend friends mom dad mother father wife husband son daughter kids children sister brother parents "
    "partner boyfriend girlfriend baby grandma grandpa self own fam folks crew squad team gang buddies pals boys girls "
    "fave favourite".split())


def shown_mine(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for "Here's a pic of my cork board" → "User has a cork board", or None."""
    if sentence.rstrip().endswith("?") or EN_HYPOTHETICAL_RE.search(sentence):
        return None
    m = _SHOWN_MINE_RE.search(sentence)
    if not m:
        return None
    np = _SHOWN_NP_END_RE.sub("", m.group("np").strip()).strip()
    if re.match(r"(?:ideal|dream|future|next|perfect|imaginary)\b", np, re.I):
        return None  # "Check my ideal dance studio": wished for, not had
    words = np.split()
    if not 1 <= len(words) <= 7:
        return None
    head = re.split(r"\s+(?:from|for|at|in|with|by|of|on)\s+", np)[0].split()[-1].lower()
    if head in _NOT_SHOWN or head.rstrip("s") in _NOT_SHOWN or _EN_NOT_ABOUT_USER_RE.search(np):
        return None
    quote = m.group(0)[: m.start("np") - m.start() + len(np)]
    if m.group("one"):  # "one of my trophies" → the user has trophies
        return quote, f"User has {np}"
    plural = head.endswith("s") and not head.endswith("ss")
    article = "" if plural else ("an " if words[0][:1].lower() in "aeiou" else "a ")
    return quote, f"User has {article}{np}"


# "Oscar, my guinea pig", "my sister, Lena,": a name set beside what the person or pet is to the user.
_APPOSITIVE_RE = re.compile(
    r"\b(?:(?P<name>[A-Z][a-z]{2,})\s*,\s*my\s+(?P<x>(?:[\w'-]+\s+){0,2}?(?:%(nouns)s))\b"
    r"|[Mm]y\s+(?P<x2>(?:[\w'-]+\s+){0,2}?(?:%(nouns)s))\s*,\s*(?P<name2>[A-Z][a-z]{2,})\s*(?:,|$|[.!]))"
    % {"nouns": "dog|cat|puppy|kitten|pet|turtle|tortoise|horse|pony|bird|parrot|fish|hamster|guinea pig|rabbit|bunny|"
                "snake|lizard|ferret|son|daughter|kid|baby|brother|sister|husband|wife|partner|boyfriend|girlfriend|"
                "mom|dad|mother|father|grandma|grandpa|best friend|friend|nephew|niece|cousin|aunt|uncle"}
)
# Words that open a sentence with a capital letter and are no one's name ("Also, my partner …").
_NOT_NAMES = frozenset(
    """thanks thank yes yeah yep yup wow well hey oh sure okay cool nice aww haha hello hi also anyway anyways
    besides plus still then now today tonight yesterday tomorrow lately recently meanwhile however maybe perhaps
    sometimes btw ps and but so though although because since after before once again first second third
    finally last next soon later here there yet instead otherwise indeed actually""".split()
)


def is_a_name(word: str) -> bool:
    """A capitalised word that can be a name: not a discourse word ("Also", "Yep", "Honestly", "Anyway") that a
    sentence happens to open with."""
    low = word.lower().strip(" ,.!?")
    return bool(low) and low not in _NOT_NAMES and not low.endswith("ly") and not LEAD_FILLER_RE.fullmatch(low + ",")


def appositive_name(sentence: str) -> tuple[str, str] | None:
    m = _APPOSITIVE_RE.search(sentence)
    if not m:
        return None
    name, x = (m.group("name"), m.group("x")) if m.group("name") else (m.group("name2"), m.group("x2"))
    if not is_a_name(name):
        return None  # "Thankfully, my son is ok", "Also, my partner Sam and I …"
    quote = m.group(0).rstrip(" ,.!")
    return quote, f"User's {x} is named {name}"


# "Our one-year-old is so cute, his name is Kyle", "My new puppy, her name is Shadow".
NAMED_RE = re.compile(
    r"^(?:[Mm]y|[Oo]ur)\s+(?P<x>(?:[\w'-]+\s+){0,2}?(?:kid|son|daughter|baby|[\w-]+-year-old|dog|cat|puppy|kitten|"
    r"pet|turtle|horse|bird|parrot|fish|hamster|rabbit|bunny|snake|lizard|car|boat|band|store|shop|business|blog|"
    r"channel|book|novel|screenplay|script|album|song|game|app|brother|sister|friend|boyfriend|girlfriend|husband|wife|"
    r"partner|nephew|niece|cousin|grandson|granddaughter))\b[^.!?]{0,40}?,?\s+(?:and\s+)?(?:his|her|its|their)\s+"
    r"name\s+is\s+(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
)


# "Her name is Shadow!" after "I just adopted this cute pup" / "What's your puppy's name?": the one pet or child
# named in the last exchange.
_PRONOUN_NAME_RE = re.compile(r"^(?:(?:oh|well|yes|yeah|haha|aw+),?\s+)?(?:[Hh]er|[Hh]is|[Ii]ts) name is (?P<name>[A-Z][\w'-]+)")
_NAMEABLE_RE = re.compile(
    r"\b(?:my|our|this|your|a|the)\s+(?:(?:new|little|cute|sweet|adorable|baby|rescue|tiny)\s+)*(?P<n>pup|puppy|dog|cat|"
    r"kitten|kitty|bunny|rabbit|hamster|turtle|tortoise|bird|parrot|horse|pony|fish|snake|lizard|baby|son|daughter|"
    r"guinea pig)\b", re.IGNORECASE,
)


def pronoun_name(sentence: str, *, before: str) -> tuple[str, str] | None:
    """(quote, statement) for "Her name is Shadow" when exactly one pet or child was named in `before`."""
    m = _PRONOUN_NAME_RE.match(sentence.strip())
    if not m:
        return None
    nouns = {n.group("n").lower() for n in _NAMEABLE_RE.finditer(before)}
    nouns = {"puppy" if n == "pup" else n for n in nouns}
    if len(nouns) != 1:
        return None
    return m.group(0), f"User's {nouns.pop()} is named {m.group('name')}"


def named_statement(sentence: str) -> tuple[str, str] | None:
    m = NAMED_RE.match(sentence)
    return (m.group(0), f"User's {m.group('x')} is named {m.group('name')}") if m else None


# "Someone wrote me a letter after reading my blog post", "a stranger gave me flowers": something that
# happened to the user, told with another person as the subject.
TO_ME_RE = re.compile(
    r"^(?P<who>(?:one of (?:the|my|our) (?:[\w'-]+ ){0,3}?[\w'-]+s(?:,\s*[A-Z][a-z]+,)?|someone|somebody|a (?:friend|stranger|reader|fan|neighbou?r|coworker|co-worker|colleague|student|"
    r"customer|client|kid|child|woman|man|lady|guy|teacher|mentor|publisher|company|producer|director|recruiter)))\s+"
    r"(?:(?:just|recently|even|finally)\s+)?(?P<verb>wrote|sent|gave|told|asked|invited|offered|called|messaged|emailed|"
    r"texted|showed|taught|recommended|bought|made|hired|contacted|thanked)\s+(?:me|us)\b(?P<rest>[^,.!?;]{3,160})$",
    re.IGNORECASE,
)


def to_me_statement(clause: str) -> tuple[str, str] | None:
    m = TO_ME_RE.match(cut_tail(clause).rstrip(" ,;:-.!…"))
    if not m or _EN_NOT_ABOUT_USER_RE.search(m.group("rest")):
        return None
    who = m.group("who")
    rest = to_third_person_en(trailing_dropped(m.group("rest")))
    return m.group(0), f"{who[:1].upper() + who[1:]} {m.group('verb')} User{rest}"


# "Hi, Tracy here": the user introducing themself by name.
NAME_HERE_RE = re.compile(r"^(?:hi|hello|hey|hiya|greetings)[,!.]?\s+(?P<name>[A-Za-z][a-z]{1,20})\s+here\b", re.IGNORECASE)
_NOT_A_NAME = frozenset("there everyone everybody all guys folks friend buddy again just me you it".split())

# "As a vegan, …" / "As a teacher I …": who the user is, said in passing.
AS_A_RE = re.compile(
    r"^(?:as|being)\s+(?P<x>(?:a|an)\s+(?!(?:kid|child|teen|teenager|boy|girl|baby|result|matter|whole|rule|side|"
    r"reminder|joke|bonus|gift|treat|thank|favor|favour|friend|fellow|fan of)\b)[\w-]+(?:\s+[\w-]+)?)"
    r"(?=\s*,|\s+(?:I|I'm|I’m|my|working|living|someone|it|that|this)\b)",
    re.IGNORECASE,
)

# "… visit me in Kansas City where I just moved": where the user lives, said in a relative clause.
WHERE_I_RE = re.compile(
    r"\b(?:in|to)\s+(?P<place>[A-Za-z][\w.'-]*(?:\s+[A-Za-z][\w.'-]*){0,2}?),?\s+where\s+(?:I|I've|I’ve)\s+"
    r"(?:(?:just|recently|finally|always)\s+)?(?P<verb>moved|lived|live|grew up|was born)\b"
)


def introduced_statements(sentence: str) -> list[tuple[str, str]]:
    """(quote, statement) for "Hi, Tracy here", "As a vegan, …", "… in Kansas City where I just moved"."""
    found = []
    named = NAME_HERE_RE.match(sentence)
    if named and named.group("name").lower() not in _NOT_A_NAME:
        name = named.group("name")
        found.append((named.group(0), f"User's name is {name[:1].upper() + name[1:]}"))
    as_a = AS_A_RE.match(LEAD_FILLER_RE.sub("", sentence))
    if as_a:
        found.append((as_a.group(0), f"User is {as_a.group('x')}"))
    where = WHERE_I_RE.search(sentence)
    if where:
        verb = where.group("verb")
        verb = {"live": "lives in", "lived": "lived in", "moved": "moved to", "grew up": "grew up in",
                "was born": "was born in"}[verb]
        found.append((where.group(0), f"User {verb} {where.group('place')}"))
    return found


def habit_statement(quote: str) -> str | None:
    m = BACK_FROM_RE.match(quote)
    if not m:
        return None
    if m.group("activity"):
        return f"User goes {m.group('activity').lower()}"
    return f"User goes to {m.group('place').lower()}"


def cut_tail(text: str) -> str:
    m = _EN_TAIL_RE.search(text)
    if m and len(text[: m.start()].split()) >= 2:
        return text[: m.start()].rstrip(" ,;:-")
    return text


def en_clause(clause: str, *, sentence: str) -> str | None:
    """The disclosure part of an English clause (a prefix of it), or None when it is not one."""
    stripped = LEAD_FILLER_RE.sub("", clause)
    if not EN_START_RE.match(stripped):
        return None
    if sentence.endswith("?") and _EN_QUESTION_START_RE.match(sentence):
        return None
    if stripped.endswith("?"):
        # "I am just a homemaker, seen any good movies recently?" → the statement before the question.
        asking = _EN_QUESTION_INSIDE_RE.search(stripped)
        cut = asking.start() if asking else max(stripped.rfind(","), stripped.rfind(" and "))
        if cut <= 0:
            return None
        stripped = stripped[:cut]
    stripped = cut_tail(stripped).rstrip(" ,;:-.!")
    if _EN_PRONOUN_OBJECT_RE.match(stripped):
        return None
    if re.match(r"^(?:[Mm]y|MY)\s+(?:[\w'-]+\s+){1,3}?(?:would|could|might|should|may)\b", stripped):
        return None  # "my kids would love that" is a guess, not a fact
    if re.match(r"^(?:[Mm]y|MY)\b", stripped):
        # "my sister lives in Berlin", "my favorite color is blue" — needs a verb after the noun phrase.
        if not re.match(r"^(?:[Mm]y|MY)\s+name\s+\w|^(?:[Mm]y|MY)\s+(?:[\w-]+\s+){0,2}?[\w-]+(?:'s|’s)\s+(?:a|an|the|so|very|"
                        r"really|not|in|at|from|on|been|\w+ing)\b|"
                        r"^(?:[Mm]y|MY)\s+(?:[\w'-]+\s+){0,3}?(?:is|are|was|were|has|have|had|just|will|"
                        r"used to|got|died|passed|went|came|took|made|broke|fell|ran|won|lost|left|grew|became|began|gave|"
                        r"[a-z]{2,}(?<!s)s|[a-z]{3,}ed|'s|’s|s)\b",
                        stripped):
            return None
    elif not re.match(r"^(?:I|i)(?:'m|’m| m|'ve|’ve| ve|'d|’d|'ll|’ll)\b|^(?:Im|im|Ive|[Ii]am)\b", stripped) and not (
        _EN_ANY_VERB_RE.match(stripped)
    ):
        return None
    if _EN_GENERIC_RE.match(stripped) or _EN_MOMENT_RE.match(stripped) or _EN_REACTION_RE.match(stripped):
        return None
    if EN_HYPOTHETICAL_RE.search(stripped):
        return None
    if _EN_REQUEST_RE.search(stripped):
        return None
    if _EN_TASK_NOUN_RE.search(stripped) and _EN_TASK_VERB_RE.search(stripped):
        return None
    words = re.findall(r"[A-Za-z0-9'’]+", stripped)
    if len(words) < 2 or (len(words) == 2 and not re.match(r"^(?:I'm|I’m|Im)\s", stripped)):
        return None
    rest = [w.lower() for w in words[1:]]
    meaningful = [w for w in content_tokens(" ".join(rest)) if w not in _EN_PRONOUN_ONLY]
    if not meaningful:
        return None
    # "I love your idea" is about the assistant, not the user.
    if _EN_NOT_ABOUT_USER_RE.search(stripped) and not _RELATION_EN_RE.search(stripped):
        return None
    return stripped


def trailing_dropped(text: str) -> str:
    """"…named Bailey too" → "…named Bailey"."""
    return _EN_TRAILING_RE.sub("", text)


# "I don't have kids just pets": after a negation, "just" / "only" before what the user does have means "only", and
# must stay ("User doesn't have kids, only pets"), where elsewhere it is a filler ("I just moved"); so does "not just".
_CONTRAST_JUST_RE = re.compile(r"(?P<neg>(?:n't|\bnot|\bnever|\bno)\b[^,;.!?]*?\w)\s*,?\s+(?:just|only)\s+(?=\w)", re.I)


def en_statement(quote: str) -> str:
    text = re.sub(r"(?<=n't|not) just\b", " only", quote, flags=re.I)  # "I don't just cook": more than cooking
    text = _CONTRAST_JUST_RE.sub(
        # "I don't remember, I only have a pic": an "only" after a new subject belongs to that subject's verb
        lambda m: m.group(0) if re.search(r"\b(?:I|i|you|he|she|we|they|it)$", m.group("neg"))
        else f"{m.group('neg')}, only ", text)
    text = _EN_FILLER_WORDS_RE.sub("", text)
    text = re.sub(r"\s+by\s+myself\s*$", " alone", text)  # "I live in a condo by myself"
    text = re.sub(r"(?<!\bof)(?<!\bfor)(?<!\bwith)\s+myself\s*$", "", text)  # "proud of myself" keeps its object
    text = _EN_TRAILING_RE.sub("", text)
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    text = re.sub(r"\b[Oo]ur\b", "their", to_third_person_en(text))  # "I took our kids" → "… their kids"
    # "User's dad's a steel worker" → "User's dad is a steel worker"
    text = re.sub(r"^(User's (?:[\w-]+ ){0,2}?[\w-]+)(?:'s|’s) (?=(?:a|an|the|so|very|really|not|in|at|from|on|been|\w+ing)\b)",
                  lambda m: f"{m.group(1)} {'has' if text[m.end():].startswith('been') else 'is'} ", text)
    return text[:1].upper() + text[1:]


# "my two older brothers were …" says the user has two older brothers.
_IMPLIED_HAVE_RE = re.compile(
    r"\b(?:[Mm]y|(?P<the>[Tt]he))\s+(?P<mods>(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|older|younger|little|big|baby|"
    r"twin|new|oldest|youngest|eldest|teenage|adult|grown)\s+){0,2})"
    r"(?P<noun>kids|children|sons?|daughters?|grandchildren|grandkids|grandsons?|granddaughters?|sisters?|"
    r"brothers?|wife|husband|boyfriend|girlfriend|fianc[eé]e?|dogs?|cats?|puppy|puppies|kittens?|horses?|"
    r"baby|twins|pets?|job|car|truck|jeep|house|apartment|garden|farm|boat|bike|motorcycle)\b"
)

_NO_LONGER_HAS_RE = re.compile(
    r"\b(?:quit|quitting|lost|losing|left|leaving|sold|selling|totaled|wrecked|crashed|miss|missed|missing|"
    r"gave up|want|wants|wanted|need|needs|looking for|find|found|buy|buying|get|getting|dream of|wish)\b",
    re.IGNORECASE,
)
_THINGS = frozenset("job car truck jeep house apartment garden farm boat bike motorcycle".split())
_OWN_WITH_THE = frozenset("kids wife husband grandkids grandchildren twins".split())
_PLURAL_NOUNS = re.compile(r"(?:s|children|grandchildren|puppies|twins)$")

_COUNTED_FRAGMENT_RE = re.compile(
    r"^(?P<q>(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(?:(?:older|younger|little|grown)\s+)?"
    r"(?:kids|children|sons|daughters|grandchildren|grandkids|grandsons|granddaughters|sisters|brothers|"
    r"siblings|dogs|cats|horses|pets|chickens|birds))\b(?:\s+(?:now|already|so far))?[.!]*$",
    re.IGNORECASE,
)


def implied_possessions(sentence: str) -> list[tuple[str, str, str]]:
    """(quote, statement, category) for what "my two sons" / "my car" / "5 grandkids now" say the user has."""
    found = []
    counted = _COUNTED_FRAGMENT_RE.match(LEAD_FILLER_RE.sub("", sentence.strip()))
    if counted:
        found.append((counted.group("q"), f"User has {counted.group('q')}", "relation"))
    speaks_of_self = bool(re.search(r"\b(?:I|I'm|I’m|I've|I’ve|me|my)\b", sentence))
    for m in _IMPLIED_HAVE_RE.finditer(sentence):
        mods, noun = m.group("mods").strip(), m.group("noun").lower()
        # "the kids" / "the wife" are the user's own only in a sentence about the user, and only for family.
        if m.group("the") and not (speaks_of_self and noun in _OWN_WITH_THE):
            continue
        if _NO_LONGER_HAS_RE.search(sentence[max(0, m.start() - 25) : m.start()]):
            continue  # "I quit my job", "we sold the house"
        counted = bool(re.match(r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b", mods))
        if counted or _PLURAL_NOUNS.search(noun):
            phrase = f"{mods} {noun}".strip()
        else:
            phrase = f"{'an' if (mods or noun)[0] in 'aeiou' else 'a'} {(mods + ' ' + noun).strip()}"
        category = "fact" if noun in _THINGS else "relation"
        found.append((m.group(0), f"User has {phrase}", category))
    return found
