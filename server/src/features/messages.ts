/**
 * What the language server says, in the editor's display language (docs/localization.md). The core
 * words every problem in English (the CLI, `check --json`, SARIF and MCP share those words as a
 * contract); the editor's diagnostics and hovers are translated here, at the edge, by the problem's
 * code: each code has the English templates of its messages, a message matching one is said again by
 * that template's translation with the same arguments, and a message matching none stays English.
 * Code action titles, which the features build, are said through their templates directly.
 * The translations are `@vscode/l10n` bundles keyed by the English template (l10n/server/); this
 * module only matches and formats, with the `Translate` it is given (English unless the server was
 * started in another language: service/core.ts).
 */

/** `@vscode/l10n`'s `t(message, args)`: the message's translation, or the message, with `{name}` arguments filled in. */
export type Translate = (message: string, args: Record<string, string | number>) => string;

/** The English: the template with its arguments filled in, as `@vscode/l10n` does without a bundle. */
export const ENGLISH: Translate = (message, args) =>
    message.replace(/\{(\w+)\}/g, (m, name) => String(args[name] ?? m));

/** The start and the end boundary read the same but for that word; each is a sentence of its own to translate. */
const bothBoundaries = (template: string): string[] => ["start", "end"].map((w) => template.replace("{which}", w));

/**
 * The English templates of each code's messages, as the core words them (core/resolve.ts,
 * core/refWarnings.ts, core/lock/, core/check.ts, core/session.ts, core/schema.ts). `{name}` arguments match any
 * text, except those named in PHRASES, whose text is translated in turn.
 */
export const PROBLEM_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
    "unknown-path": ["no document has the path {path}"],
    "line-out-of-range": bothBoundaries("{which} line {line} is out of range: {path} has {count} lines").concat(
        bothBoundaries("{which} line {line} is out of range: {path} has 1 line"),
    ),
    "inverted-lines": ["start line {start} comes after end line {end}"],
    "inverted-boundaries": [
        "on line {line} the start boundary {start} (column {startColumn}) and the end boundary {end} (column {endColumn}) do not enclose a span holding both",
    ],
    "boundary-not-found": bothBoundaries("{which} boundary {str} does not occur on line {line} of {path}{nearby}"),
    "boundary-ambiguous": bothBoundaries(
        "{which} boundary {str} occurs {count} times on line {line} of {path} ({listed}); extend it until it is unique",
    ),
    "unreadable-document": ["no file {path} under the document root"],
    "self-citation": [
        "this source overlaps its own claim ({path} {lines}): a claim is not evidence for itself; cite the passage of a source document that supports it",
    ],
    "mid-word-boundary": ["starts and ends", "starts", "ends"].map(
        (edge) => `the span {cut} ${edge} inside a word; the whole words are {whole}{alternative}`,
    ),
    "text-changed": ["the cited text changed since it was locked: {change}"],
    unlocked: [
        "this ref is not in the lock {lock}: lock it",
        "this file has no lock: lock its refs",
        "its lock entry {key} does not agree with the document it names, so it is not trusted: lock the ref again",
    ],
    "more-problems": [
        "{count} more problems not listed: at most {max} are listed per file",
        "1 more problem not listed: at most {max} are listed per file",
    ],
    schema: [
        "not a valid ref",
        "missing line: a 1-based line number",
        "missing str: the boundary string",
        "missing start: { line, str }",
        "missing end: { line, str }",
        "missing claim: the ref of the annotated span",
        "missing sources: a non-empty list of source refs",
        "sources must not be empty: to mark a region unsourced, do not annotate it",
    ],
};

/**
 * Arguments that are phrases of their own, translated in turn: an optional one is a suffix that is
 * either absent (`""`) or one of its templates; any other is any text, translated when it matches one
 * of its templates and kept as it is otherwise (a word diff, for example).
 */
export const PHRASES: Readonly<Record<string, { optional?: true; templates: readonly string[] }>> = {
    nearby: {
        optional: true,
        templates: [
            "; found once on line {line}",
            "; found {count} times on line {line}",
            "; found on lines {lines} and more nearby",
            "; found on lines {lines} and {last}",
        ],
    },
    alternative: { optional: true, templates: [" (ref {ref})"] },
    listed: { templates: ["first at columns {columns} …", "columns {columns}"] },
    lines: { templates: ["line {line}", "lines {start}-{end}"] },
    change: { templates: ["was {locked}, now {text}"] },
};

/**
 * The sentences of the editor the features write themselves: hovers, related information, hints. (The
 * progress the registrations report is worded by literal `l10n.t` calls in server/src/lsp/.)
 */
export const EDITOR_TEXTS = {
    awaitingSources:
        "{message}; select the evidence in a document and run “SourceCheck: Add Selection as Supporting Source”",
    occurrence: "occurrence {number} of {count}: line {line}, column {column}",
    cannotBeRead: "This ref cannot be read",
    problemAbove: "(the problem above)",
    annotation: "Annotation {number}",
    source: "Source {number}",
    claim: "Claim",
    confidence: "confidence {confidence}",
    doesNotResolve: "{path} does not resolve",
    emptySpan: "(empty span)",
    lineOf: "Line {line} of {path}:",
    changedSinceLocked: "The cited text changed since it was locked",
    locked: "Locked:",
    now: "Now:",
    changedWords: "Changed words: {words}",
    driftFixes: "Quick fixes: accept the new text (update the lock), or re-anchor the ref to the locked text.",
    missingSource: "{code} at {pointer} ({where}): {message}",
    supports: "supports",
    refutes: "refutes",
    supported: "supported",
    contested: "contested",
    refuted: "refuted",
    broken: "broken",
    none: "none",
} as const;

