import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";
import { checkInput, parseJsonText } from "../../server/src/core";
import { DiskDocuments, type FileSystem, readDocumentUnderRoot } from "../../server/src/workspace/diskDocuments";

const repo = path.resolve(__dirname, "../../..");
const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 10_000);

function tempDir(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-hostile-")));
}

function silentIo(cwd: string, stdin?: string): CliIo & { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return {
        cwd,
        out,
        err,
        stdout: (t) => out.push(t),
        stderr: (t) => err.push(t),
        readStdin: () => Buffer.from(stdin ?? ""),
        stdinIsPiped: stdin !== undefined,
        version: "test",
    };
}

/** A file-system layer that records every path it is asked about. */
function spyFs(): FileSystem & { touched: string[]; readCalled: boolean } {
    const touched: string[] = [];
    return {
        touched,
        readCalled: false,
        realpathSync: (p) => {
            touched.push(p);
            return fs.realpathSync(p);
        },
        statSync: (p) => {
            touched.push(p);
            return fs.statSync(p);
        },
        openSync(p, flags) {
            touched.push(p);
            return fs.openSync(p, flags);
        },
        fstatSync: (fd) => fs.fstatSync(fd),
        readFileSync(fd) {
            this.readCalled = true;
            return fs.readFileSync(fd);
        },
        closeSync: (fd) => fs.closeSync(fd),
    };
}

