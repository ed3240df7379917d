// Renders media/icon.svg to the 128x128 media/icon.png of the Marketplace listing, and a preview
// strip of the gutter icons, with the Chromium the e2e suite uses (playwright-core, no extra tools).
//   node media/render-icons.mjs [--preview out.png]
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const executablePath = process.env.SOURCECHECK_CHROMIUM ?? "/usr/bin/chromium";
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
try {
    const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
    await page.setContent(`<body style="margin:0;background:transparent">${readFileSync(join(here, "icon.svg"), "utf8")}</body>`);
    await page.locator("svg").screenshot({ path: join(here, "icon.png"), omitBackground: true });
    const previewAt = process.argv.indexOf("--preview");
    if (previewAt > 0) {
        const icons = readdirSync(here).filter((f) => f.endsWith(".svg") && f !== "icon.svg");
        const cell = (bg) =>
            icons
                .map((f) => `<div style="background:${bg};padding:4px"><img width="48" src="data:image/svg+xml;base64,${Buffer.from(readFileSync(join(here, f))).toString("base64")}"></div>`)
                .join("");
        await page.setViewportSize({ width: 60 * icons.length, height: 120 });
        await page.setContent(`<body style="margin:0"><div style="display:flex">${cell("#fff")}</div><div style="display:flex">${cell("#1e1e1e")}</div></body>`);
        await page.screenshot({ path: process.argv[previewAt + 1] });
    }
} finally {
    await browser.close();
}
