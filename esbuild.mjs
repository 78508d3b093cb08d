// One build script for every bundle: the extension (Node, one ES module, `vscode` external), the dashboard and details webviews (browser IIFE)
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

const seams = !production || args.has('--seams');

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
  define: { TEST_SEAMS: String(seams), WEB: 'false' },
};

/**
 * `vscode` is given by the extension host and loading it does nothing else: an import of it
 * that nothing uses is dropped with the code around it. So a module only a false
 * `if (TEST_SEAMS)` branch uses (src/testing/) leaves no line in the bundle, not even its
 * `require("vscode")`.
 */
const vscodeApi = {
  name: 'vscode-api',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, () => ({ path: 'vscode', external: true, sideEffects: false }));
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    // One CommonJS file: loading one file is faster than an entry and the chunks it imports,
    // and a flow reads in one bundle. Not an ES module: VS Code 1.100 decides how to load an
    // extension from `main` alone, and refuses a `.mjs` one in the web worker even though the
    // worker loads `browser` (dist/web.js).
    entryPoints: { extension: 'src/extension.ts' },
    outdir: DIST,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    metafile: true,
    plugins: [vscodeApi],
  },
];
/**
 * The browser build has no Node: `node:os` is a stand-in there (the one use is under
 * `if (!WEB)`), and any other Node built-in fails the build, naming who imports it.
 */
const browserStandIns = {
  name: 'browser-stand-ins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.path === 'node:os'
        ? { path: 'os', namespace: 'browser-stand-in' }
        : { errors: [{ text: `${args.path} (imported by ${args.importer}) does not exist in the browser build` }] },
    );
    build.onLoad({ filter: /.*/, namespace: 'browser-stand-in' }, () => ({
      contents: "export function homedir() { throw new Error('there is no home folder in the browser'); }",
      loader: 'js',
    }));
  },
};
// VS Code for the Web (package.json `browser`): the same extension for the browser's web-worker
// extension host, which loads one CommonJS file with `vscode` given. `WEB` is true in it.
builds.push({
  ...common,
  entryPoints: { web: 'src/extension.ts' },
  outdir: DIST,
  platform: 'browser',
  format: 'cjs',
  external: ['vscode'],
  define: { ...common.define, WEB: 'true' },
  metafile: true,
  plugins: [vscodeApi, browserStandIns],
});
// The MCP server (src/mcp/server.ts): a script of its own for plain Node 20+, with the MCP SDK
// in it. Some of the SDK's dependencies are CommonJS: `require` is made for them in this ES module.
// The same file, minified, is the npm package of packages/mcp-server (its `bin`; the
// shebang lets npm link it as a command).
const version = JSON.parse(fs.readFileSync('package.json', 'utf8')).version;
const mcpServer = {
  ...common,
  entryPoints: { 'mcp-server': 'src/mcp/server.ts' },
  outdir: DIST,
  platform: 'node',
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  define: { ...common.define, SERVER_VERSION: JSON.stringify(version) },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __eusRequire } from 'node:module'; const require = __eusRequire(import.meta.url);",
  },
  metafile: true,
};
builds.push(mcpServer);
if (!outdirArg)
  builds.push({
    ...mcpServer,
    outdir: 'packages/mcp-server/dist',
    minify: true,
    sourcemap: false,
    define: { ...mcpServer.define, TEST_SEAMS: 'false' },
    metafile: false,
  });
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
  // Each file is required after naming it in `globalThis.__eusTestFile`, so the suite's entry
  // (test/integration/index.ts) knows which file each top-level describe came from and prints
  // each file's seconds; on the newest VS Code only the files whose road differs there are
  // loaded (test/integration/support/versions.ts).
  const suite = (files) =>
    [
      `const { runsHere, unknownFiles } = require('./support/versions');`,
      `const files = ${JSON.stringify(files)};`,
      `const unknown = unknownFiles(${JSON.stringify(integration)});`,
      'if (unknown.length) throw new Error(`support/versions.ts names files that are not tests: ${unknown.join(", ")}`);',
      ...[...files]
        .sort((a, b) => (a === FIRST ? -1 : b === FIRST ? 1 : a.localeCompare(b)))
        .map(
          (f) =>
            `globalThis.__eusTestFile = ${JSON.stringify(f)};\nif (runsHere(${JSON.stringify(f)}, files)) require('./${f.replace(/\.ts$/, '')}');`,
        ),
    ].join('\n');
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
    // Runners, the VS Code API and the framework servers the tests start (run from their own
    // packages, as their users run them) stay outside the bundles; the code under test is bundled in.
    external: [
      'vscode',
      'mocha',
      'playwright-core',
      '@vscode/test-electron',
      'typescript',
      'undici',
      'json-server',
      'fastify',
      'hono',
      '@hono/node-server',
      '@hono/zod-validator',
      'zod',
    ],
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
  for (const result of results) {
    if (!result.metafile) continue;
    for (const [file, info] of Object.entries(result.metafile.outputs))
      if (/\.m?js$/.test(file)) console.log(`[esbuild] ${file} ${(info.bytes / 1024).toFixed(1)} KB`);
  }
  if (outdirArg) {
    const inputs = Object.assign({}, ...results.map((r) => r.metafile?.inputs ?? {}));
    const outputs = Object.assign({}, ...results.map((r) => r.metafile?.outputs ?? {}));
    fs.writeFileSync(path.join(DIST, 'meta.json'), JSON.stringify({ inputs, outputs }));
  }
  // The lazy chunks earlier builds split the extension into are not part of it any more.
  for (const dir of ['chunks', 'chunks-dev']) fs.rmSync(path.join(DIST, dir), { recursive: true, force: true });
}
