/**
 * The shape of a ref (spec "Core model"): used by the server's core and, through the custom
 * protocol, by the client, so both compile against one definition.
 */

export interface Boundary {
    line: number;
    str: string;
}

export interface Ref {
    path: string;
    start: Boundary;
    end: Boundary;
}

export type Polarity = "supports" | "refutes";

/** The same ref: path and both boundaries alike. */
export function sameRef(a: Ref, b: Ref): boolean {
    return (
        a.path === b.path &&
        a.start.line === b.start.line &&
        a.start.str === b.start.str &&
        a.end.line === b.end.line &&
        a.end.str === b.end.str
    );
}
