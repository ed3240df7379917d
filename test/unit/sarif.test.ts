/**
 * `check --format sarif` as code scanning takes it (docs/ci.md, "SARIF"): documented rules, locations
 * relative to the repository root whatever form the path was given in, percent-encoded, fingerprints
 * that survive moved lines, and Microsoft's SARIF Multitool (a devDependency) finding nothing with
 * its SARIF and GitHub rule sets.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const repo = path.resolve(__dirname, "../../..");
const bin = path.join(repo, "bin", "sourcecheck.js");
const demoFile = path.join(repo, "examples", "demo", "answer.sourcecheck.json");

/** A SARIF log or part of one, checked field by field. */
type Sarif = any;

function sarif(args: string[], cwd: string): { status: number | null; log: Sarif; text: string } {
    const r = spawnSync(process.execPath, [bin, "check", "--format", "sarif", ...args], { cwd, encoding: "utf8" });
    assert.equal(r.stderr, "");
    return { status: r.status, log: JSON.parse(r.stdout), text: r.stdout };
}

const tempDir = (name: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sourcecheck-${name}-`)));
const locations = (log: Sarif) =>
    log.runs[0].results.map((r: Sarif) => r.locations[0].physicalLocation.artifactLocation);

describe("SARIF for code scanning", function () {
    this.timeout(120_000);

    it("documents every rule: full description, help as text and Markdown, a help URI to its section", () => {
        const { log } = sarif(["--root", "examples/demo", "examples/demo/answer.sourcecheck.json"], repo);
        const rules = log.runs[0].tool.driver.rules;
        assert.equal(rules.length, 17);
        const doc = fs.readFileSync(path.join(repo, "docs", "codes.md"), "utf8");
        for (const rule of rules) {
            assert.ok(rule.fullDescription?.text, `${rule.id}: fullDescription`);
            assert.ok(rule.help?.text && rule.help?.markdown, `${rule.id}: help`);
            assert.notEqual(rule.name, rule.id);
            assert.equal(
                rule.helpUri,
                `https://github.com/sourcecheck/sourcecheck-vscode/blob/main/docs/codes.md#${rule.id}`,
            );
            assert.match(doc, new RegExp(`^## ${rule.id}$`, "m"), `docs/codes.md has a section for ${rule.id}`);
        }
        // Every result names a rule of the list, at its index.
        for (const result of log.runs[0].results) assert.equal(rules[result.ruleIndex].id, result.ruleId);
    });

    it("locates files relative to the repository root, whether given relative or absolute", () => {
        const byRelative = sarif(["answer.sourcecheck.json"], path.dirname(demoFile));
        const byAbsolute = sarif([demoFile], os.tmpdir() === repo ? "/" : path.dirname(demoFile));
        const fromRoot = sarif(["--root", "examples/demo", demoFile], repo);
        for (const { log } of [byRelative, byAbsolute, fromRoot]) {
            assert.equal(log.runs[0].results.length, 7);
            for (const location of locations(log))
                assert.deepEqual(location, { uri: "examples/demo/answer.sourcecheck.json", uriBaseId: "%SRCROOT%" });
            assert.deepEqual(log.runs[0].originalUriBaseIds, { "%SRCROOT%": { uri: `${pathToFileURL(repo).href}/` } });
        }
    });

    it("percent-encodes names, and gives a file outside the repository its absolute file URI", () => {
        const dir = tempDir("sarif-names");
        fs.mkdirSync(path.join(dir, ".git"));
        fs.mkdirSync(path.join(dir, "a b#1"));
        fs.writeFileSync(path.join(dir, "doc.md"), "one line\n");
        const annotations = JSON.stringify({
            annotations: [
                {
                    claim: { path: "doc.md", start: { line: 1, str: "one" }, end: { line: 1, str: "nope" } },
                    sources: [
                        {
                            path: "doc.md",
                            start: { line: 1, str: "one" },
                            end: { line: 1, str: "line" },
                            polarity: "supports",
                            confidence: 0.9,
                        },
                    ],
                },
            ],
        });
        fs.writeFileSync(path.join(dir, "a b#1", "ü 100%.sourcecheck.json"), annotations);
        const inside = sarif(["--root", ".", "."], dir);
        assert.equal(inside.status, 1);
        assert.deepEqual(locations(inside.log)[0], {
            uri: "a%20b%231/%C3%BC%20100%25.sourcecheck.json",
            uriBaseId: "%SRCROOT%",
        });
        // Checked from another repository: no relative path leads there.
        const elsewhere = tempDir("sarif-elsewhere");
        fs.mkdirSync(path.join(elsewhere, ".git"));
        const file = path.join(dir, "a b#1", "ü 100%.sourcecheck.json");
        const outside = sarif(["--root", dir, file], elsewhere);
        assert.deepEqual(locations(outside.log)[0], { uri: pathToFileURL(file).href });
        assert.match(locations(outside.log)[0].uri, /^file:\/\/\/.*a%20b%231\/%C3%BC%20100%25\.sourcecheck\.json$/);
    });

    it("keeps each result's fingerprint when the annotation file's lines move, and tells results apart", () => {
        const dir = tempDir("sarif-moves");
        fs.mkdirSync(path.join(dir, ".git"));
        fs.cpSync(path.dirname(demoFile), dir, { recursive: true });
        const before = sarif(["answer.sourcecheck.json"], dir).log.runs[0].results;
        const file = path.join(dir, "answer.sourcecheck.json");
        fs.writeFileSync(file, `\n\n\n${fs.readFileSync(file, "utf8")}`);
        const after = sarif(["answer.sourcecheck.json"], dir).log.runs[0].results;
        assert.equal(after.length, before.length);
        const prints = (results: Sarif[]) => results.map((r) => r.partialFingerprints["sourcecheckProblem/v1"]);
        assert.deepEqual(prints(after), prints(before));
        assert.equal(new Set(prints(before)).size, before.length, "one fingerprint per problem");
        assert.notDeepEqual(
            after.map((r: Sarif) => r.locations[0].physicalLocation.region.startLine),
            before.map((r: Sarif) => r.locations[0].physicalLocation.region.startLine),
        );
    });

    it("passes Microsoft's SARIF Multitool (SARIF and GitHub rules) on the demo, relative and absolute, and on check .", () => {
        const multitool = path.join(
            path.dirname(require.resolve(`@microsoft/sarif-multitool-${process.platform}/package.json`)),
            process.platform === "win32" ? "Sarif.Multitool.exe" : "Sarif.Multitool",
        );
        const dir = tempDir("sarif-validate");
        // SARIF2006 fetches every URI in the log to see that it answers: no network from tests.
        const config = path.join(dir, "no-network.xml");
        fs.writeFileSync(
            config,
            '<?xml version="1.0" encoding="utf-8"?>\n<Properties>\n  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">\n    <Property Key="RuleEnabled" Value="Disabled" />\n  </Properties>\n</Properties>\n',
        );
        // A repository holding the demo twice, once in a folder whose name needs encoding.
        const corpus = tempDir("sarif-corpus");
        fs.mkdirSync(path.join(corpus, ".git"));
        for (const folder of ["one", "two words"])
            fs.cpSync(path.dirname(demoFile), path.join(corpus, folder), { recursive: true });
        const logs = {
            relative: sarif(["answer.sourcecheck.json"], path.dirname(demoFile)).text,
            absolute: sarif([demoFile], path.dirname(demoFile)).text,
            everything: sarif(["."], corpus).text,
        };
        assert.equal(JSON.parse(logs.everything).runs[0].results.length, 14, "check . finds both files' problems");
        for (const [name, text] of Object.entries(logs)) {
            const file = path.join(dir, `${name}.sarif`);
            fs.writeFileSync(file, text);
            const r = spawnSync(
                multitool,
                ["validate", "-c", config, "--rule-kind", "Sarif;Gh", "--level", "Error;Warning", file],
                { encoding: "utf8", env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1" } },
            );
            assert.equal(r.error, undefined, String(r.error));
            const findings = `${r.stdout}\n${r.stderr}`
                .split("\n")
                .filter((line) => /\b(error|warning) [A-Z]+\d+/.test(line))
                .filter((line) => !/WRN999\.RuleExplicitlyDisabled : Rule 'SARIF2006'/.test(line));
            assert.deepEqual(findings, [], `${name}: ${r.stdout}`);
            assert.equal(r.status, 0, `${name}: ${r.stdout}\n${r.stderr}`);
            assert.match(r.stdout, /Analysis completed successfully/);
        }
    });
});
