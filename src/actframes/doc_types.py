"""The shape of the documents, as types: the Tier-1 document (SPEC.md §3), its Tier-2
layer (§3a) and the communications view (§10).

One ``TypedDict`` per object of the document. A key the SPEC marks ``?`` (left out when it
has no value) is ``NotRequired``; every other key is always present. Each class lists its
keys in the document's own order, so ``__annotations__`` reads like the SPEC's table (the
builder in ``compile/document.py`` writes them in that order; ``tests/test_doc_types.py``
holds the compiler's output, these types and SPEC.md §3 to one another).

These are types only: nothing here checks a document at run time. A document read back
from a file (a cached entry, ``actframes verify DOC.json``) is given its type where it is
parsed, and code that must survive a foreign file keeps its own checks.
"""

# No ``from __future__ import annotations``: NotRequired must be seen when the class is
# made, or ``__required_keys__`` would list every key.
from typing import NotRequired, TypedDict, final

# ---------------------------------------------------------------- small shared parts


class InputCounts(TypedDict):
    """Input events counted by kind (sums of each event's ``count``)."""

    keys: int
    clicks: int
    scrolls: int
    copies: int
    pastes: int


class Evidence(TypedDict):
    """A frame's or an interruption's source row ids and input event ids, compact ranges."""

    rows: str
    events: str


class Period(TypedDict):
    """A coverage gap or an away span."""

    start: str
    end: str
    s: int


# ---------------------------------------------------------------- the header blocks


class SourceInfo(TypedDict):
    kind: str  # native | screenpipe | activitywatch
    digest: str


class CompiledOptions(TypedDict):
    min_active_s: int
    rules: str  # the digest of the project and category rules (``RuleSet.digest``)


class CompiledConstants(TypedDict):
    dwell_cap_ms: int
    session_gap_ms: int
    flicker_ms: int
    gap_list_min_ms: int
    max_frame_titles: int


class Compiled(TypedDict):
    """What the document was compiled with: the compiler, the options, every constant."""

    by: str
    options: CompiledOptions
    constants: CompiledConstants


class WindowInfo(TypedDict):
    day: NotRequired[str]
    start: str
    end: str
    tz: str


class UnattributedInput(TypedDict):
    """Input no frame or interruption holds: counts, and the ids (or ``query``)."""

    events: int
    keys: int
    clicks: int
    scrolls: int
    copies: int
    pastes: int
    evidence: str


class Reattributed(TypedDict):
    """Stale input events moved to a snapshot of their own app, and those left."""

    events: int
    keys: int
    clicks: int
    left_unattributed: int


class Coverage(TypedDict):
    first: str | None
    last: str | None
    active_s: int
    span_s: int
    rows: int
    input_events: int
    unattributed_input: UnattributedInput
    reattributed: Reattributed
    gaps: list[Period]
    away: list[Period]


# ---------------------------------------------------------------- ledger and references


class LedgerEntry(TypedDict):
    app: str
    site: NotRequired[str]
    active_s: int
    keys: int
    clicks: int


@final  # so that ``"keys" in entry`` tells a host's entry from the whole ledger's
class HostLedgerEntry(TypedDict):
    app: str
    site: NotRequired[str]
    active_s: int


class Host(TypedDict):
    """One machine's ledger (ActivityWatch captures of several hosts)."""

    host: str
    active_s: int
    ledger: list[HostLedgerEntry]


class ViewedRef(TypedDict):
    """A typed reference seen in the window: its first view and number of views."""

    kind: str
    entity: str
    label: NotRequired[str]
    first: str
    views: int


class PageRef(TypedDict):
    """A reference a frame showed, with its number of views when above one."""

    kind: str
    entity: str
    label: NotRequired[str]
    count: NotRequired[int]


# ---------------------------------------------------------------- frames


class Interruption(TypedDict):
    """A short detour folded into its frame (A → B → A)."""

    app: str
    site: NotRequired[str]
    at: str
    active_s: int
    input: InputCounts
    evidence: Evidence


