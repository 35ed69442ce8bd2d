"""English clause rules: where a self-disclosure clause starts and ends, what disqualifies it (a question, a
hypothetical, a request, the task at hand), its statement in the third person and its category.

The English engine is three modules: this one (the rule tables every reading shares), english_clause.py
(what one clause says: "we have …", a dropped "I", an answer, a favourite; where a sentence splits into
clauses) and english_sentences.py (readings of a whole sentence: "Oscar, my guinea pig", "… made by me",
what "my two sons" implies). The regex tables here are long by nature (issue #20 leaves rule tables big)."""
from __future__ import annotations

import re

from dreaming.engine.application_letters import self_marketing
from dreaming.engine.clause_tails import cut_tail
from dreaming.engine.go_activities import back_from_statement
from dreaming.engine.language import content_tokens
from dreaming.engine.third_person import SINCE_NOT_AN_AGE, WHEN_NOT_AN_AGE, age_in_years, to_third_person_en

_SUBJ = r"(?:I|i|I'm|I’m|i'm|Im|im|I m|[Ii]am|I've|I’ve|i've|Ive|I'd|I’d|I'll|I’ll|[Mm]y|MY)"

# Where a new first-person clause starts inside a sentence.
EN_CLAUSE_SPLIT_RE = re.compile(
    rf"(?:,|;|:|\s-\s|\s–\s|(?<=\w)[-–—]\s+)\s*(?:(?:and|but|so|because|cause|{SINCE_NOT_AN_AGE}|though|although|plus|then|now)\s+)?"
    rf"(?={_SUBJ}\b)|(?<=\w)[-–—]\s+(?=[Ww]e\b(?!'d|’d| would| could| should| might| can))"
    rf"|\s+(?:and|but|so|because|cause|{SINCE_NOT_AN_AGE}|though|although|plus|while|as|now that|&)\s+(?:(?:yes|yeah|no|well|also|now),?\s+)?(?=(?:{_SUBJ}|[Ww]e|[Ww]e've)\b)"
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
    r"anyway|anyways|by the way|btw|really|true|right|same|me too|same here|good|thanks|thank you|that's cool|that's great|"
    r"that's awesome|that is cool|that sounds (?:fun|great|nice|awesome)|i see|interesting|oh wow|"
    r"definitely|absolutely|of course|exactly|indeed|wait|hmm|fair enough|not really|not much|sounds good|"
    r"i agree|to be honest|tbh|personally|funny|ha|omg|gosh|yikes|sorry|i know|you know|i mean|"
    r"(?:i think|i guess|i believe|i suppose)(?!,? (?:i'll|i’ll|i will|i'm going to|i’m going to|i am going to|i'm gonna|i’m gonna)\b)|i feel like|i would say|i'd say|i have to say|i must say|"
    r"that's why|thats why|which is why|that is why|now|then|because|cause|since|though|although|"
    r"i get that|i hear you|i feel you|i know right|i'm sure|i am sure|i bet|i'm great thanks|"
    r"i see what you mean|i understand|doing (?:ok|okay|good|great|well|fine|alright|pretty good)(?: here)?|"
    r"not bad|pretty good|not much|i'm (?:good|great|fine|ok|okay|doing (?:well|good|great|ok|okay|fine))|"
    r"i am (?:good|great|fine|ok|okay|doing (?:well|good|great|ok|okay|fine))|hi there|hello there|hey there|maybe that's why|maybe thats why|"
    r"that's probably why|probably because|well then|good to know|thank you|thanks|awe|aww+|"
    r"i (?:just |recently |finally )?(?:learned|learnt|realized|realised|found out|discovered|noticed) that|"
    r"i (?:gotta|got to|have got to) say|gotta say|(?:so )?guess what|(?:big|good|great|exciting|happy|some) news|update|"
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
    r"tomorrow|tonight|later today|soon|(?-i:[A-Z][a-z]{2,15})(?=,\s+(?:I|I'm|I’m|I've|I’ve|my|My|thanks|[Tt]hank you)\b))"  # "John, I'm…"
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
    r"say|said|told you|mean it|meant|was just (?:saying|kidding|joking|wondering|asking|curious)|"
    r"hope(?! to)|could|would(?! (?:really |so |just )?(?:love|like) to\b| (?:much |way |really )?rather\b(?! not (?:say|tell|share|answer|talk|discuss|go into|get into)\b))|should|(?:might|may)(?! have (?:just )?(?:found|got|gotten|landed|booked|met|bought|sold)\b)|must|will have to|'ll have to|’ll have to|'ll (?:check|look|try|give)|"
    r"will (?:check|look|try|give)|'ll be (?:more than )?happy|will be (?:more than )?happy)\b",
    re.IGNORECASE,
)

