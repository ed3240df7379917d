/**
 * The agent tools (docs/agents.md): names, descriptions written for a model, and the input and
 * output schemas. One definition serves the MCP server and the VS Code language model tools, so the
 * two cannot drift apart. Outputs are the CLI's `--json` shapes.
 */
import { z } from "zod";
import { EXIT } from "../../../shared/exitCodes";
import { NEXT_ACTIONS, type NextAction } from "../core/nextStep";

/** Longest path argument: far above any real path, far below a denial of service. */
export const MAX_PATH_CHARS = 4096;
/** Longest quote or query: a quote is a passage, not a document. */
export const MAX_QUOTE_CHARS = 100_000;
/** Inline annotations and documents of one `check` call. */
export const MAX_INLINE_ITEMS = 100_000;
export const MAX_INLINE_DOCUMENT_CHARS = 64 * 1024 * 1024;
/** The evidence search's own ceiling on hits. */
export const MAX_EVIDENCE_HITS = 20;
/** Bounds of `maxChars` (the hits' texts together) and of `exclude`. */
export const MIN_EVIDENCE_CHARS = 100;
export const MAX_EVIDENCE_CHARS = 1_000_000;
export const MAX_EXCLUDE_GLOBS = 100;

/** A path argument; `example` fits what it names (an annotation file, a document, a folder). */
const relativePath = (what: string, example = "sources/notes.md") =>
    z.string().min(1).max(MAX_PATH_CHARS).describe(`${what}, relative to the workspace root, e.g. "${example}"`);

const quoteText = (what: string) => z.string().min(1).max(MAX_QUOTE_CHARS).describe(what);

/** Sources one `annotate` call may cite. */
export const MAX_ANNOTATE_SOURCES = 100;

const line = z.number().int().min(1);

export const checkInput = z
    .object({
        file: relativePath("An annotation file to check (*.sourcecheck.json)", "answer.sourcecheck.json").optional(),
        annotations: z
            .array(z.unknown())
            .max(MAX_INLINE_ITEMS)
            .describe(
                "Annotations to check without a file: [{ claim: Ref, sources: [{ ...Ref, polarity, confidence }] }]",
            )
            .optional(),
        documents: z
            .array(
                z
                    .object({
                        path: z.string().max(MAX_PATH_CHARS),
                        content: z.string().max(MAX_INLINE_DOCUMENT_CHARS),
                    })
                    .strict(),
            )
            .max(MAX_INLINE_ITEMS)
            .describe("With annotations only: documents the refs cite instead of files")
            .optional(),
        detail: z
            .enum(["brief", "full"])
            .describe("brief (default) or full (the whole report as JSON text)")
            .optional(),
        locked: z.boolean().describe("With file: as check --locked, changed and unlocked refs are errors").optional(),
    })
    .strict();

const listedRef = z.object({
    path: z.string(),
    start: z.object({ line: z.number().int().min(1), str: z.string().min(1) }),
    end: z.object({ line: z.number().int().min(1), str: z.string().min(1) }),
});
const listedAnnotation = z.object({
    claim: listedRef,
    sources: z
        .array(listedRef.extend({ polarity: z.enum(["supports", "refutes"]), confidence: z.number().min(0).max(1) }))
        .min(1),
});

/** `check`'s input as listed: the annotations typed (see ToolDefinition.listedInput). */
const checkListedInput = checkInput.extend({
    annotations: z
        .array(listedAnnotation)
        .max(MAX_INLINE_ITEMS)
        .describe("Annotations to check without a file")
        .optional(),
});

export const indexInput = z
    .object({
        path: relativePath("The document to number"),
        startLine: line.describe("First line to show (1-based, default 1)").optional(),
        endLine: line.describe("Last line to show (inclusive, default the last line)").optional(),
    })
    .strict();

export const citeInput = z
    .object({
        path: relativePath("The document the quote comes from"),
        quote: z
            .string()
            .min(1)
            .max(MAX_QUOTE_CHARS)
            .describe("The exact text to cite, copied verbatim from the document; may span lines"),
    })
    .strict();

