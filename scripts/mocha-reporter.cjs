// Mocha's spec output, plus the pass/fail counts written to $SOURCECHECK_STATS for scripts/test.mjs to sum.
const fs = require("node:fs");
const Mocha = require("mocha");

class CountingSpec extends Mocha.reporters.Spec {
    constructor(runner, options) {
        super(runner, options);
        runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
            const file = process.env.SOURCECHECK_STATS;
            if (file) {
                const { passes, failures, pending } = this.stats;
                fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures + pending }));
            }
        });
    }
}
module.exports = CountingSpec;
