/**
 * The visible text of an HTML page. parse5 is most of a quote command's code, and most inputs hold no
 * HTML page: ./visibleText.ts is a bundle of its own in dist/ (scripts/build.mjs), required with the
 * first page (docs/architecture.md, "CLI bundles").
 */
export function htmlVisibleText(html: string): string {
    return (require("./visibleText") as typeof import("./visibleText")).visibleText(html);
}