/** A quote's path and words; inside `annotations` without descriptions (the top-level fields carry them). */
const plainPath = z.string().min(1).max(MAX_PATH_CHARS);
const plainQuote = z.string().min(1).max(MAX_QUOTE_CHARS);
const quoteOf = (path: z.ZodString, quote: z.ZodString) => z.object({ path, quote }).strict();
const sourcesOf = (path: z.ZodString, quote: z.ZodString) =>
    z
        .array(
            z
                .object({
                    path,
                    quote,
                    polarity: z.enum(["supports", "refutes"]),
                    confidence: z.number().min(0).max(1),
                })
                .strict(),
        )
        .min(1)
        .max(MAX_ANNOTATE_SOURCES);
const claimQuote = quoteOf(
    relativePath("The answer document holding the claim", "answer.md"),
    quoteText("The claim's words in the answer, verbatim"),
);
const sourceQuotes = sourcesOf(
    relativePath("The source document"),
    quoteText("The source's words that bear on the claim, verbatim"),
);
/** An annotation, or one source of it, numbered from 1 (docs/contract.md, "Numbers"). */
const target = z.union([
    z.number().int().min(1),
    z.object({ annotation: z.number().int().min(1), source: z.number().int().min(1) }).strict(),
]);

export const annotateInput = z
    .object({
        file: relativePath("The annotation file (created when missing)", "answer.sourcecheck.json"),
        claim: claimQuote.optional(),
        sources: sourceQuotes.optional(),
        annotations: z
            .array(
                z.object({ claim: quoteOf(plainPath, plainQuote), sources: sourcesOf(plainPath, plainQuote) }).strict(),
            )
            .min(1)
            .max(MAX_ANNOTATE_SOURCES)
            .describe("Several annotations appended at once, each { claim, sources } as above")
            .optional(),
        write: z.boolean().describe("Write the file (default false: only build and report)").optional(),
        replace: target
            .describe("Annotation N (from 1) to replace, or { annotation, source } with one new source")
            .optional(),
        remove: target.describe("Annotation N (from 1), or { annotation, source }, to remove").optional(),
        force: z.boolean().describe("Replace even when the replaced claim's text differs").optional(),
        unsourced: z
            .boolean()
            .describe("With claim, no sources: record it as searched, no source found (remove: N removes entry N)")
            .optional(),
    })
    .strict();

export const repairInput = z
    .object({
        file: relativePath("The annotation file whose broken refs to repair", "answer.sourcecheck.json"),
        write: z.boolean().describe("Apply the certain repairs to the file (default false: only propose)").optional(),
        since: z
            .string()
            .min(1)
            .max(256)
            .describe('A git revision (e.g. "HEAD~1") whose documents tell where each cited span moved')
            .optional(),
        detail: z
            .enum(["brief", "full"])
            .describe("brief (default): certain repairs, one line per ref left; full: every candidate too")
            .optional(),
    })
    .strict();

export const lockInput = z
    .object({
        file: relativePath("The annotation file whose refs to lock", "answer.sourcecheck.json"),
        write: z.boolean().describe("Write the lock (default false)").optional(),
        accept: z
            .union([z.boolean(), z.array(z.number().int().min(1)).min(1).max(MAX_INLINE_ITEMS)])
            .describe(
                "Accept changed texts after reading them: true for every ref, or [annotation numbers, from 1] for those annotations' refs only (default: none; a changed text keeps its locked text and is listed in notLocked)",
            )
            .optional(),
    })
    .strict();

export const evidenceInput = z
    .object({
        query: z.string().min(1).max(MAX_QUOTE_CHARS).describe("What the claim says, in words"),
        corpus: relativePath("A folder to search (default: the whole document root)", "sources").optional(),
        topK: z.number().int().min(1).max(MAX_EVIDENCE_HITS).describe("Hits wanted (default 3)").optional(),
        maxChars: z
            .number()
            .int()
            .min(MIN_EVIDENCE_CHARS)
            .max(MAX_EVIDENCE_CHARS)
            .describe("Most characters of hit text in all (default 32000): texts are cut, no hit dropped")
            .optional(),
        exclude: z
            .array(z.string().min(1).max(MAX_PATH_CHARS))
            .max(MAX_EXCLUDE_GLOBS)
            .describe('Globs of files not to search, relative to corpus, e.g. ["drafts/**", "**/*.log"]')
            .optional(),
        answer: z.string().min(1).max(MAX_PATH_CHARS).describe("The answer's path, e.g. answer.md").optional(),
    })
    .strict();

