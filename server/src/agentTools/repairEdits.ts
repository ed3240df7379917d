/**
 * Certain repairs written into an annotation file's text (docs/agents.md, `repair` with `write`): the
 * same edit as `sourcecheck repair --write`, from core/repair/certainEdits.ts.
 */
export { applyCertainRepairs as writeCertainRepairs, type CertainRepairs as RepairWrite } from "../core/repair";
