/**
 * `sourcecheck/fileAnnotations`: every annotation of a file with its verdict, its claim and its
 * sources (resolved text, span, or why not), for the SourceCheck view (docs/view.md).
 */
import type { AnnotationRefSummary, AnnotationSummary, FileAnnotationsResult } from "../../../shared/customProtocol";
import { refRoleOf } from "../../../shared/numbering";
import type { AnnotationFile, RefSite } from "../workspace/annotationFile";
import type { FeatureWorkspace } from "./featureWorkspace";
import { oneLine } from "./format";
import { rangeOfPointer, toLspRange } from "./positions";

const MAX_TEXT = 300;

export function fileAnnotations(workspace: FeatureWorkspace, file: AnnotationFile): FileAnnotationsResult {
    const byAnnotation = new Map<number, RefSite[]>();
    file.spansOf(file.sites.map((site) => site.pointer));
    for (const site of file.sites)
        byAnnotation.set(site.annotation, [...(byAnnotation.get(site.annotation) ?? []), site]);
    const annotations: AnnotationSummary[] = [];
    for (let index = 0; index < file.annotationCount; index++) {
        const sites = byAnnotation.get(index) ?? [];
        const claim = sites.find((site) => site.role === "claim");
        annotations.push({
            index,
            verdict: file.verdictOf(index),
            claim: claim && summarize(workspace, file, claim),
            sources: sites.filter((site) => site.role !== "claim").map((site) => summarize(workspace, file, site)),
        });
    }
    return { uri: file.uri, annotations };
}

function summarize(workspace: FeatureWorkspace, file: AnnotationFile, site: RefSite): AnnotationRefSummary {
    const summary: AnnotationRefSummary = {
        ...refRoleOf(site.role),
        valid: site.resolution.valid,
        refRange: rangeOfPointer(file, site.pointer),
    };
    if (site.role !== "claim") {
        summary.polarity = site.polarity;
        summary.confidence = site.confidence;
    }
    if (site.resolution.valid) {
        summary.text = oneLine(site.resolution.text, MAX_TEXT);
        summary.range = toLspRange(site.resolution.range);
        summary.uri = workspace.uriOf(file, site.ref.path);
    } else {
        summary.error = site.resolution.errors[0]?.message ?? "does not resolve";
    }
    return summary;
}
