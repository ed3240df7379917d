import * as assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { exitOnUncaughtErrors } from "../../server/src/processGuards";

/** A fake process: records exit codes instead of exiting. */
class FakeProcess extends EventEmitter {
    readonly exits: number[] = [];
    exit(code: number): void {
        this.exits.push(code);
    }
}

describe("server process guards", () => {
    it("an uncaught exception is logged and the process exits with status 1, so the client restarts it", () => {
        const fake = new FakeProcess();
        const logged: string[] = [];
        exitOnUncaughtErrors(fake, (message) => logged.push(message));
        fake.emit("uncaughtException", new Error("boom in a handler"));
        assert.deepEqual(fake.exits, [1]);
        assert.equal(logged.length, 1);
        assert.match(logged[0], /uncaught exception.*boom in a handler/s);
    });

    it("exits even when logging fails", () => {
        const fake = new FakeProcess();
        exitOnUncaughtErrors(fake, () => {
            throw new Error("stderr closed");
        });
        assert.throws(() => fake.emit("uncaughtException", new Error("boom")), /stderr closed/);
        assert.deepEqual(fake.exits, [1]);
    });

    it("an unhandled rejection is logged and the server carries on", () => {
        const fake = new FakeProcess();
        const logged: string[] = [];
        exitOnUncaughtErrors(fake, (message) => logged.push(message));
        fake.emit("unhandledRejection", new Error("late reply"));
        assert.deepEqual(fake.exits, []);
        assert.match(logged[0], /unhandled rejection.*late reply/s);
    });
});