/** Longest response or request given inline: far above a real response with its search results. */
export const MAX_RESPONSE_CHARS = 64 * 1024 * 1024;

const responseArgument = (what: string) =>
    z
        .union([z.string().min(1).max(MAX_RESPONSE_CHARS), z.looseObject({})])
        .describe(`${what}: a JSON file's path, or the JSON itself`);

export const importInput = z
    .object({
        response: responseArgument("The model API's response"),
        request: responseArgument("The request (Anthropic: the documents)").optional(),
        answer: z
            .string()
            .min(1)
            .max(MAX_PATH_CHARS)
            .describe("The answer file to write (default: the response's file with .md)")
            .optional(),
        documents: z
            .record(z.string().max(MAX_PATH_CHARS), z.string().min(1).max(MAX_PATH_CHARS))
            .describe('Cited document number or name -> file, e.g. { "0": "docs/q3.md" }')
            .optional(),
        write: z.boolean().describe("Write the answer and annotation file (default false)").optional(),
    })
    .strict();

const boundary = z.object({ line, str: z.string() });
export const refSchema = z.object({ path: z.string(), start: boundary, end: boundary });
const position = z.object({ line: z.number().int(), column: z.number().int() });
const range = z.object({ start: position, end: position });

/** What to do about a problem, as data (docs/contract.md, "Next steps"). */
export const nextStep = z.object({
    action: z.enum(NEXT_ACTIONS as [NextAction, ...NextAction[]]),
    path: z.string().optional(),
    line: z.number().int().min(1).optional(),
    candidates: z.number().int().min(1).optional(),
});

/**
 * Every tool error: a stable code the model can act on (docs/agents.md), a message, lines where they
 * help; annotate names the quote (role, source from 1, pointer); next says what to do, as data.
 */
export const toolErrorOutput = z.object({
    error: z.object({
        code: z.string(),
        message: z.string(),
        lines: z.array(z.number().int()).optional(),
        role: z.enum(["claim", "source"]).optional(),
        source: z.number().int().min(1).optional(),
        pointer: z.string().optional(),
        next: nextStep.optional(),
    }),
    /** With `quote-not-found`: the near match the quote probably meant, never certain. */
    candidates: z
        .array(z.object({ ref: refSchema, text: z.string(), reason: z.literal("misquote"), certain: z.literal(false) }))
        .optional(),
});

/** The error of a tool whose failures name no quote: the shape above without the quote's place and next step. */
const plainToolErrorOutput = z.object({
    error: toolErrorOutput.shape.error.pick({ code: true, message: true, lines: true }),
    candidates: toolErrorOutput.shape.candidates,
});

/** Why a ref does not resolve (docs/codes.md); an ambiguous boundary lists where it occurs (columns from 0). */
const refError = z.looseObject({
    code: z.string(),
    message: z.string(),
    boundary: z.enum(["start", "end"]).optional(),
    occurrences: z.array(z.number().int()).optional(),
    occurrenceCount: z.number().int().optional(),
    pointer: z.string().optional(),
});
/** A finding on a resolving ref (docs/contract.md, "Warnings"); each kind may add data fields of its own. */
const refWarning = z.looseObject({
    code: z.string(),
    message: z.string(),
    severity: z.enum(["error", "warning", "information"]).optional(),
});
/** A finding of cite and annotate on a span: `mid-word-boundary` offers the span widened to whole words. */
const spanWarning = refWarning.extend({
    boundary: z.enum(["start", "end", "both"]).optional(),
    alternative: z.object({ ref: refSchema, text: z.string() }).optional(),
});
/** A schema error as `check --json` reports it; a syntax error also carries where it is in the text. */
const schemaError = z.object({
    code: z.string(),
    pointer: z.string(),
    message: z.string(),
    offset: z.number().int().optional(),
    length: z.number().int().optional(),
});
const spanEntry = z.looseObject({
    valid: z.boolean(),
    path: z.string().optional(),
    text: z.string().optional(),
    range: range.optional(),
    error: refError.optional(),
    warnings: z.array(refWarning).optional(),
});
const sourceEntry = spanEntry.extend({
    polarity: z.enum(["supports", "refutes"]).optional(),
    confidence: z.number().optional(),
});

