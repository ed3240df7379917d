/**
 * The third sweep's smaller findings (docs/security.md, "Third sweep"): `render -o` over any file
 * the command reads, format characters in messages. Bytes and exit statuses are counted.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { visible } from "../../server/src/core/visible";
import { writeFileSafely } from "../../server/src/workspace/safeWrite";
import { runCli } from "./cliRun";

/** Unicode's format characters (category Cf), listed by hand from the standard: the oracle. */
const FORMAT_CHARACTERS = [
    0xad, 0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x61c, 0x6dd, 0x70f, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f,
    0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069,
    0x206a, 0x206f, 0xfeff, 0xfff9, 0xfffa, 0xfffb, 0x110bd, 0x1d173, 0x1d17a, 0xe0001, 0xe0020, 0xe0041, 0xe007f,
];

describe("hardening: the third sweep's smaller findings", () => {
    let dir: string;
    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-small-"));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("every format character is escaped in a message as C0 controls are, and nothing else is", () => {
        let escaped = 0;
        for (const code of FORMAT_CHARACTERS) {
            const character = String.fromCodePoint(code);
            const shown = visible(`a${character}b`);
            assert.ok(!shown.includes(character), `U+${code.toString(16)} left raw: ${JSON.stringify(shown)}`);
            assert.match(shown, /^a\\u(\{[0-9a-f]+\}|[0-9a-f]{4})b$|^a\\xadb$/, `U+${code.toString(16)}`);
            escaped++;
        }
        assert.equal(escaped, FORMAT_CHARACTERS.length);
        // Letters, marks and emoji of every script stay as they are.
        for (const text of ["naïve", "日本語", "مرحبا", "👍🏽", "e\u0301"]) assert.equal(visible(text), text);
    });

    it("cite prints a file name holding U+202E escaped, never raw", () => {
        const name = "b\u202egpj.md";
        fs.writeFileSync(path.join(dir, name), "The sky is blue.\n");
        const run = runCli(["cite", name, "not there"], { cwd: dir });
        assert.equal(run.status, 1, run.stderr);
        assert.ok(!run.stderr.includes("\u202e"), JSON.stringify(run.stderr));
        assert.match(run.stderr, /b\\u202egpj\.md/);
    });

    it("render -o refuses the configuration and the lock it reads, and leaves them as they were", () => {
        fs.writeFileSync(path.join(dir, "doc.md"), "The sky is blue.\n");
        const config = '{ "exclude": [] }\n';
        fs.writeFileSync(path.join(dir, "sourcecheck.config.json"), config);
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), "[]");
        const lock = path.join(dir, "a.sourcecheck.lock.json");
        fs.writeFileSync(lock, '{"version":1}');
        for (const output of ["sourcecheck.config.json", "a.sourcecheck.lock.json"]) {
            const run = runCli(["render", "-o", output, "a.sourcecheck.json"], { cwd: dir });
            assert.equal(run.status, 2, `${output}: ${run.stdout}${run.stderr}`);
            assert.match(run.stderr, /also an input of this command/);
        }
        assert.equal(fs.readFileSync(path.join(dir, "sourcecheck.config.json"), "utf8"), config);
        assert.equal(fs.readFileSync(lock, "utf8"), '{"version":1}');
    });
});

describe("hardening: long names written through a shorter temp name", () => {
    it("names of 225 to 255 bytes (ASCII and multi-byte) are written, and no temp file is left", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-long-"));
        try {
            let written = 0;
            for (const name of ["a".repeat(225), "b".repeat(250), `${"c".repeat(245)}.md`, "é".repeat(127)]) {
                const target = path.join(dir, name);
                writeFileSafely(target, "new\n");
                writeFileSafely(target, "again\n");
                assert.equal(fs.readFileSync(target, "utf8"), "again\n");
                written++;
            }
            assert.equal(written, 4);
            assert.deepEqual(
                fs.readdirSync(dir).filter((entry) => entry.endsWith(".tmp")),
                [],
            );
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