/**
 * The titles of the code actions the features build (features/codeActions.ts, annotationActions.ts,
 * quoteFiles.ts), said by `t` with their arguments; what is quoted (spans, boundary strings) stays.
 */
export const ACTION_TEXTS = {
    fixAll: "Fix all certain SourceCheck repairs in this file",
    fixAllOne: "Fix all certain SourceCheck repairs in this file (1 ref)",
    fixAllMany: "Fix all certain SourceCheck repairs in this file ({count} refs)",
    accept: "Accept the new text (update the lock)",
    repair: "Repair the ref ({reason}; {evidence}): {span}",
    reanchor: "Re-anchor the ref to {span} ({reason}; {doubt})",
    oneOfCandidates: "one of {count} candidates",
    onlyCandidate: "the only candidate, not certain",
    certain: "certain",
    reanchorLocked: "Re-anchor to the locked text on {lines}",
    reanchorLockedSeveral: "Re-anchor to the locked text on {lines} (one of several places)",
    line: "line {line}",
    lines: "lines {start}-{end}",
    shorten: "Shorten to readable unique boundaries: {start} … {end}",
    removeAnnotation: "Remove annotation {annotation}",
    removeSource: "Remove source {source} of annotation {annotation}",
    makeSupports: "Make source {source} of annotation {annotation} supports the claim",
    makeRefutes: "Make source {source} of annotation {annotation} refutes the claim",
    setConfidence: "Set the confidence of source {source} of annotation {annotation} to {confidence}",
    convertQuotes: "Convert to SourceCheck refs",
    "line-shift": "its lines shifted",
    misquote: "a boundary was misquoted",
    ambiguous: "a boundary was ambiguous",
    "moved-text": "its text moved",
    path: "its path was wrong",
} as const;

/**
 * Why a repair is certain, as the core words it for the editor's repairs (core/repair/reading.ts,
 * certainty.ts, corroborate.ts, engine.ts): matched like the problems' messages, so a wording not
 * listed (a lock's or git's evidence, which the editor's quick fixes do not use) stays English.
 */
export const REPAIR_EVIDENCE: readonly string[] = [
    "the only line within {window} where both boundaries occur: {lines}",
    "the only pair of lines within {window} where both boundaries occur: {lines}",
    "{pinned} is on line {line} as written, and {near} has exactly one near match there: {found}",
    "the other boundary decides which occurrence is meant, on {lines}",
    "the one near match of the misquoted boundary, on {lines}, by a clear margin",
    "both boundaries found on {lines}, and no other place comes close",
    ...["down", "up"].flatMap((way) => [
        `the nearest refs above and below it moved 1 line ${way} too`,
        `the nearest refs above and below it moved {count} lines ${way} too`,
    ]),
    "{path} is the only document that fits the path, and the ref resolves there as written",
];

/** Every English text the features may translate (test/unit/serverMessages.test.ts adds the lsp/ ones). */
export function featureMessageKeys(): string[] {
    return [
        ...Object.values(PROBLEM_TEMPLATES).flat(),
        ...Object.values(PHRASES).flatMap((p) => p.templates),
        ...Object.values(EDITOR_TEXTS),
        ...Object.values(ACTION_TEXTS),
        ...REPAIR_EVIDENCE,
    ];
}

interface Compiled {
    template: string;
    pattern: RegExp;
    names: string[];
}

const compiled = new Map<readonly string[], Compiled[]>();
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A template's regular expression: its text literally, each `{name}` a lazy group (`capture`: capturing). */
function patternOf(template: string, capture: boolean, names: string[] = []): string {
    return template
        .split(/(\{\w+\})/)
        .map((piece) => {
            const name = /^\{(\w+)\}$/.exec(piece)?.[1];
            if (name === undefined) return literally(piece);
            names.push(name);
            const phrase = PHRASES[name];
            const body = phrase?.optional
                ? `(?:${phrase.templates.map((t) => patternOf(t, false)).join("|")})?`
                : ".+?";
            return capture ? `(${body})` : `(?:${body})`;
        })
        .join("");
}

function compile(templates: readonly string[]): Compiled[] {
    let list = compiled.get(templates);
    if (!list) {
        list = templates.map((template) => {
            const names: string[] = [];
            return { template, pattern: new RegExp(`^${patternOf(template, true, names)}$`, "s"), names };
        });
        compiled.set(templates, list);
    }
    return list;
}

/** The message said again through the first template it matches, its phrases translated too; undefined when none matches. */
function retell(t: Translate, templates: readonly string[], message: string): string | undefined {
    for (const { template, pattern, names } of compile(templates)) {
        const match = pattern.exec(message);
        if (!match) continue;
        const args: Record<string, string> = {};
        names.forEach((name, i) => {
            const value = match[i + 1];
            const phrase = PHRASES[name];
            args[name] = phrase && value !== "" ? (retell(t, phrase.templates, value) ?? value) : value;
        });
        return t(template, args);
    }
    return undefined;
}

/** A text the server wrote by one of these templates, said again in the editor's language; else as it is. */
export function retellAs(t: Translate, templates: readonly string[], message: string): string {
    return (t === ENGLISH ? undefined : retell(t, templates, message)) || message;
}

/** A problem's message in the editor's language: through its code's templates, else as the core worded it. */
export function problemMessage(t: Translate, code: string, message: string): string {
    const templates = PROBLEM_TEMPLATES[code];
    return templates ? retellAs(t, templates, message) : message;
}

/** A verdict (docs/verdicts.md) in words; an unknown one as it is. */
export function verdictText(t: Translate, verdict: string): string {
    switch (verdict) {
        case "supported":
        case "contested":
        case "refuted":
        case "broken":
            return t(EDITOR_TEXTS[verdict], {});
        case "none":
            return t(EDITOR_TEXTS.none, {});
        default:
            return verdict;
    }
}
