// The npm package `sourcecheck` (docs/install.md): the CLI and the library, nothing of the VS Code
// extension. Built into build/npm-package/ from dist/ (self-contained esbuild bundles) so it needs no
// install script and no build on the user's machine (npm 11 refuses dependencies' install scripts by
// default). Its only dependencies are the packages its type declarations import.
//
//   node scripts/npm-package.mjs            build dist/ and the declarations, assemble the folder
//   node scripts/npm-package.mjs --pack     ... and `npm pack` it; prints the tarball's path last
import { spawnSync } from "node:child_process";
import {
    copyFileSync,
    cpSync,
    existsSync,
    mkdirSync,
    readdirSync,
    readFileSync,
    rmSync,
    statSync,
    writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const NPM_NAME = "sourcecheck";
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const packageDir = join(root, "build", "npm-package");

function run(command, args, options = {}) {
    const r = spawnSync(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], ...options });
    if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${r.status ?? r.signal}`);
    return r;
}

function filesUnder(dir) {
    return readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/**
 * The declaration files the library's entry reaches through relative imports (`from "./x"`,
 * `import("./x")`): tsc also emits declarations of modules only loaded lazily by `require` (the lock's
 * zod schema), which no exported type names and which would make their packages dependencies.
 */
export function reachableDeclarations(typesDir, entry) {
    const seen = new Set();
    const pending = [join(typesDir, entry)];
    while (pending.length > 0) {
        const file = pending.pop();
        if (seen.has(file) || !existsSync(file)) continue;
        seen.add(file);
        const text = readFileSync(file, "utf8");
        for (const m of text.matchAll(/(?<![\w$./-])(?:from|import)\s*\(?\s*"(\.[^"]*)"/g)) {
            const base = join(dirname(file), m[1]);
            for (const candidate of [`${base}.d.ts`, join(base, "index.d.ts"), base.replace(/\.js$/, ".d.ts")])
                if (candidate.endsWith(".d.ts") && existsSync(candidate)) pending.push(candidate);
        }
    }
    return [...seen].sort();
}

/** Bare package names the declarations import (`jsonc-parser` from `import { Node } from "jsonc-parser"`). */
export function declarationImports(dtsTexts) {
    const names = new Set();
    for (const text of dtsTexts) {
        for (const m of text.matchAll(/(?<![\w$./-])(?:from|import)\s*\(?\s*"([^".][^"]*)"/g)) {
            const spec = m[1];
            if (spec.startsWith("node:")) continue;
            names.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
        }
    }
    return [...names].sort();
}

/** The package.json of the npm package, derived from the repository's. */
export function npmManifest(repoManifest, typeImports) {
    const versionOf = (name) => repoManifest.dependencies?.[name] ?? repoManifest.devDependencies?.[name];
    const dependencies = Object.fromEntries(
        typeImports.map((name) => {
            const version = versionOf(name);
            if (!version) throw new Error(`the declarations import ${name}, which package.json does not list`);
            return [name, version];
        }),
    );
    return {
        name: NPM_NAME,
        version: repoManifest.version,
        description:
            "Machine-checkable LLM citations: the sourcecheck CLI (check, repair, evidence, MCP server...) and library.",
        license: repoManifest.license,
        repository: repoManifest.repository,
        homepage: `${repoManifest.repository.url}#readme`,
        keywords: repoManifest.keywords,
        engines: { node: repoManifest.engines.node },
        bin: { sourcecheck: "bin/sourcecheck.js" },
        main: "./dist/index.js",
        types: "./dist/types/server/src/index.d.ts",
        exports: {
            ".": { types: "./dist/types/server/src/index.d.ts", default: "./dist/index.js" },
            "./package.json": "./package.json",
        },
        files: ["bin/", "dist/", "schemas/", "CHANGELOG.md"],
        dependencies,
    };
}

export function buildNpmPackage({ log = (m) => console.log(`[npm-package] ${m}`) } = {}) {
    run(process.execPath, ["scripts/build.mjs"]);
    rmSync(join(root, "dist", "types"), { recursive: true, force: true });
    run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.types.json"]);
    rmSync(packageDir, { recursive: true, force: true });
    mkdirSync(join(packageDir, "dist"), { recursive: true });
    // Every bundle but the extension's (it needs VS Code); source maps stay out (they are 2x the code).
    for (const name of readdirSync(join(root, "dist"))) {
        if (!name.endsWith(".js") || name === "extension.js") continue;
        const code = readFileSync(join(root, "dist", name), "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
        writeFileSync(join(packageDir, "dist", name), code);
    }
    const typesDir = join(root, "dist", "types");
    for (const file of reachableDeclarations(typesDir, "server/src/index.d.ts")) {
        const target = join(packageDir, "dist", "types", relative(typesDir, file));
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(file, target);
    }
    cpSync(join(root, "bin"), join(packageDir, "bin"), { recursive: true });
    cpSync(join(root, "schemas"), join(packageDir, "schemas"), { recursive: true });
    for (const name of ["README.md", "LICENSE", "CHANGELOG.md"]) copyFileSync(join(root, name), join(packageDir, name));
    const dts = filesUnder(join(packageDir, "dist", "types")).map((f) => readFileSync(f, "utf8"));
    const manifest = npmManifest(JSON.parse(readFileSync(join(root, "package.json"), "utf8")), declarationImports(dts));
    writeFileSync(join(packageDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    log(`assembled ${relative(root, packageDir)} (${manifest.name}@${manifest.version})`);
    return packageDir;
}

/** `npm pack` of the folder into `destination`; returns the tarball's path. */
export function packNpmPackage(destination = join(root, "build")) {
    mkdirSync(destination, { recursive: true });
    const r = spawnSync("npm", ["pack", "--json", "--pack-destination", destination], {
        cwd: packageDir,
        encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`npm pack failed: ${r.stderr}`);
    return join(destination, JSON.parse(r.stdout)[0].filename);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
    buildNpmPackage();
    if (process.argv.includes("--pack")) console.log(packNpmPackage());
}