/** Sentences of one line, from 1, and how many the line holds. */
const lineSentences = z.object({
    line: z.number().int(),
    of: z.number().int(),
    sentences: z.array(z.number().int()).optional(),
    more: z.number().int().optional(),
});

export const checkOutput = z.object({
    ok: z.boolean(),
    exitCode: z.union([z.literal(EXIT.clean), z.literal(EXIT.findings), z.literal(EXIT.usage)]),
    validCount: z.number().int(),
    invalidCount: z.number().int(),
    schemaErrors: z.array(schemaError),
    /** Every schema error, when more than the 1,000 listed. */
    schemaErrorCount: z.number().int().optional(),
    entries: z.array(
        z.looseObject({
            /** The annotation, from 1 (`check --json` says `index`, from 0; a model reads numbers from 1). */
            annotation: z.number().int().min(1),
            valid: z.boolean(),
            verdict: z.enum(["supported", "refuted", "contested", "broken", "none"]),
            claim: spanEntry,
            sources: z.array(sourceEntry),
        }),
    ),
    /** Annotations failing the schema past the listed errors: counted, no entry. */
    omittedEntryCount: z.number().int().optional(),
    /** With a lock beside the file: how many refs resolve to their locked text, to other text, or have no entry. */
    lock: z
        .object({
            file: z.string().optional(),
            locked: z.number().int(),
            changed: z.number().int(),
            unlocked: z.number().int(),
        })
        .optional(),
    /** A lock beside the file that cannot be used (then exitCode is 2). */
    lockError: z
        .object({ code: z.string(), message: z.string(), pointer: z.string().optional(), file: z.string().optional() })
        .optional(),
    /** Per claim document, its sentences by line: covered, searched with no source found, neither; the unsourced refs. */
    coverage: z
        .object({
            documents: z.array(
                z.object({
                    path: z.string(),
                    sentences: z.number().int().optional(),
                    covered: z.number().int().optional(),
                    unsourced: z.number().int().optional(),
                    uncovered: z.number().int().optional(),
                    unsourcedLines: z.array(lineSentences).optional(),
                    uncoveredLines: z.array(lineSentences).optional(),
                    unsourcedUnlisted: z.number().int().optional(),
                    uncoveredUnlisted: z.number().int().optional(),
                    skipped: z.string().optional(),
                }),
            ),
            unsourced: z.array(spanEntry.omit({ warnings: true }).extend({ pointer: z.string() })),
        })
        .optional(),
});

