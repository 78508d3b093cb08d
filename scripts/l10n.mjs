// Writes l10n/bundle.l10n.json, the English bundle VS Code loads for the `l10n` field of
// package.json: every message passed to `vscode.l10n.t(…)` in the extension and to the seam
// `l10n.t(…)` (src/core/l10n.ts) in the layers that must not import `vscode`, found by
// @vscode/l10n-dev. l10n-dev follows only calls through an import of `vscode` or
// `@vscode/l10n`, so an import of the seam is read as the latter (the calls have the same
// shape). `npm run build` and `vscode:prepublish` run it, so the bundle is made from the
// sources of the same build and is never stale; it is not kept in git.
//   node scripts/l10n.mjs          writes the bundle (esbuild.mjs does this on every build)
//   node scripts/l10n.mjs --check  exits 1 when the bundle on disk differs from the sources
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
export const BUNDLE = path.join(root, 'l10n', 'bundle.l10n.json');
const SEAM_IMPORT = /(from\s+['"])(?:\.\.?\/)+(?:core\/)?l10n(['"])/g;

/** The messages of every .ts file under src, keys sorted, as l10n-dev extracts them. */
export async function extractMessages(dir = path.join(root, 'src')) {
  const { getL10nJson } = require('@vscode/l10n-dev');
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
  const contents = files.map((file) => ({
    extension: '.ts',
    contents: fs.readFileSync(path.join(dir, file), 'utf8').replace(SEAM_IMPORT, '$1@vscode/l10n$2'),
  }));
  const json = await getL10nJson(contents);
  return Object.fromEntries(
    Object.keys(json)
      .sort()
      .map((key) => [key, json[key]]),
  );
}

export function serialise(messages) {
  return `${JSON.stringify(messages, null, 2)}\n`;
}

/** Writes the bundle (only when it changed, so watchers see no needless change). */
export async function writeBundle() {
  const text = serialise(await extractMessages());
  fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
  if (!fs.existsSync(BUNDLE) || fs.readFileSync(BUNDLE, 'utf8') !== text) fs.writeFileSync(BUNDLE, text);
  console.log(`[l10n] ${path.relative(root, BUNDLE)} ${Object.keys(JSON.parse(text)).length} messages`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(BUNDLE) ? fs.readFileSync(BUNDLE, 'utf8') : '';
    if (current !== serialise(await extractMessages())) {
      console.error(`[l10n] ${path.relative(root, BUNDLE)} is not what the sources say: run npm run build`);
      process.exit(1);
    }
  } else {
    await writeBundle();
  }
}
