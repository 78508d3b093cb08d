// One build script for every bundle: the extension (Node, CommonJS, `vscode` external),
// the dashboard webview (browser IIFE) and, with --tests, the test suites and the
// reference service. `--production` minifies without sourcemaps (what `vsce package`
// ships); `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const tests = args.has('--tests');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  target: 'es2022',
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    metafile: true,
  },
];
if (fs.existsSync('src/webview/ui/main.ts')) {
  builds.push({
    ...common,
    entryPoints: { webview: 'src/webview/ui/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    metafile: true,
  });
}

if (tests) {
  const entries = {};
  for (const dir of ['test/unit', 'test/integration', 'test/e2e', 'test/reliability', 'test/service', 'test/bench']) {
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir, { recursive: true })) {
      const rel = path.join(dir, String(file));
      const isEntry = /\.test\.ts$/.test(rel) || /(^|\/)(index|cli|run)\.ts$/.test(rel) || (dir === 'test/bench' && rel.endsWith('.ts'));
      if (isEntry) entries[rel.replace(/\.ts$/, '')] = rel;
    }
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
    external: ['vscode', 'mocha', 'playwright-core', '@vscode/test-electron'],
  });
}

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
  console.log('[esbuild] watching for changes…');
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  for (const result of results) {
    if (!result.metafile) continue;
    for (const [file, info] of Object.entries(result.metafile.outputs)) {
      if (file.endsWith('.js')) console.log(`[esbuild] ${file} ${(info.bytes / 1024).toFixed(1)} KB`);
    }
  }
}
