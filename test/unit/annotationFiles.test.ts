import * as assert from "node:assert/strict";
import { AnnotationRecognizer, globMatcher } from "../../server/src/workspace/discovery";

describe("annotation-file names (one glob engine)", () => {
    it("recognises the built-in names in any folder, whatever the case", () => {
        const matcher = new AnnotationRecognizer();
        assert.ok(matcher.matches("/w/a/answer.sourcecheck.json"));
        assert.ok(matcher.matches("/w/ANSWER.Annotations.JSON"));
        assert.ok(!matcher.matches("/w/answer.json"));
    });

    it("a glob without a slash matches the base name at any depth; with one, the path from the folder", () => {
        const matcher = new AnnotationRecognizer(["*.cites.json", "claims/*.json", "reviews/**/*.review"]);
        assert.ok(matcher.matches("/w/deep/down/x.cites.json", "deep/down/x.cites.json"));
        assert.ok(matcher.matches("/w/claims/a.json", "claims/a.json"));
        assert.ok(!matcher.matches("/w/other/claims/a.json", "other/claims/a.json"), "anchored at the folder");
        assert.ok(matcher.matches("/w/reviews/2024/q1/a.review", "reviews/2024/q1/a.review"));
        assert.ok(matcher.matches("/w/reviews/a.review", "reviews/a.review"), "** matches no folder too");
        assert.ok(!matcher.matches("/w/claims/a.txt", "claims/a.txt"));
    });

    it("braces, classes, ? and dot files", () => {
        assert.ok(globMatcher("{a,b}.json")("x/a.json"));
        assert.ok(!globMatcher("{a,b}.json")("x/c.json"));
        assert.ok(globMatcher("[ab]?.json")("bz.json"));
        assert.ok(!globMatcher("[ab]?.json")("cz.json"));
        assert.ok(globMatcher("*.cites.json")(".hidden.cites.json"));
        assert.ok(globMatcher("./claims/*.json")("claims/a.json"), "a leading ./ is the folder itself");
    });
});
