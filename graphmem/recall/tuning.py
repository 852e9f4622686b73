"""Every tuning constant of recall, in one place, each with why it is what it is.

Users tune recall through `Settings` (channel weights per question type, the fusion's damping,
the neighbours' share, the ranker); these are the constants below that. The measurements that
chose them are in docs/tuning.md, not here: a refit changes figures, not reasons."""

from __future__ import annotations

# -- how deep the channels read --------------------------------------------------------

# How many memories each channel ranks.
DEPTH = 50
# ... per question type, where it differs: a multi-hop question's evidence is several turns
# that each match it weakly, so they sit deeper in every channel.
DEPTH_BY_TYPE = {"multi-hop": 100}
# The semantic channel reads the memory index this many times the depth: a turn whose best
# sentence matches (one fact in a long turn is diluted in the turn's embedding) can then rise
# into the depth once its sentence cosines are known.
SEMANTIC_READ = 2
# The memory vector index is shared by every user, so the user's share of it is read this many
# times the depth deep; when that yields fewer of the user's memories than it should, the
# channel scans the user's own memories exactly.
INDEX_OVERREAD = 8
# A user with at most this many memories is scanned exactly, without the index: in a store shared
# by many users the index read reaches too few of a small user's memories and the exact scan
# follows anyway, and an exact scan of this many costs about one index read (bench/README.md,
# "A small user's memories scanned exactly").
EXACT_UP_TO = 2000
# A posting list longer than this (an entity's mentions, a word's memories) is not walked: the
# walk would grow with the memory, and such an entity or word tells little. It only boosts the
# memories other channels found (recall_*_boost.cypher).
FANOUT = 1000
# Spreading activation: the share of an entity's weight that its RELATES neighbours get.
ENTITY_DECAY = 0.3

# -- reading the question (analysis) ---------------------------------------------------

# An entity in more than this share of the user's memories (the speakers, mostly) tells little
# about what is asked: it is left out of the simplicial channel's vertex set and, when it is a
# speaker, out of the question's topic.
COMMON_SHARE = 0.1
# The cosine of two names at which a question's mention matches a stored entity by embedding:
# names are short, so near-synonyms score high; concepts ("dog", "cat") need more.
NAME_MATCH_FLOOR = 0.72
CONCEPT_MATCH_FLOOR = 0.85
# How many entities the name-embedding match reads from the entity index per mention.
ENTITY_MATCH_SCAN = 200

# -- the semantic channel --------------------------------------------------------------

# How much nearer a memory said by a person the question names counts: little, a tie-break
# among memories about as near ("What has Melanie painted?" asks for what Melanie said).
SPEAKER_PRIOR = 0.05

# -- fusion and candidates -------------------------------------------------------------

# The ranker orders the fused top POOL_FUSED and each channel's top POOL_PER_CHANNEL, plus the
# session neighbours of the fused top NEIGHBOURS_OF (an answer is often the reply to the turn
# that matched: those neighbours inherit a share of its fused score). Fixed, not k, so that a
# memory's score does not depend on how many are asked for.
POOL_FUSED, POOL_PER_CHANNEL, NEIGHBOURS_OF = 40, 20, 10
# A candidate is lifted by the best of the candidates at most NEAR_TURNS turns from it in its
# session (the ranker's `neighbour_lift`), by kind of conversation (ranker.conversation_kind).
# Among people the answer is often the turn after the one that matched, or the same speaker's
# next turn, two on ("My favourite theme to play is from a movie" ... "Yeah, Harry Potter is
# special to me"); with an agent, two on is the user's next request, as often a new one, and the
# reach stays one turn (bench/README.md, "The turn two on").
NEAR_TURNS = {"people": 2, "agent": 1}
# For a broad question, the ABSTRACTS_SHOWN strongest abstracts (graphmem/consolidation.py)
# that hold at least ABSTRACT_LEAST of the fused top ABSTRACTS_OF come back with the answer.
# They lend their members nothing: lending a share of the score, as a feature or by adding the
# members to the candidates, did not help held out (bench/README.md, "Consolidation").
ABSTRACTS_OF, ABSTRACT_LEAST, ABSTRACTS_SHOWN = 20, 2, 3
# Scores are sums of floats that backends add in different orders: they are compared at this
# many decimals, and ties go to the smaller uid, so every backend ranks the same data the same.
SCORE_DECIMALS = 9

# -- the ranker's features (ranker.py) ---------------------------------------------------

# The damping of the per-channel rank features (as in fusion; fixed here so that a fitted
# ranker's weights keep their meaning whatever the fusion setting).
RANK_FEATURE_K = 20
# A channel's top this many get an extra feature: being near the top matters more than rank.
RANK_FEATURE_TOP = 5
# A candidate with no cosine (a memory without an embedding) is this far from the best.
MISSING_COSINE_GAP = -0.5
# A turn of this many indexed words (or more) counts as fully wordy (facts sit in long turns).
WORDS_FULL = 40