class Frame(TypedDict):
    id: str
    app: str
    site: NotRequired[str]
    device: NotRequired[str]
    project: NotRequired[str]
    category: NotRequired[str]
    start: str
    end: str
    active_s: int
    wall_s: int
    titles: list[str]
    pages: list[PageRef]
    input: InputCounts
    interruptions: list[Interruption]
    evidence: Evidence


class OmittedBy(TypedDict):
    """The filter that hid frames."""

    min_active_s: int


class Omitted(TypedDict):
    frames: int
    active_s: int
    by: NotRequired[OmittedBy]


class RejectedRows(TypedDict):
    """Row problems of one (table, reason), the row ids as compact ranges."""

    table: str
    reason: str
    count: int
    rows: str


# ---------------------------------------------------------------- projects and categories


class ShareEvidence(TypedDict):
    """The credited rows behind a share, as compact ranges (or ``query`` past
    ``UNATTRIBUTED_MAX_RUNS`` ranges)."""

    rows: str


class ShareEntry(TypedDict):
    """One project's or category's part of the window."""

    name: str
    active_s: int
    keys: int
    clicks: int
    frames: list[str]
    evidence: ShareEvidence


class Unassigned(TypedDict):
    """The time no project holds."""

    active_s: int
    keys: int
    clicks: int
    frames: list[str]
    evidence: ShareEvidence


class Projects(TypedDict):
    rules: str  # "built-in", or "built-in + FILE"
    entries: list[ShareEntry]
    unassigned: Unassigned


class Categories(TypedDict):
    rules: str  # "activitywatch defaults", a file's name, "activitywatch server"
    entries: list[ShareEntry]


# ---------------------------------------------------------------- Tier 2


class InferredEvidence(TypedDict):
    frames: NotRequired[list[str]]
    rows: NotRequired[str]


class Inferred(TypedDict):
    """One Tier-2 entry: a namespaced label, a confidence, the evidence it read."""

    label: str
    confidence: str  # high | medium | speculative
    evidence: InferredEvidence
    note: NotRequired[str]


# ---------------------------------------------------------------- the document


class Document(TypedDict):
    """The Tier-1 document, schema_version 1, with its optional Tier-2 layer last."""

    schema_version: int
    source: SourceInfo
    compiled: Compiled
    window: WindowInfo
    coverage: Coverage
    ledger: list[LedgerEntry]
    hosts: NotRequired[list[Host]]
    projects: Projects
    categories: Categories
    viewed: list[ViewedRef]
    frames: list[Frame]
    omitted: Omitted
    rejected_rows: list[RejectedRows]
    blind_spots: list[str]
    inferred: NotRequired[list[Inferred]]


# ---------------------------------------------------------------- the communications view


class ConversationEvidence(TypedDict):
    frames: str  # frame ids, comma-separated
    rows: str


class Conversation(TypedDict):
    """What a surface's rows show: a typed reference (``entity``) or, for kind ``title``,
    the cleaned window title (``title``)."""

    kind: str
    entity: NotRequired[str]
    title: NotRequired[str]
    titles: NotRequired[list[str]]
    active_s: int
    visits: int
    first: str
    last: str
    evidence: ConversationEvidence


class ConversationsOmitted(TypedDict):
    conversations: int
    active_s: int


class SurfaceEvidence(TypedDict):
    frames: str


class Surface(TypedDict):
    """A communication surface (kind, app, site) and the conversations on it."""

    kind: str
    app: str
    site: NotRequired[str]
    active_s: int
    part_of_ledger_s: NotRequired[int]
    visits: int
    first: str
    last: str
    input: InputCounts | None  # None: the source records no input
    conversations: list[Conversation]
    omitted: NotRequired[ConversationsOmitted]
    unnamed_s: int
    evidence: SurfaceEvidence


class CommsTotals(TypedDict):
    active_s: int
    surfaces: int
    by_kind: dict[str, int]


class CommsView(TypedDict):
    """The communications view of a compiled window (SPEC.md §10)."""

    schema_version: int
    source: SourceInfo
    window: WindowInfo
    scope: str
    totals: CommsTotals
    surfaces: list[Surface]
