/**
 * The text a reader sees on an HTML page, via parse5 (a WHATWG HTML5 parser): entities decoded,
 * tags gone, scripts, styles, templates, the head and `hidden` elements skipped, block elements
 * separated by line breaks so words of adjacent blocks do not run together.
 */
import { type DefaultTreeAdapterMap, parse } from "parse5";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

const INVISIBLE = new Set([
    "head",
    "script",
    "style",
    "noscript",
    "template",
    "iframe",
    "object",
    "embed",
    "canvas",
    "select",
    "datalist",
    "dialog",
]);

const BLOCK = new Set([
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "caption",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
]);

export function visibleText(html: string): string {
    const parts: string[] = [];
    walk(parse(html), parts);
    return parts.join("");
}

function walk(node: Node, parts: string[]): void {
    if (node.nodeName === "#text") {
        parts.push((node as DefaultTreeAdapterMap["textNode"]).value);
        return;
    }
    if (!("childNodes" in node)) return;
    const element = "tagName" in node ? (node as Element) : undefined;
    if (element && (INVISIBLE.has(element.tagName) || isHidden(element))) return;
    const block = element !== undefined && BLOCK.has(element.tagName);
    if (block) parts.push("\n");
    for (const child of node.childNodes) walk(child, parts);
    if (block) parts.push("\n");
}

function isHidden(element: Element): boolean {
    return element.attrs.some(
        (attr) =>
            attr.name === "hidden" ||
            (attr.name === "style" && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(attr.value)),
    );
}