export const indexOutput = z.object({
    path: z.string(),
    lineCount: z.number().int(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    lines: z.array(z.object({ line: z.number().int(), text: z.string() })),
    /** True when the range was cut to stay small; ask again from `endLine + 1`. */
    truncated: z.boolean(),
});

export const citeOutput = z.object({ ref: refSchema, text: z.string(), warnings: z.array(spanWarning).optional() });

const sourceRef = refSchema.extend({ polarity: z.enum(["supports", "refutes"]), confidence: z.number() });
const builtAnnotation = z.object({ claim: refSchema, sources: z.array(sourceRef) });
/** A source replaced alone (polarity and confidence), or an unsourced claim's ref (neither). */
const citedRef = refSchema.extend({ polarity: sourceRef.shape.polarity.optional(), confidence: z.number().optional() });
export const annotateOutput = z.object({
    /** The annotation appended, replaced, edited or found present, counted from 1. */
    annotation: z.number().int().min(1).optional(),
    /** What was cited: the whole annotation, (with replace of { annotation, source }) the new source, or the unsourced claim. */
    cited: z.union([builtAnnotation, citedRef]).optional(),
    /** With `unsourced`: the entry of the file's unsourced list recorded, found present or removed, from 1. */
    unsourced: z.number().int().min(1).optional(),
    /** True when an equal annotation (same claim span, same sources) was already there: nothing appended. */
    present: z.boolean().optional(),
    /** With `annotations`: each annotation, counted from 1, appended or found present. */
    added: z
        .array(
            z.object({
                annotation: z.number().int().min(1),
                cited: builtAnnotation,
                present: z.boolean().optional(),
                warnings: z.array(spanWarning).optional(),
            }),
        )
        .optional(),
    /** With replace or remove of { annotation, source }: the source, from 1. */
    source: z.number().int().min(1).optional(),
    /** True when the file was written (only with `write: true`, never for an annotation already present). */
    written: z.boolean(),
    replaced: z.boolean().optional(),
    removed: z.boolean().optional(),
    /** `mid-word-boundary` notes, each with `role` (claim or source, from 1) and the whole-word alternative. */
    warnings: z.array(spanWarning).optional(),
});

/** Where a ref sits (docs/contract.md, "Numbers"): annotation and source count from 1. */
const refPlace = {
    annotation: z.number().int().min(1),
    role: z.enum(["claim", "source"]),
    /** With role "source": which source of the annotation, from 1. */
    source: z.number().int().min(1).optional(),
};
export const lockOutput = z.object({
    /** The lock file, relative to the root. */
    lock: z.string(),
    /** Refs locked to the text they resolve to now. */
    locked: z.number().int(),
    /** Refs whose changed text was accepted (only with `accept: true`). */
    accepted: z.number().int(),
    /** Refs whose cited text changed and was not accepted: their locked text is kept. */
    changed: z.number().int(),
    /** Refs that do not resolve. */
    unresolved: z.number().int(),
    /** Refs not locked (annotation and source counted from 1); their last locked entry is kept when there is one. */
    notLocked: z.array(
        z.object({
            ...refPlace,
            pointer: z.string(),
            code: z.string(),
            message: z.string(),
            kept: z.boolean(),
            line: z.number().int(),
            column: z.number().int(),
            next: nextStep,
        }),
    ),
    /** True when the lock file was written (only with `write: true`). */
    written: z.boolean(),
});

export const repairOutput = z.object({
    repairs: z.array(
        z.object({
            ...refPlace,
            pointer: z.string(),
            reason: z.enum(["line-shift", "misquote", "ambiguous", "moved-text", "path"]),
            certain: z.boolean(),
            before: refSchema,
            after: refSchema,
            text: z.string(),
            /** What the repair rests on, for people: "the locked text was found on line 9". */
            evidence: z.string(),
            evidenceKind: z.enum(["lock", "history", "reading", "neighbours", "search"]),
        }),
    ),
    remaining: z.array(
        z.object({ ...refPlace, pointer: z.string(), code: z.string(), message: z.string(), next: nextStep }),
    ),
    /** Present when the file fails the schema. */
    schemaErrors: z.array(schemaError).optional(),
    /** How many certain repairs were written into the file (0 unless `write: true`). */
    written: z.number().int(),
});

/** A passage found for a query: a hit, or one below the floor (docs/evidence.md). */
const evidencePassage = z.object({
    path: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    score: z.number(),
    coverage: z.number(),
    headingPath: z.array(z.string()),
    ref: z.union([refSchema, z.null()]),
    text: z.string(),
    sentence: z.object({ index: z.number().int(), length: z.number().int() }).optional(),
    chunkRef: z.union([refSchema, z.null()]),
    textChars: z.number().int(),
    truncated: z.boolean(),
});

export const evidenceOutput = z.object({
    hits: z.array(evidencePassage),
    rejected: z.record(z.string(), z.string()),
    rejectedOmitted: z.number().int().optional(),
    topK: z.number().int(),
    maxChars: z.number().int(),
    truncatedHits: z.number().int(),
    cutAt: z.number().int().optional(),
    searched: z.object({
        documents: z.number().int(),
        refused: z.number().int(),
        include: z.array(z.string()),
        exclude: z.array(z.string()),
        answers: z.array(z.string()),
    }),
    floor: z.number(),
    /** The best passages under the floor, with their text: not hits, for the model to judge. */
    belowFloor: z.array(evidencePassage).optional(),
    message: z.string().optional(),
    note: z.string().optional(),
});

export const importOutput = z.object({
    provider: z.enum(["anthropic", "openai", "gemini", "cohere"]),
    /** The answer file and the annotation file, relative to the root. */
    answer: z.string(),
    annotationFile: z.string(),
    converted: z.number().int(),
    /** Citations (counted from 1 in the response's order) not converted, each with why. */
    notConverted: z.array(z.object({ citation: z.number().int().min(1), reason: z.string(), message: z.string() })),
    ok: z.boolean(),
    exitCode: z.union([z.literal(EXIT.clean), z.literal(EXIT.findings)]),
    /** True when the files were written (only with `write: true`). */
    written: z.boolean(),
});

export type ToolName = "check" | "index" | "cite" | "annotate" | "repair" | "evidence" | "lock" | "import";

export interface ToolDefinition {
    name: ToolName;
    title: string;
    description: string;
    input: z.ZodType;
    /**
     * The input schema clients are shown, when it is stricter than what is parsed: `check` lists its
     * annotations typed, but parses them leniently so a malformed one is a report with pointers.
     */
    listedInput?: z.ZodType;
    output: z.ZodType;
    /** Its errors' schema, when they say more than a code and a message (cite and annotate: the quote's place, next). */
    errorOutput?: z.ZodType;
    /** True when a call may change files (`repair`, `annotate` with `write: true`): VS Code asks before it runs. */
    writes: boolean;
}

export const TOOL_DEFINITIONS: ToolDefinition[] = [
    {
        name: "index",
        title: "Number a document's lines",
        description:
            'Show a document with line numbers ("  7 | text"), optionally lines startLine..endLine (from 1). ' +
            "Read a source before quoting it; never count lines to write a ref: quote the text and call cite or annotate.",
        input: indexInput,
        output: indexOutput,
        writes: false,
    },
    {
        name: "cite",
        title: "Turn a quote into a ref",
        description:
            "Turn a verbatim quote (it may span lines) into the SourceCheck ref { path, start: { line, str }, end: { line, str } } " +
            "citing exactly that text. Build refs with this tool, never by counting lines. Errors: quote-not-found (copy the " +
            "quote again exactly), quote-ambiguous (quote more words, until one of the lines listed).",
        input: citeInput,
        output: citeOutput,
        errorOutput: toolErrorOutput,
        writes: false,
    },
    {
        name: "annotate",
        title: "Write an annotation from quotes",
        description:
            "Write annotations from verbatim quotes: the claim's words in the answer and each source's words become refs. " +
            "{ file, claim, sources } appends one (an equal one already there is reported present, not added); annotations: " +
            "[...] several; replace: N or { annotation, source } and remove: the same, numbers from 1. Writes only with " +
            "write: true. Errors name the quote: quote-not-found, quote-ambiguous, self-citation, replace-mismatch.",
        input: annotateInput,
        output: annotateOutput,
        errorOutput: toolErrorOutput,
        writes: true,
    },
    {
        name: "check",
        title: "Check SourceCheck annotations",
        listedInput: checkListedInput,
        description:
            "Check SourceCheck annotations: file (an annotation file) or annotations inline (with documents: an embedded " +
            "session). Structured: the report (exitCode 0 every ref resolves, 1 some ref fails, 2 schema errors; entries " +
            "by annotation from 1). Text: status, verdicts, coverage (answer sentences no claim covers), changed texts " +
            "since the lock, failing refs with what to do. Fix until exitCode is 0.",
        input: checkInput,
        output: checkOutput,
        writes: false,
    },
    {
        name: "repair",
        title: "Repair broken refs",
        description:
            "Repair broken refs of an annotation file (shifted lines, misquoted or ambiguous boundaries, moved text, a wrong " +
            "path) from its lock, git history and the only reading: repairs (certain; detail full: every candidate) and " +
            "remaining (each with next: what to do). write: true writes the certain repairs only; then call check.",
        input: repairInput,
        output: repairOutput,
        writes: true,
    },
    {
        name: "lock",
        title: "Lock what refs cite",
        description:
            "Record what each ref of an annotation file cites now (X.sourcecheck.lock.json), so check reports text-changed " +
            "when a cited text changes. A changed text keeps its locked text unless accepted after reading it: accept: " +
            "[annotation numbers] or true (all). notLocked lists each ref not locked with next. Writes only with write: true.",
        input: lockInput,
        output: lockOutput,
        writes: true,
    },
    {
        name: "import",
        title: "Import a model's citations",
        description:
            "Turn a model API response with citations (Anthropic, OpenAI, Gemini or Cohere) into its answer file and an " +
            "annotation file whose refs cite the workspace files holding each cited text, as `sourcecheck import --json`. " +
            "Citations that cannot be converted (a web page, text not in the workspace) are in notConverted, never " +
            "guessed. Writes only with write: true; then call lock.",
        input: importInput,
        output: importOutput,
        writes: true,
    },
    {
        name: "evidence",
        title: "Find evidence for a claim",
        description:
            "Find passages that support or refute a claim (lexical: shared words, not meaning). hits: text (the passage), " +
            "ref (its best sentence), chunkRef (all of it). belowFloor: passages sharing too few words to be hits (often a " +
            "paraphrase): judge each (supports, refutes, or says nothing) before leaving a claim unannotated. answer: the " +
            "file being written, never a hit.",
        input: evidenceInput,
        output: evidenceOutput,
        writes: false,
    },
];

/** The definition of a tool by name. */
export function toolDefinition(name: string): ToolDefinition | undefined {
    return TOOL_DEFINITIONS.find((tool) => tool.name === name);
}

/** A JSON Schema (draft 7, as MCP clients validate) of a zod schema, for listing a tool. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
    const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: "draft-7", io }) as Record<string, unknown>;
    return withoutSafeIntegerBounds(json) as Record<string, unknown>;
}

/** Zod bounds every integer by ±(2^53 - 1): true, but noise in a schema a model reads. */
function withoutSafeIntegerBounds(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
        if (key === "maximum" && inner === Number.MAX_SAFE_INTEGER) continue;
        if (key === "minimum" && inner === Number.MIN_SAFE_INTEGER) continue;
        out[key] = withoutSafeIntegerBounds(inner);
    }
    return out;
}

