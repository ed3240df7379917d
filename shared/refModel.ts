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
