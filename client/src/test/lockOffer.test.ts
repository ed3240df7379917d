import * as assert from "node:assert/strict";
import { ALWAYS, answerEffect, lockUpdateSetting, NEVER, NOT_NOW, type OfferState, shouldOffer } from "../lockOffer";

const BASE: OfferState = {
    setting: "onSave",
    remembered: undefined,
    dismissed: false,
    showing: false,
    suppressed: false,
    hadLock: false,
    written: false,
};

describe("lock offer: once per workspace, only where it helps", () => {
    it("offers after saving a file without a lock, with onSave and nothing remembered", () => {
        assert.equal(shouldOffer(BASE), true);
    });

    it("never offers when anything says not to", () => {
        const no: Partial<OfferState>[] = [
            { setting: "manual" },
            { setting: "never" },
            { remembered: "always" },
            { remembered: "never" },
            { dismissed: true },
            { showing: true },
            { suppressed: true },
            { hadLock: true },
            { written: true },
        ];
        for (const change of no) assert.equal(shouldOffer({ ...BASE, ...change }), false, JSON.stringify(change));
    });

    it("Always is remembered and locks now; Never is remembered; Not now or no answer only dismisses", () => {
        assert.deepEqual(answerEffect(ALWAYS), { remember: "always", lockNow: true, dismiss: false });
        assert.deepEqual(answerEffect(NEVER), { remember: "never", lockNow: false, dismiss: false });
        assert.deepEqual(answerEffect(NOT_NOW), { lockNow: false, dismiss: true });
        assert.deepEqual(answerEffect(undefined), { lockNow: false, dismiss: true });
    });

    it("reads the setting, anything unknown as the default onSave", () => {
        assert.equal(lockUpdateSetting("manual"), "manual");
        assert.equal(lockUpdateSetting("never"), "never");
        assert.equal(lockUpdateSetting("sometimes"), "onSave");
        assert.equal(lockUpdateSetting(undefined), "onSave");
    });
});
