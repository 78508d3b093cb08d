// One build script for every bundle: the extension (Node, ES module with code-split chunks
// loaded on first use, `vscode` external), the dashboard and details webviews (browser IIFE)
// and, with --tests, the unit, integration and e2e suites and the reference service.
// `--production` minifies without sourcemaps (what `vsce package` ships); `--watch` rebuilds
// on change. Every build but --watch also writes the English message bundle
// l10n/bundle.l10n.json from the same sources (scripts/l10n.mjs).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const tests = args.has('--tests');
// --outdir=DIR builds the extension and webviews there instead of dist/ and writes the build's
// metafile beside them (test/unit/bundle.test.ts checks what a production build contains).
const outdirArg = [...args].find((a) => a.startsWith('--outdir='));
const DIST = outdirArg ? outdirArg.slice('--outdir='.length) : 'dist';
const CHUNKS = production ? 'chunks' : 'chunks-dev';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  target: 'es2022',
  // The test seams (src/testing/) exist only in development and test builds: in the production
  // build `TEST_SEAMS` is false, so every `if (TEST_SEAMS)` branch and what only it imports is
  // dropped (test/unit/bundle.test.ts checks the built bundle). `--production --seams` is the
  // minified build with the seams kept, for the Performance suite (`npm run bench`), which
  // reads its figures through them; `npm run package` never passes it.
  define: { TEST_SEAMS: String(!production || args.has('--seams')) },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    // An ES module (VS Code 1.100+ loads them in the Node extension host), split so that what
    // only a command or the dashboard needs is loaded by `import()` when first used, not at
    // activation: dist/extension.mjs plus dist/chunks/*.mjs (what the package ships), or
    // dist/chunks-dev/*.mjs for development builds, so that neither removes the other's.
    entryPoints: { extension: 'src/extension.ts' },
    outdir: DIST,
    platform: 'node',
    format: 'esm',
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    external: ['vscode'],
    metafile: true,
  },
];
if (fs.existsSync('src/usage/webview/main.ts')) {
  builds.push({
    ...common,
    entryPoints: { webview: 'src/usage/webview/main.ts', details: 'src/engagements/webview/main.ts' },
    outdir: DIST,
    platform: 'browser',
    format: 'iife',
    metafile: true,
  });
}

if (tests) {
  const entries = {};
  for (const dir of ['test/unit', 'test/e2e', 'test/service', 'test/bench']) {
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir, { recursive: true })) {
      const rel = path.join(dir, String(file));
      const isEntry =
        /\.test\.ts$/.test(rel) ||
        /(^|\/)(index|cli|run|worker)\.ts$/.test(rel) ||
        (dir === 'test/bench' && rel.endsWith('.ts'));
      if (isEntry) entries[rel.replace(/\.ts$/, '')] = rel;
    }
  }
  entries['test/integration/index'] = 'test/integration/index.ts';
  // The integration suite is one bundle (and the Restricted Mode suite another): its files
  // share one copy of their helpers, and the extension under test is only the running one.
  const integration = fs
    .readdirSync('test/integration')
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
  const FIRST = 'activation.test.ts';
  const suite = (files) =>
    [...files]
      .sort((a, b) => (a === FIRST ? -1 : b === FIRST ? 1 : a.localeCompare(b)))
      .map((f) => `import './${f.replace(/\.ts$/, '')}';`)
      .join('\n');
  for (const [name, files] of [
    ['suite', integration.filter((f) => !f.endsWith('.restricted.test.ts'))],
    ['restricted', integration.filter((f) => f.endsWith('.restricted.test.ts'))],
  ]) {
    builds.push({
      ...common,
      minify: false,
      sourcemap: 'inline',
      stdin: {
        contents: suite(files),
        resolveDir: path.resolve('test/integration'),
        sourcefile: `${name}.ts`,
        loader: 'ts',
      },
      outfile: `out/test/integration/${name}.js`,
      platform: 'node',
      format: 'cjs',
      external: ['vscode', 'mocha'],
    });
  }
  builds.push({
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: entries,
    outdir: 'out',
    platform: 'node',
    format: 'cjs',
    // Runners and the VS Code API stay outside the bundles; the code under test is bundled in.
    external: ['vscode', 'mocha', 'playwright-core', '@vscode/test-electron', 'typescript', 'undici'],
  });
}

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
  console.log('[esbuild] watching for changes…');
} else {
  const { writeBundle } = await import('./scripts/l10n.mjs');
  const [results] = await Promise.all([Promise.all(builds.map((options) => esbuild.build(options))), writeBundle()]);
  const written = new Set();
  for (const result of results) {
    if (!result.metafile) continue;
    for (const [file, info] of Object.entries(result.metafile.outputs)) {
      written.add(path.resolve(file));
      if (/\.m?js$/.test(file) && !/\/chunks(-dev)?\//.test(file))
        console.log(`[esbuild] ${file} ${(info.bytes / 1024).toFixed(1)} KB`);
    }
  }
  // Chunks of earlier builds of this kind: their names carry a content hash.
  if (outdirArg) {
    const inputs = Object.assign({}, ...results.map((r) => r.metafile?.inputs ?? {}));
    const outputs = Object.assign({}, ...results.map((r) => r.metafile?.outputs ?? {}));
    fs.writeFileSync(path.join(DIST, 'meta.json'), JSON.stringify({ inputs, outputs }));
  }
  const chunks = path.join(DIST, CHUNKS);
  const stale = fs.existsSync(chunks) ? fs.readdirSync(chunks).map((f) => path.join(chunks, f)) : [];
  for (const file of stale) if (!written.has(path.resolve(file))) fs.rmSync(file, { force: true });
}