/** How deep an output schema is listed: a result's fields and the fields of its list items. */
const LISTED_OUTPUT_DEPTH = 3;

/**
 * The output schema a client sees: the success shape or a tool error, both objects, trimmed to what
 * a model needs to read a result (docs/agents.md, "Output schemas"): field names and types two
 * levels down, no bounds, no `additionalProperties`, `required` only at the top. Deeper shapes (refs,
 * report entries) restate the inputs and the docs, and were most of the tools listing. Looser than
 * the zod schema, so every result that meets the zod schema meets this one (the SDK client checks).
 */
export function outputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
    const full = jsonSchemaOf(z.union([tool.output, tool.errorOutput ?? plainToolErrorOutput]), "output");
    return { type: "object", ...(trimSchema(full, 0) as Record<string, unknown>) };
}

function trimSchema(node: unknown, depth: number): unknown {
    if (typeof node !== "object" || node === null) return node;
    const schema = node as Record<string, unknown>;
    if (Array.isArray(schema.anyOf)) {
        if (depth >= LISTED_OUTPUT_DEPTH) return typesOnly(schema);
        return { anyOf: schema.anyOf.map((branch) => trimSchema(branch, depth)) };
    }
    if (depth >= LISTED_OUTPUT_DEPTH) return typesOnly(schema);
    const out: Record<string, unknown> = {};
    if (schema.type !== undefined) out.type = schema.type;
    if (schema.properties !== undefined) {
        const properties: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(schema.properties as Record<string, unknown>)) {
            properties[key] = trimSchema(value, depth + 1);
        }
        out.properties = properties;
        if (depth === 0 && schema.required !== undefined) out.required = schema.required;
    }
    if (schema.items !== undefined) out.items = trimSchema(schema.items, depth + 1);
    return out;
}

/** A schema reduced to its type (or the types of its branches); no type known: anything. */
function typesOnly(schema: Record<string, unknown>): Record<string, unknown> {
    if (schema.type !== undefined) return { type: schema.type };
    if (!Array.isArray(schema.anyOf)) return {};
    const types: unknown[] = [];
    for (const branch of schema.anyOf as Record<string, unknown>[]) {
        if (typeof branch?.type !== "string") return {};
        if (!types.includes(branch.type)) types.push(branch.type);
    }
    return { type: types.length === 1 ? types[0] : types };
}
