/**
 * TraceCite's Agent JSONL traces (docs/quotes.md, "Agent JSONL traces"): reading the events
 * (parse.ts), checking one run (check.ts), its summary and JSON report (report.ts), and across
 * runs (compare.ts).
 */
export { analyzeTrace } from "./check";
export { compareTraces, fileUriPath, type SourceChange, type TraceComparison } from "./compare";
export { traceReportJson, traceSummary } from "./report";
export type { EvidenceStatus, TraceAnalysis, TraceCitation, TraceClaim, TraceSource } from "./types";