describe("hostile input: document paths", () => {
    const root = tempDir();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
    fs.writeFileSync(path.join(root, "ok.txt"), "fine text\n");
    fs.mkdirSync(path.join(root, "dir"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link-out"));
    fs.symlinkSync(outside, path.join(root, "dir-out"));
    fs.symlinkSync("/dev/zero", path.join(root, "zero-link"));
    fs.writeFileSync(path.join(root, "binary.dat"), Buffer.from([0x41, 0x00, 0x42]));
    fs.writeFileSync(path.join(root, "latin1.txt"), Buffer.from("caf\xe9", "latin1"));
    spawnSync("mkfifo", [path.join(root, "fifo")]);
    spawnSync("mknod", [path.join(root, "zero"), "c", "1", "5"]);
    const big = path.join(root, "big.txt");
    fs.writeFileSync(big, "");
    fs.truncateSync(big, 65 * 1024 * 1024); // sparse: over the 64 MiB default cap

    const cases: [string, string, RegExp][] = [
        ["/etc/passwd", "path-outside-root", /is absolute/],
        ["../secret.txt", "path-outside-root", /leads outside the document root/],
        ["dir/../../secret.txt", "path-outside-root", /leads outside/],
        ["~/secret.txt", "path-outside-root", /home directory/],
        ["file:///etc/passwd", "path-outside-root", /looks like a URL/],
        ["https://example.com/a.txt", "path-outside-root", /looks like a URL/],
        ["C:\\Windows\\win.ini", "path-outside-root", /absolute|URL or drive/],
        ["link-out", "path-outside-root", /symlink leading outside/],
        ["dir-out/secret.txt", "path-outside-root", /symlink leading outside/],
        ["zero-link", "path-outside-root", /symlink leading outside/],
        ["dir", "unreadable-document", /is a directory/],
        ["fifo", "unreadable-document", /not a regular file/],
        ["zero", "unreadable-document", /not a regular file/],
        ["binary.dat", "unreadable-document", /is binary/],
        ["latin1.txt", "unreadable-document", /not valid UTF-8/],
        ["big.txt", "unreadable-document", /65\.0 MiB, over the 64\.0 MiB size cap/],
        ["missing.txt", "unreadable-document", /no file "missing.txt"/],
        ["a\u0000b", "path-outside-root", /NUL/],
    ];
    for (const [documentPath, code, message] of cases) {
        it(`${JSON.stringify(documentPath)} -> ${code}, never opening anything outside the root`, () => {
            const spy = spyFs();
            const read = readDocumentUnderRoot(root, documentPath, { fs: spy });
            assert.ok(!read.ok);
            assert.equal(read.failure.code, code);
            assert.match(read.failure.message, message);
            for (const touched of spy.touched) {
                assert.ok(touched === root || touched.startsWith(`${root}${path.sep}`), `touched ${touched}`);
            }
            // Only text checks (binary, UTF-8) need the bytes: nothing else refused is ever read.
            const needsBytes = documentPath === "binary.dat" || documentPath === "latin1.txt";
            assert.equal(spy.readCalled, needsBytes, "read only to inspect bytes");
        });
    }

    it("does not block on a regular file swapped for a FIFO between its stat and its read", () => {
        const swapped = path.join(root, "swapped.txt");
        fs.writeFileSync(swapped, "text\n");
        const spy = spyFs();
        const racing: FileSystem = {
            ...spy,
            openSync(p, flags) {
                // A regular file when its path was checked, a FIFO by the time it is opened.
                fs.rmSync(swapped);
                spawnSync("mkfifo", [swapped]);
                return spy.openSync(p, flags);
            },
        };
        const read = readDocumentUnderRoot(root, "swapped.txt", { fs: racing });
        assert.ok(!read.ok);
        assert.match(read.failure.message, /not a regular file/);
    });

    it("honours a smaller size cap (the --max-size setting)", () => {
        const read = readDocumentUnderRoot(root, "ok.txt", { maxBytes: 4 });
        assert.ok(!read.ok);
        assert.match(read.failure.message, /10 B, over the 4 B size cap/);
        // --max-size caps the annotation input too: this one is under it, its 600-byte document is not.
        fs.writeFileSync(path.join(root, "long-ok.txt"), `fine text${" ".repeat(591)}`);
        const run = silentIo(
            root,
            JSON.stringify([
                {
                    claim: ref("long-ok.txt"),
                    sources: [{ ...ref("long-ok.txt"), polarity: "supports", confidence: 1 }],
                },
            ]),
        );
        assert.equal(main(["--json", "--max-size", "500"], run), 1);
        assert.equal(JSON.parse(run.out.join("")).entries[0].claim.error.code, "unreadable-document");
    });

    it("reports a document deleted while cited once the cache is told", () => {
        fs.writeFileSync(path.join(root, "gone.txt"), "here today\n");
        const documents = new DiskDocuments(root);
        const first = documents.get("gone.txt");
        assert.ok("content" in first);
        fs.rmSync(path.join(root, "gone.txt"));
        documents.invalidate("gone.txt");
        const second = documents.get("gone.txt");
        assert.ok(!("content" in second) && second.code === "unreadable-document");
    });
});

function ref(p: string) {
    return { path: p, start: { line: 1, str: "fine" }, end: { line: 1, str: "text" } };
}

describe("hostile input: scale and shape", function () {
    this.timeout(180_000);

    it("rejects absurdly nested JSON with invalid-json instead of overflowing the stack", () => {
        for (const text of ["[".repeat(100_000), `{"annotations":${"[".repeat(50_000)}`]) {
            const io = silentIo(repo, text);
            assert.equal(main(["check", "-"], io), 2);
            assert.match(io.out.join(""), /invalid-json: invalid JSON: nested more than 512 levels deep/);
        }
        const valid = "[".repeat(100_000) + "]".repeat(100_000);
        const io = silentIo(repo, valid);
        assert.equal(main(["check", "-"], io), 2, "valid but absurd JSON is still a schema error, not a crash");
    });

    it("checks a ref into a 5 MB single line", () => {
        const line = "abc ".repeat(1_250_000);
        const content = `${line}UNIQUE-START middle UNIQUE-END ${line}`;
        const input = {
            documents: [{ path: "long", content }],
            annotations: [
                {
                    claim: {
                        path: "long",
                        start: { line: 1, str: "UNIQUE-START" },
                        end: { line: 1, str: "UNIQUE-END" },
                    },
                    sources: [
                        {
                            path: "long",
                            start: { line: 1, str: "abc" },
                            end: { line: 1, str: "UNIQUE-END" },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ],
        };
        const { report } = checkInput(input);
        assert.equal(report.entries[0].claim.valid && report.entries[0].claim.text, "UNIQUE-START middle UNIQUE-END");
        const source = report.entries[0].sources[0];
        assert.ok(!source.valid && source.error.code === "boundary-ambiguous");
        // The first 100 columns are listed, the count is whole (docs/security.md, "Resource bounds").
        assert.equal(source.error.occurrences?.length, 100);
        assert.equal(source.error.occurrenceCount, 2_500_000);
    });

    it("checks a 100 MB document when the cap allows it, and refuses it by default", () => {
        const root = tempDir();
        const chunk = `${"lorem ipsum dolor sit amet ".repeat(3)}\n`;
        const body = chunk.repeat(Math.ceil((100 * 1024 * 1024) / chunk.length));
        fs.writeFileSync(path.join(root, "huge.txt"), `${body}the needle is here\n`);
        const lines = body.split("\n").length;
        const annotations = [
            {
                claim: { path: "huge.txt", start: { line: lines, str: "needle" }, end: { line: lines, str: "here" } },
                sources: [
                    {
                        path: "huge.txt",
                        start: { line: lines, str: "the" },
                        end: { line: lines, str: "is" },
                        polarity: "supports",
                        confidence: 0.5,
                    },
                ],
            },
        ];
        fs.writeFileSync(path.join(root, "a.json"), JSON.stringify(annotations));
        const refused = silentIo(root);
        assert.equal(main(["--json", "a.json"], refused), 1);
        assert.match(JSON.parse(refused.out.join("")).entries[0].claim.error.message, /over the 64\.0 MiB size cap/);
        const allowed = silentIo(root);
        assert.equal(main(["--json", "--max-size", String(200 * 1024 * 1024), "a.json"], allowed), 0);
        assert.equal(JSON.parse(allowed.out.join("")).entries[0].claim.text, "needle is here");
    });

    it("checks 1,000,000 annotations", () => {
        const one = JSON.stringify({
            claim: { path: "d", start: { line: 1, str: "a" }, end: { line: 1, str: "b" } },
            sources: [
                {
                    path: "d",
                    start: { line: 2, str: "c" },
                    end: { line: 2, str: "d" },
                    polarity: "supports",
                    confidence: 1,
                },
            ],
        });
        const text = `{"documents":[{"path":"d","content":"a b\\nc d"}],"annotations":[${Array(1_000_000).fill(one).join(",")}]}`;
        const io = silentIo(repo, text);
        assert.equal(main(["check", "-"], io), 0);
        assert.equal(io.out.join(""), "1000000 annotations: 1000000 valid, 0 invalid (exit 0)\n");
    });
});

describe("hostile input: generated garbage (fast-check)", function () {
    this.timeout(300_000);

    it("never throws on arbitrary JSON values", () => {
        fc.assert(
            fc.property(fc.jsonValue(), (value) => {
                const result = checkInput(value);
                assert.ok([0, 1, 2].includes(result.report.exitCode));
            }),
            { numRuns },
        );
    });

    it("never throws on annotation-shaped values with random leaves", () => {
        const leaf = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.integer(), fc.string(), fc.constant(undefined));
        const boundary = fc.record({ line: leaf, str: leaf }, { requiredKeys: [] });
        const refShape = fc.record(
            { path: fc.oneof(fc.constant("d"), leaf), start: fc.oneof(boundary, leaf), end: fc.oneof(boundary, leaf) },
            { requiredKeys: [] },
        );
        const source = fc.record(
            {
                path: fc.constant("d"),
                start: boundary,
                end: boundary,
                polarity: fc.oneof(fc.constant("supports"), leaf),
                confidence: leaf,
            },
            { requiredKeys: [] },
        );
        const annotation = fc.record(
            { claim: fc.oneof(refShape, leaf), sources: fc.oneof(fc.array(source, { maxLength: 3 }), leaf) },
            { requiredKeys: [] },
        );
        fc.assert(
            fc.property(fc.array(annotation, { maxLength: 4 }), (annotations) => {
                const result = checkInput(
                    JSON.parse(JSON.stringify({ documents: [{ path: "d", content: "x y\nz" }], annotations })),
                );
                for (const entry of result.report.entries) assert.equal(typeof entry.valid, "boolean");
            }),
            { numRuns },
        );
    });

    it("never crashes the CLI on arbitrary text, and always answers 0, 1 or 2", () => {
        fc.assert(
            fc.property(fc.oneof(fc.string(), fc.json(), fc.string({ unit: "binary" })), (text) => {
                assert.doesNotThrow(() => parseJsonText(text));
                const io = silentIo(repo, text);
                const status = main(["check", "--json", "-"], io) as number;
                assert.ok([0, 1, 2].includes(status), `status ${status}: ${io.err.join("")}`);
            }),
            { numRuns },
        );
    });
});

/**
 * A process that runs `sourcecheck ARGS` (the bundled CLI) and SIGKILLs itself once `dieAfter` bytes have
 * gone to files (stdout and stderr aside): fs.writeSync, which every write of the CLI goes through
 * (workspace/safeWrite.ts), writes up to that many bytes and then the process dies where it stands,
 * as a kill mid-write would leave it: no catch, no finally, no clean-up.
 */
function dyingWriter(dieAfter: number): string {
    return `
const fs = require("node:fs");
const writeSync = fs.writeSync;
let left = ${dieAfter};
fs.writeSync = function (fd, buffer, offset, length, ...rest) {
    if (fd <= 2) return writeSync.call(fs, fd, buffer, offset, length, ...rest);
    if (typeof buffer === "string") throw new Error("the fault injection expects bytes");
    offset = offset ?? 0;
    length = length ?? buffer.length - offset;
    if (left === 0) process.kill(process.pid, "SIGKILL");
    const written = writeSync.call(fs, fd, buffer, offset, Math.min(length, left), ...rest);
    left -= written;
    if (left === 0) process.kill(process.pid, "SIGKILL");
    return written;
};
const { main, processIo } = require(${JSON.stringify(path.join(repo, "dist/cli.js"))});
Promise.resolve(main(process.argv.slice(1), processIo())).then((status) => { process.exitCode = status; });
`;
}

describe("hostile input: interrupted writes", function () {
    this.timeout(120_000);

    it("session -o leaves the old file whole when the process dies after any number of bytes written", async () => {
        const previous = '{"documents":[]}\n';
        const args = ["session", "doc.md", "-o", "session.json"];
        /** A folder with the document and the previous session.json, and a run in it dying after `dieAfter` bytes. */
        const runDying = async (dieAfter: number) => {
            const dir = tempDir();
            fs.writeFileSync(path.join(dir, "doc.md"), "Cold start.\n");
            fs.writeFileSync(path.join(dir, "session.json"), previous);
            const child = spawn(process.execPath, ["-e", dyingWriter(dieAfter), ...args], { cwd: dir });
            let stderr = "";
            child.stderr.on("data", (chunk) => {
                stderr += chunk;
            });
            const [status, signal] = await new Promise<[number | null, string | null]>((resolve) =>
                child.on("close", (code, sig) => resolve([code, sig])),
            );
            const temps = fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"));
            const read = (name: string) => fs.readFileSync(path.join(dir, name));
            return { status, signal, stderr, target: read("session.json"), temps: temps.map(read) };
        };
        // The bytes a complete write leaves, from a run that is not interrupted.
        const whole = await runDying(Number.MAX_SAFE_INTEGER);
        assert.equal(whole.status, 0, whole.stderr);
        const complete = whole.target;
        assert.ok(complete.length > previous.length && complete.includes("Cold start"), String(complete));
        const counts = Array.from({ length: complete.length + 1 }, (_, n) => n);
        let killed = 0;
        // A few at a time: each run is a process of its own.
        for (let from = 0; from < counts.length; from += 4) {
            const runs = await Promise.all(counts.slice(from, from + 4).map(runDying));
            for (const [i, run] of runs.entries()) {
                const dieAfter = from + i;
                assert.equal(run.signal, "SIGKILL", `dying after ${dieAfter} bytes: ${run.stderr}`);
                killed++;
                // Not one byte of the target changed; what was written is in a temporary file beside it.
                assert.equal(String(run.target), previous, `died after ${dieAfter} bytes`);
                assert.equal(run.temps.length, 1);
                assert.deepEqual(run.temps[0], complete.subarray(0, dieAfter));
            }
        }
        assert.equal(killed, complete.length + 1);
    });
});
