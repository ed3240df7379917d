/**
 * The agent tools' output schemas (agentTools/schemas.ts, zod) against the TypeScript types of what
 * the tools return: a field in one and not the other fails `tsc` (in `npm run lint` and before
 * `npm test`), with the path of the field in the error. Only field names are compared, at every
 * depth; what a field holds is the schema's to describe (a code as a string, a count as an integer).
 */
import type { z } from "zod";
import type { checkOutput, citeOutput, repairOutput, toolErrorOutput } from "../../server/src/agentTools/schemas";
import type { ToolErrorShape } from "../../server/src/agentTools/tools";
import type { Report } from "../../server/src/core/check";
import type { ReportCoverage } from "../../server/src/core/coverage";
import type { LockCounts, LockError } from "../../server/src/core/lock";
import type { SyntaxProblem } from "../../server/src/core/parse";
import type { SchemaError } from "../../server/src/core/types";
import type { CiteFailure, CiteOutput } from "../../server/src/operations/cite";
import type { RepairResult } from "../../server/src/operations/repair";

/** The field names of an object type, of every member of a union, without index signatures. */
type Fields<T> = T extends unknown
    ? keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 }
    : never;
/** The object a field holds, through null, undefined and arrays; nothing for `unknown` (any value). */
type Shape<T> = unknown extends T ? never : NonNullable<T> extends readonly (infer E)[] ? Shape<E> : NonNullable<T>;
type IsRecord<T> = [T] extends [never] ? false : [T] extends [object] ? true : false;
/** A field's type in whichever members of a union have it. */
type FieldOf<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/**
 * never when `A` and `B` have the same field names at every depth; otherwise the path of the first
 * difference and the names only one side has, as a string type (so the error shows it).
 */
export type FieldDrift<A, B, Path extends string = ""> =
    IsRecord<Shape<A>> extends true
        ? IsRecord<Shape<B>> extends true
            ? [Fields<Shape<A>>] extends [Fields<Shape<B>>]
                ? [Fields<Shape<B>>] extends [Fields<Shape<A>>]
                    ? {
                          [K in Fields<Shape<A>> & string]: FieldDrift<
                              FieldOf<Shape<A>, K>,
                              FieldOf<Shape<B>, K>,
                              `${Path}/${K}`
                          >;
                      }[Fields<Shape<A>> & string]
                    : `${Path}: only in the second: ${Exclude<Fields<Shape<B>>, Fields<Shape<A>>> & string}`
                : `${Path}: only in the first: ${Exclude<Fields<Shape<A>>, Fields<Shape<B>>> & string}`
            : `${Path}: an object in the first only`
        : IsRecord<Shape<B>> extends true
          ? `${Path}: an object in the second only`
          : never;

/** A schema error as reported: a syntax error also says where it is in the text (core/parse.ts). */
type ReportedSchemaError = SchemaError | SyntaxProblem;
/** What the check tool returns: the report, with the lock's counts or why the lock cannot be used (agentTools/tools.ts). */
type CheckOutput = Omit<Report, "schemaErrors" | "entries"> & {
    /** Entries numbered from 1 for a model (agentTools/tools.ts numberedEntries), not by `index`. */
    entries: (Omit<Report["entries"][number], "index"> & { annotation: number })[];
    schemaErrors: ReportedSchemaError[];
    lock?: LockCounts & { file?: string };
    lockError?: LockError & { file: string };
    coverage?: ReportCoverage;
};

/** Compiles only when `Drift` is never. */
type NoDrift<Drift extends never> = Drift;

export type ToolSchemasMatchTheirTypes = [
    NoDrift<FieldDrift<z.infer<typeof checkOutput>, CheckOutput>>,
    NoDrift<FieldDrift<z.infer<typeof citeOutput>, CiteOutput>>,
    NoDrift<
        FieldDrift<
            z.infer<typeof repairOutput>,
            Omit<RepairResult, "schemaErrors"> & { schemaErrors?: ReportedSchemaError[]; written: number }
        >
    >,
    NoDrift<FieldDrift<z.infer<typeof toolErrorOutput>, { error: ToolErrorShape } & Omit<CiteFailure, "error">>>,
];

// The check above can fail: a field the type has and the schema lacks is found, however deep.
// @ts-expect-error the schema of cite has no `extra` in its ref
export type DriftIsFound = NoDrift<FieldDrift<z.infer<typeof citeOutput>, CiteOutput & { ref: { extra: 1 } }>>;
