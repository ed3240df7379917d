/**
 * The library entry point (`dist/index.js`): the pure core, evidex-compatible
 * (`buildSession`, `validateAnnotations`), plus `checkInput` for every input shape; and the check of
 * a workspace (docs/library.md): `check(workspace, { paths, locked })` over `createMemoryWorkspace(files)`
 * or `createNodeWorkspace(root)`, the same object `sourcecheck check --json` prints; and
 * `importCitations(workspace, options)`, a model API's response imported as `sourcecheck import` does.
 */
export * from "./core/index";
export * from "./evidence/public";
export { CheckError, type CheckJson, type CheckOptions, check } from "./workspace/checkWorkspace";
export { ImportError, type ImportJson, type ImportOptions, importCitations } from "./workspace/importWorkspace";
export { createMemoryWorkspace, type MemoryWorkspace } from "./workspace/memoryWorkspace";
export { createNodeWorkspace } from "./workspace/nodeWorkspace";
export type { Workspace, WorkspaceHistory, WriteOptions } from "./workspace/workspace";
export { WorkspaceWriteError } from "./workspace/workspace";
