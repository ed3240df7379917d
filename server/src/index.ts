/**
 * The library entry point (`dist/index.js`): the pure core, evidex-compatible
 * (`buildSession`, `validateAnnotations`), plus `checkInput` for every input shape.
 */
export * from "./core/index";
export * from "./evidence/public";
