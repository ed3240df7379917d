/**
 * A fresh corpus for the agents' evidence tests: sources in Markdown, plain text and reStructuredText
 * on overlapping subjects, and an answer (`answer.md`, cited by `answer.sourcecheck.json`) whose
 * claims repeat their sources' sentences word for word, the case where a search that offered the
 * answer would rank it first. Each claim names the source passage that must come back for it.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface AnswerClaim {
    /** The claim as written in the answer (a whole line of answer.md). */
    text: string;
    /** The source file and the sentence of it the claim repeats. */
    source: string;
    sentence: string;
}

const SOURCES: Record<string, string> = {
    "reports/cooling.md": `# Data centre cooling

## Free cooling

Free cooling uses outside air whenever it is colder than the return air.
The Dublin site ran on free cooling for 7,900 hours in 2023.
Evaporative pads add capacity on the hottest afternoons.

## Liquid cooling

Direct-to-chip liquid cooling removes up to 80% of the heat at the source.
The remaining heat still needs air handlers, so rooms keep a smaller air system.
`,
    "reports/power.md": `# Power

## Grid connection

The campus draws 48 MW from two independent substations.
Either substation can carry the full load for maintenance windows.

## Backup

Diesel generators start within 12 seconds of a grid failure.
Batteries bridge the gap between the failure and the generators taking the load.
Fuel on site lasts 48 hours at full load.
`,
    "notes/water.txt": `Water use

The cooling towers consumed 310 million litres of water in 2023.
Rainwater harvesting supplied 18% of that total.

Water usage effectiveness fell from 1.8 to 1.2 litres per kilowatt-hour after the retrofit.
The retrofit replaced open towers with closed-loop dry coolers on two halls.
`,
    "notes/staff.rst": `Operations staff
================

The site runs three shifts of eleven technicians each.
Every technician is trained on the generator start procedure twice a year.

Incident response
-----------------

A cooling alarm pages the on-call engineer within one minute.
Most cooling alarms are cleared by restarting a pump controller.
`,
    "reports/efficiency.md": `# Efficiency

## Power usage effectiveness

Annual power usage effectiveness reached 1.18 in 2023, down from 1.31 in 2021.
Most of the gain came from free cooling and the liquid-cooled halls.

## Heat reuse

Waste heat warms 1,200 homes through the district heating network.
Heat reuse started in October 2022 after a two-year pilot.
`,
    "reports/site.md": `# Site

## Location

The campus sits on 14 hectares next to the ring road.
The nearest residential street is 400 metres away.

## Noise

Night-time noise at the fence stays below 35 decibels.
Generator tests run only on weekday mornings to limit noise.
`,
};

export const CLAIMS: AnswerClaim[] = [
    {
        text: "The Dublin site ran on free cooling for 7,900 hours in 2023.",
        source: "reports/cooling.md",
        sentence: "The Dublin site ran on free cooling for 7,900 hours in 2023.",
    },
    {
        text: "Direct-to-chip liquid cooling removes up to 80% of the heat at the source.",
        source: "reports/cooling.md",
        sentence: "Direct-to-chip liquid cooling removes up to 80% of the heat at the source.",
    },
    {
        text: "Diesel generators start within 12 seconds of a grid failure.",
        source: "reports/power.md",
        sentence: "Diesel generators start within 12 seconds of a grid failure.",
    },
    {
        text: "The cooling towers consumed 310 million litres of water in 2023.",
        source: "notes/water.txt",
        sentence: "The cooling towers consumed 310 million litres of water in 2023.",
    },
    {
        text: "Water usage effectiveness fell from 1.8 to 1.2 litres per kilowatt-hour after the retrofit.",
        source: "notes/water.txt",
        sentence: "Water usage effectiveness fell from 1.8 to 1.2 litres per kilowatt-hour after the retrofit.",
    },
    {
        text: "A cooling alarm pages the on-call engineer within one minute.",
        source: "notes/staff.rst",
        sentence: "A cooling alarm pages the on-call engineer within one minute.",
    },
    {
        text: "Annual power usage effectiveness reached 1.18 in 2023, down from 1.31 in 2021.",
        source: "reports/efficiency.md",
        sentence: "Annual power usage effectiveness reached 1.18 in 2023, down from 1.31 in 2021.",
    },
    {
        text: "Waste heat warms 1,200 homes through the district heating network.",
        source: "reports/efficiency.md",
        sentence: "Waste heat warms 1,200 homes through the district heating network.",
    },
    {
        text: "Night-time noise at the fence stays below 35 decibels.",
        source: "reports/site.md",
        sentence: "Night-time noise at the fence stays below 35 decibels.",
    },
    {
        text: "The campus draws 48 MW from two independent substations.",
        source: "reports/power.md",
        sentence: "The campus draws 48 MW from two independent substations.",
    },
];

/** Writes the corpus and the answer with its annotation file under `root`. */
export function writeAnswerCorpus(root: string): void {
    for (const [name, text] of Object.entries(SOURCES)) {
        fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
        fs.writeFileSync(path.join(root, name), text);
    }
    const answer = ["# What the site report says", "", ...CLAIMS.map((c) => c.text), ""].join("\n");
    fs.writeFileSync(path.join(root, "answer.md"), answer);
    // One annotation so far: the answer is in the works, and must never be offered as its own source.
    const first = CLAIMS[0].text;
    const annotations = {
        annotations: [
            {
                claim: {
                    path: "./answer.md",
                    start: { line: 3, str: first.slice(0, 12) },
                    end: { line: 3, str: "2023." },
                },
                sources: [],
            },
        ],
    };
    fs.writeFileSync(path.join(root, "answer.sourcecheck.json"), `${JSON.stringify(annotations, null, 2)}\n`);
}

/** True when a hit is the passage a claim repeats: its file, and its text holds the sentence (or is held by it). */
export function hitIsPassage(hit: { path: string; text: string }, claim: AnswerClaim): boolean {
    return hit.path === claim.source && (hit.text.includes(claim.sentence) || claim.sentence.includes(hit.text));
}