# -- versions of one thing not linked at write time (recency.py) --------------------------

# Of the first VERSION_WINDOW memories, each speaker's best VERSION_HEAD get the version the
# question's reading wants put right above them: within the window, so which memories are in the first
# VERSION_WINDOW never changes, and for the head alone, since versions found lower down were,
# in BEAM's conversations, mostly later turns on the same topic rather than the same fact, and
# moving them cost Recall@5. Two memories are versions when their embeddings are at least
# VERSION_COSINE near (a fact and its update said in different words are seldom nearer) and
# both hold at least VERSION_QUESTION_WORDS of the question's content words (all of them when it
# has fewer). Chosen on half
# of BEAM's conversations and checked on the other half (bench/README.md, "Newer above older").
VERSION_HEAD, VERSION_WINDOW = 1, 10
# A later memory up to MARKED_BELOW below the window can still be the version read, when it marks
# itself the newer version of the thing the question asks about ("my increased January book
# budget of $50" for "What is my monthly budget for books?"): such a mark is rare and says what
# the window's nearness only guesses (bench/README.md, "Versions of one thing").
MARKED_BELOW = 4
# By kind of conversation (ranker.conversation_kind), whether a speaker's head counts only the
# memories that have a version: with an agent, the user's best memory is often a later request
# on the topic with no later version of its own, and it hid the fact below it whose update the
# question asks for; among people that reading moved many orders for nothing (bench/README.md,
# "The user's first memory that has a version").
VERSIONS_FIRST_FOUND = {"people": False, "agent": True}
# VERSION_COSINE is also how near a later memory that tells a change must be to be a version for a
# question about now (recency.told_anew).
VERSION_COSINE = 0.5
VERSION_QUESTION_WORDS = 2
# A later memory that names an earlier one's value and says it changed (recency.renamed) is its
# version at this cosine: naming the old value ties them where their words differ.
RENAMED_COSINE = 0.3
# A later memory that tells a change of the speaker's own, and a new value where it names one, is
# a version for a question about now at this cosine (recency.told_anew): an update said in other
# words is often less near than VERSION_COSINE. Chosen on the blind pair sets (tests/data/
# updates_unseen*.jsonl), where it is the knee between updates answered and look-alikes kept;
# BEAM and LoCoMo did not move (bench/README.md, "A change told in other words").
CHANGE_COSINE = 0.4
# ... and, less than VERSION_COSINE near, each of the two must be about the question: share a word
# with the other or with the question, or be this near the question (recency.told_anew). One
# person's short messages are all about CHANGE_COSINE near each other ("We're migrating from
# Postgres 13 to 16 next month", "I relocated to Vancouver last week"); in a large memory the first
# results are about the question anyway, in a small one they are all there is. Between the
# look-alikes of the blind small-store sets (0.12-0.32, bench/README.md "Small memories") and the
# updates said in other words (0.39-0.40: "Ever since the Aldi opened ... I do all my shopping there").
QUESTION_NEAR = 0.35

# -- standing instructions and stated preferences (standing.py) -----------------------------

# The least cosine between a question and a standing instruction or a stated preference for it
# to come first; and how many of the user's instructions, and of their preferences, are read,
# the newest. Chosen for each kind on half of BEAM's conversations and checked on the other
# half (bench/README.md, "Standing instructions" and "Stated preferences").
STANDING_COSINE = 0.35
# ... and between a question and the scope an instruction gives itself ("when I ask about
# deadlines"): a few words, nearer a question on them than a whole instruction is. Chosen the
# same way (bench/README.md, "An instruction's scope").
STANDING_SCOPE_COSINE = 0.4
STANDING_READ = 200

# -- the answer ------------------------------------------------------------------------

# The cross-encoder, when configured, reorders the fused top k * RERANK_POOL.
RERANK_POOL = 3
# The token budget counts about this many characters a token (the usual rule for English with
# BPE tokenisers).
CHARS_PER_TOKEN = 4
# At most this many matched entities get their implied faces enumerated as gaps (2^n faces).
GAP_ENTITIES = 12

# -- ranking the gaps (gaps.py) -------------------------------------------------------------

# An entity in most memories (a speaker) says little about what a question asks: a gap over it
# counts this share of one over a specific entity.
GAP_COMMON_WEIGHT = 0.5
# A gap holding an entity of the kind the question asks for (a place for "where") is what the
# question is about: lifted by this much (of at most 1).
GAP_ANSWER_KIND_BONUS = 0.25
# Entities seen together only inside a larger observation: inside one session (never in one
# message) is nearer a hole than inside one turn, where they were said together with others.
GAP_SESSION_HOLDER_WEIGHT, GAP_TURN_HOLDER_WEIGHT = 1.0, 0.6
# A gap names at most this many of the other entities it was seen with ("and 4 more").
GAP_CONTEXT_NAMES = 3
