/**
 * When the editor offers to lock a file's refs (docs/lock.md, "In the editor"): once per workspace,
 * after saving an annotation file that has no lock, while `sourcecheck.lock.update` is `onSave`. The
 * answer "Always" or "Never" is remembered in the workspace state; "Not now" only for this session.
 * Pure (no vscode), so it is unit-tested.
 */
export const LOCK_OFFER = "Lock refs so changes in their sources are caught";
export const ALWAYS = "Always";
export const NEVER = "Never";
export const NOT_NOW = "Not now";
/** The workspace-state key of the remembered answer. */
export const LOCK_OFFER_KEY = "sourcecheck.lockOffer";

export type LockUpdateSetting = "onSave" | "manual" | "never";
export type RememberedAnswer = "always" | "never" | undefined;

export function lockUpdateSetting(value: unknown): LockUpdateSetting {
    return value === "manual" || value === "never" ? value : "onSave";
}

export interface OfferState {
    setting: LockUpdateSetting;
    remembered: RememberedAnswer;
    /** "Not now" was answered in this session. */
    dismissed: boolean;
    /** The offer is on screen already. */
    showing: boolean;
    /** VS Code runs the extension's tests and no test asked for the offer: it would wait on a click. */
    suppressed: boolean;
    /** What saving did: a lock existed beside the file, or one was written. */
    hadLock: boolean;
    written: boolean;
}

export function shouldOffer(state: OfferState): boolean {
    return (
        state.setting === "onSave" &&
        state.remembered === undefined &&
        !state.dismissed &&
        !state.showing &&
        !state.suppressed &&
        !state.hadLock &&
        !state.written
    );
}

/** What an answer to the offer does: remember it (or not), and lock the saved file now. */
export function answerEffect(answer: string | undefined): {
    remember?: "always" | "never";
    lockNow: boolean;
    dismiss: boolean;
} {
    if (answer === ALWAYS) return { remember: "always", lockNow: true, dismiss: false };
    if (answer === NEVER) return { remember: "never", lockNow: false, dismiss: false };
    // "Not now", or the message closed without an answer: ask again in another session.
    return { lockNow: false, dismiss: true };
}