# Replies to the other side's news or advice: "I'll have to try it", "I can't wait", "I would like to do that".
_EN_REACTION_RE = re.compile(
    r"^(?:I|i)(?:'ll|’ll| will| would| 'd|'d|’d)\s+(?:have to|check|look|try|give|keep|think about|love to (?:see|hear|try))\b|"
    # the same said with an adverb, or "going to": "I will definitely keep that into consideration" (not "I'll
    # definitely keep spreading positivity": a resolve of the user's own)
    r"^(?:I|i)(?:'ll|’ll| will| would|'d|’d)\s+(?:definitely|certainly|surely|for sure|really|totally|probably|absolutely)\s+"
    r"(?:have to|check|look|try|give|keep (?:that|it|this|them|those)|think about|consider)\b|"
    r"^(?:I|i)(?:'m|’m| am) going to have to (?:look|check|think)\b|"
    # "I will remember that": advice taken, nothing of the user's own
    r"^(?:I|i)(?:'ll|’ll| will)\s+(?:(?:definitely|certainly|surely|for sure|really|totally|always)\s+)?remember\s+"
    r"(?:that|this|it|them)\b|"
    r"^(?:I|i)\s+(?:cant|can't|cannot)\s+wait\b|^(?:I|i)\s+(?:\w+\s+)?feel\s+(?:that way|the same)\b|"
    r"^(?:I|i)(?:'d|’d| would)\s+(?:(?:really\s+)?(?:like|love)\s+to|(?:much |way |really )?rather)\s+[a-z]+\s+(?:that|it|this|them)\b",
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
    r"^(?:if|unless|in case)\b|\b(?:suppose|imagine|what if|pretend|maybe|perhaps)\b|"
    r"^(?!(?:I|i) (?:really )?(?:want|wanna|hope|plan|dream|wish|would love|'d love|’d love)\b).*\bsomeday\b|"  # an aim stays
    r"^(?:I|i)(?:'d|’d| would| could| might| may| should)\b(?! (?:been|had|gone|lived|(?:really )?(?:like|love) to\b|(?:much |way |really )?rather\b))"
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

EN_NOT_ABOUT_USER_RE = re.compile(r"\b(?:you|your|yours|u)\b", re.IGNORECASE)

_EN_FILLER_WORDS_RE = re.compile(
    r"\s*\b(?:really|actually|just|pretty(?! sure)|totally|definitely|absolutely|basically|literally|honestly|"
    r"unfortunately|fortunately|luckily|sadly|hopefully|obviously|personally|"
    r"seriously|kinda|sorta|lol|haha+|hehe|lmao)\b",
    re.IGNORECASE,
)

_EN_TRAILING_RE = re.compile(
    r"(?:[\s,;:]+(?:too|as well|also|though|lol|haha+|either|anyway|anyways|in my (?:free|spare) time|"
    r"these days|nowadays|currently|right now|at the moment|sometimes|a lot|alot|all the time|so much|"
    r"very much|for sure|on the side|still|still though|and such|and stuff|and things|etc|mainly|mostly|"
    r"usually|often|every day|everyday|by the way|btw))+\s*$",
    re.IGNORECASE,
)
_COUNTED_RATE_RE = re.compile(r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a few|several) [a-z]+ every ?day\s*$", re.I)

PRONOUN_ONLY = frozenset("it that this those these them one ones so too much lot there here together".split())

_RELATION_EN_RE = re.compile(
    r"\b(?:wife|husband|spouse|partner|boyfriend|girlfriend|fiance|fiancee|fiancé|fiancée|sisters?|brothers?|"
    r"sibling|siblings|mom|mum|mother|dad|father|parents|son|sons|daughter|daughters|kid|kids|child|children|"
    r"baby|babies|grandma|grandpa|grandmother|grandfather|grandparents|grandson|granddaughter|grandkids|"
    r"grandchildren|aunt|uncle|cousin|cousins|niece|nephew|family|friend|friends|best friend|roommate|"
    r"neighbor|neighbour|boss|coworker|co-worker|colleague|in-laws|stepmom|stepdad|twin|married|divorced|"
    r"engaged|single|widowed|dating|broke up|split up|separated from)\b",
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
    r"\b(?:yesterday|today|tonight|last (?:week|month|year|night|weekend|summer|winter)|this (?:week|month|year|weekend|"
    r"morning)|recently|just (?:got|moved|started|finished|bought|came|went|had|graduated)|went|moved|got|started|finished|"
    r"graduated|(?<!\bis )(?<!\bam )(?<!'m )(?<!’m )retired|bought|visited|traveled|travelled|adopted|met|won|lost|quit|joined|married|will|going to|gonna|"
    r"flying to|driving to|heading to|next (?:week|weekend|month|year|summer|winter|spring|fall|autumn)|planning (?:a|our|my|the|their) trip)\b",
    re.IGNORECASE,
)

LONG_LIVED_EN_RE = re.compile(
    r"\b(?:live|lives|lived|from|born|grew up|work|works|worked|job|career|profession|name is|name's|name’s|named|call me|go by|"
    r"years old|married|kids|children|son|daughter|wife|husband|degree|college|university|school|teacher|nurse|engineer|"
    r"doctor|student|retired|own|owns|dog|cat|pet|vegan|vegetarian|moving|move|moved|freelanc\w*|self-employed|"
    r"unemployed|laid off|promoted|hired|quit|teach|teaches|taught|anymore|any more|no longer)\b",  # a change lasts
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
    r"retired|quit|joined|(?:love|like|enjoy|hate|prefer)(?!\s+(?:and|had|has|have|is|was|were|will|would|can|could|did|does|i|you|u|we|he|she|they)\b)|work|live|took|visited|spent|lost|won|dyed|booked|signed up|"
    r"picked up|baked|painted|wrote|gonna|"
    # "Researching adoption agencies", "Been reading a lot", "Getting ready for the move": an activity, unless
    # the gerund is a subject ("Reading is my escape", "Getting sponsors was difficult").
    # "Been real busy tackling a project", "Trying to get a petition going", "had an audition yesterday"
    r"been\s+(?:(?:real|really|so|super|pretty|very|quite|crazy)\s+)?busy\s+(?:with\b|\w+ing\b)|trying to|"
    r"had(?=\s+(?:a|an|my|our|some|\d+)\s+(?!(?:good|great|nice|wonderful|lovely|fun|blast|ball|bad|rough|tough|long|"
    r"busy|crazy|wild|hard|great|amazing|awesome|fantastic|terrible|horrible|weird|strange)\s+(?:time|day|week|night|"
    r"weekend|month|year|one)\b))|"
    r"been\s+(?:\w+ly\s+)?(?!going\b)\w+ing\b|been\s+(?:only\s+|just\s+|once\s+)?to\s+(?=(?-i:[A-Z]))|"
    # "Been a teacher for years" (not "Been a pleasure", "Been a while since …")
    r"been\s+an?\s+(?!(?:while|long|bit|minute|year|week|day|month|few|couple|lot)\b)(?=[a-z]+(?:\s+[a-z]+)?\s+(?:for|since)\s)|"
    r"(?:been\s+)?(?:moving|thinking about|heading|planning|getting|training|studying|working on|learning|saving up|"
    r"looking forward to|researching|reading|writing|painting|volunteering|practicing|practising|preparing|"
    r"building|renovating|decorating|applying|interviewing|recovering|exploring|starting|leaving|flying)"
    r"(?!(?:\s+[\w'-]+){0,12}\s+(?:is|was|are|were|isn't|wasn't|aren't|has|have|had|helps|help|makes|made|keeps|brings|gives|"
    r"means|looks|seems|sounds|feels|does|doesn't|can|will)\b)(?!['’]s\b)|"
    # "Dyed my hair last week", "Booked our flights": a past action on the user's own things.
    r"(?!(?:loved|liked|enjoyed|hated|needed|wanted|missed|wished|guessed|figured|agreed|noticed|realized|"
    r"realised|appreciated|used|supposed|seemed|looked|sounded|reminded|excited|tired|bored|interested|"
    r"pleased|surprised|confused|worried|impressed|scared|stressed)\b)[a-z]{3,}ed(?=\s+(?:my|our|a|an|some|two|three)\b))"
    r"\b(?!\s+(?:it|that|this|them|you|your|to hear|hearing|the idea|that idea|should|can|could|will|would)\b)",
    re.IGNORECASE,
)

# "I love sports, especially basketball" also says the user loves basketball ("especially with ruffled sleeves" does not).
ESPECIALLY_RE = re.compile(
    r"^(?P<head>(?:I|i)\s+(?:(?:really|also|just)\s+)?(?:like|love|enjoy|adore|prefer))\b[^,.!?]*,\s*"
    r"(?P<quote>(?:especially|mostly|mainly|particularly)\s+(?P<x>(?!(?:with|without|when|if|in|on|at|for|during|"
    r"because|since|after|before|while|as|to|from|around|by)\b)[^,.!?;]{2,40}))"
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


def habit_statement(quote: str) -> str | None:
    m = BACK_FROM_RE.match(quote)
    if not m:
        return None
    if m.group("activity"):
        before = quote[: m.start("activity")]
        return back_from_statement(m.group("activity"), quote[m.end():], after_determiner=not before.endswith("from "))
    return f"User goes to {m.group('place').lower()}"


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
    return None if _not_a_disclosure(stripped) else stripped


def says_nothing_of_the_user(text: str) -> bool:
    """Small talk ("I love that"), a request, a hypothetical, the task at hand ("Write me a story about my
    cat", "If I were rich") or self-marketing: never a disclosure, whatever a clause reading or a model says."""
    return bool(_EN_GENERIC_RE.match(text) or _EN_MOMENT_RE.match(text) or _EN_REACTION_RE.match(text)
                or _asks_or_supposes(text) or self_marketing(text))


def _asks_or_supposes(text: str) -> bool:
    return bool(EN_HYPOTHETICAL_RE.search(text) or _EN_REQUEST_RE.search(text)
                or (_EN_TASK_NOUN_RE.search(text) and _EN_TASK_VERB_RE.search(text)))


def _not_a_disclosure(stripped: str) -> bool:
    """A first-person clause that still says nothing about the user: small talk ("I love that", "I'm good"),
    a hypothetical, a request, the task at hand, or the assistant ("I love your idea")."""
    if says_nothing_of_the_user(stripped):
        return True
    words = re.findall(r"[A-Za-z0-9'’]+", stripped)
    if len(words) < 2 or (len(words) == 2 and not re.match(r"^(?:I'm|I’m|Im)\s", stripped)):
        return True
    rest = [w.lower() for w in words[1:]]
    if not [w for w in content_tokens(" ".join(rest)) if w not in PRONOUN_ONLY]:
        return True
    return bool(EN_NOT_ABOUT_USER_RE.search(stripped)) and not _RELATION_EN_RE.search(stripped)


def trailing_dropped(text: str) -> str:
    """"…named Bailey too" → "…named Bailey"."""
    return _EN_TRAILING_RE.sub("", text)


# "I don't have kids just pets": after a negation, "just" / "only" before what the user does have means "only", and
# must stay ("User doesn't have kids, only pets"), where elsewhere it is a filler ("I just moved"); so does "not just".
_CONTRAST_JUST_RE = re.compile(r"(?P<neg>(?:n't|n’t|\bnot|\bnever|\bno)\b[^,;.!?]*?\w)\s*,?\s+(?:just|only)\s+(?=\w)", re.I)


# A clause cut before what its last word opens: "I love taking them to the beach even" (… though fall is my
# favorite), "I live by the beach so", "I have been to spain and". Not "I think so": that "so" is the object.
_DANGLING_RE = re.compile(r"(?:\s*,?\s+(?:even|and|but|or|because|(?<!\ba\s)(?<!\bgood\s)(?<!\bthe\s)cause|(?<!\bthink )(?<!\bhope )(?<!\bguess )"
                          r"(?<!\bthinks )(?<!\bsaid )(?<!\bsay )(?<!\bbelieve )so))+\s*[.!]*$", re.IGNORECASE)


def en_statement(quote: str) -> str:
    text = re.sub(r"(?<=n't|n’t|not) just\b", " only", quote, flags=re.I)  # "I don't just cook": more than cooking
    text = _CONTRAST_JUST_RE.sub(
        # "I don't remember, I only have a pic": an "only" after a new subject belongs to that subject's verb
        lambda m: m.group(0) if re.search(r"\b(?:I|i|you|he|she|we|they|it)$", m.group("neg"))
        else f"{m.group('neg')}, only ", text)
    text = _EN_FILLER_WORDS_RE.sub("", text)
    text = re.sub(r"\s+by\s+myself\s*$", " alone", text)  # "I live in a condo by myself"
    text = re.sub(r"(?<!\bof)(?<!\bfor)(?<!\bwith)\s+myself\s*$", "", text)  # "proud of myself" keeps its object
    text = text if _COUNTED_RATE_RE.search(text) else _EN_TRAILING_RE.sub("", text)  # "3 cups every day": a rate
    text = _DANGLING_RE.sub("", text)
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    text = re.sub(r"\b[Oo]ur\b", "their", to_third_person_en(text))  # "I took our kids" → "… their kids"
    # "User's dad's a steel worker" → "User's dad is a steel worker"
    text = re.sub(r"^(User's (?:[\w-]+ ){0,2}?[\w-]+)(?:'s|’s) (?=(?:a|an|the|so|very|really|not|in|at|from|on|been|\w+ing)\b|(?<=name's )[A-Z]|(?<=name’s )[A-Z])",
                  lambda m: f"{m.group(1)} {'has' if text[m.end():].startswith('been') else 'is'} ", text)
    return age_in_years(text[:1].upper() + text[1:])


# Where a first-person clause starts inside a sentence without a comma before it: "Yes it sucks loosing I also
# enjoy lawn mowing", "Me too. They play it at the races that I attend" (the last one a reader keeps or not).
_LATE_SUBJECT_RE = re.compile(r"(?<=\s)(?:I|I'm|I’m|I've|I’ve|My)\b")
# A late "I" right after a wh-word, or after a noun phrase that a preposition opens in mid-sentence, opens a
# relative clause about that thing: "make it good for people I did not meet", "exactly what I needed". Not a
# pseudo-cleft ("Gardening is what I love"), an opening place or time ("On top of that I just bought…"), a
# clause after "and" / "where" ("a lot of singing and I know all the words", "the gas station where I work")
# or a run-on sentence's "I" ("it is a favorite of mine I hate chicken", "that is great I love hiking"). A gerund or
# "like" opening the sentence is its head: "Knowing I can make a difference keeps me motivated", "Like I said".
_RELATIVE_BEFORE_RE = re.compile(
    r"(?<!\bis)(?<!'s)(?<!’s)(?<!\bwas)\s+(?:what|which|whatever|who|whom)\s+$"  # not the sentence's opening "What I love…"
    r"|^\W*(?:where|wherever)\s+$"  # a clause of place: "Where I come from, cats don't chase birds"
    r"|^(?:\S+\s+){3,}?(?:for|of|to|with|from|about)\s+"
    r"(?:(?!(?:and|but|so|because|where|when|that|then|while|if|or|mine|now)\b)[\w'’-]+\s+){1,5}$"
    r"|(?:^\W*|\b(?:but|and)\s+|,\s*)(?:like|(?:knowing|seeing|realizing|realising|hearing|watching|thinking|"
    r"remembering|noticing|finding|learning|feeling)(?:\s+that)?)\s+$",
    re.IGNORECASE,
)
# Talk about the chat itself: "the peoples I mentioned earlier", "the list I gave you above", "In China I meant".
_CHAT_TALK_RE = re.compile(
    r"^(?:I|i)\s+(?:meant\b|(?:mentioned|said|wrote|listed|described|asked|told you|gave you|sent you|shared)\b"
    r".{0,40}?\b(?:earlier|before|above|previously)\b)"
)
_SUBJECT_I_RE = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll)\b")


def late_i_says_nothing(text: str) -> bool:
    """Whether the first "I" of `text` opens a relative clause (see _RELATIVE_BEFORE_RE) or talk about the chat
    ("… the peoples I mentioned earlier will be involved")."""
    subject = _SUBJECT_I_RE.search(text)
    return bool(subject and (_RELATIVE_BEFORE_RE.search(text[: subject.start()])
                             or _CHAT_TALK_RE.match(text[subject.start():])))


# A verb of its own after a late "I": the sentence's subject is the noun phrase before the "I".
_LATE_I_SECOND_VERB_RE = re.compile(r"\b(?:is|was|are|were)\b|(?<!\bI )(?<!\bi )(?<!\bwe )(?<!\bthey )(?<!\byou )(?<!\bhe )"
                                    r"(?<!\bshe )(?<!\bit )\b(?:(?:has|have|had) been|(?:do|does|did)(?: not|n't|n’t))\b")
_LATE_I_OWN_AUXILIARY_RE = re.compile(r"^(?:I|i)\s+(?:(?:do|did)(?: not|n't|n’t)|(?:have|had) been)\b")  # the "I"'s own verb


def sentence_statement(sentence: str) -> tuple[str, str] | None:
    """(quote, statement) for a first-person sentence, or its first-person tail, kept whole when no clause
    reading took anything from it (extract._whole_sentence): "I am a vegitarian that likes eating fruit" →
    "User is a vegitarian that likes eating fruit". Never a question, a hypothetical, a request or the task."""
    said = LEAD_FILLER_RE.sub("", sentence.strip()).rstrip(" ,;:-.!…")
    late = None if EN_START_RE.match(said) else _LATE_SUBJECT_RE.search(said)
    bare = said[late.start():] if late else said if EN_START_RE.match(said) else ""
    if late and (_LATE_I_SECOND_VERB_RE.search(_LATE_I_OWN_AUXILIARY_RE.sub("", bare)) or late_i_says_nothing(sentence.strip())):
        # "The band I like the most is rascal flats", "The script I sent in has been on my mind": the "I" opened a
        # relative clause, not a sentence
        return None
    if not bare or "?" in said or EN_HYPOTHETICAL_RE.search(said) or len(re.findall(r"[A-Za-z0-9'’]+", bare)) < 3 \
            or _not_a_disclosure(bare):
        return None
    return bare, en_statement(bare)
