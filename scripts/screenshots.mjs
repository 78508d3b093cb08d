// `npm run screenshots`: copies the README's pictures from the last end-to-end run into docs/.
// The e2e tests name them `docs-<name>.png`; a run on the newest VS Code takes them all
// (test-results/e2e-newest/: some suites run only there). Each is copied as docs/<name>.png.
// Run `node scripts/run-e2e.mjs --vscode newest` first.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const from = path.join(root, 'test-results', 'e2e-newest');
const to = path.join(root, 'docs');
const shots = fs.existsSync(from)
  ? fs.readdirSync(from).filter((f) => f.startsWith('docs-') && f.endsWith('.png'))
  : [];
if (!shots.length) {
  console.error(`No docs-*.png in ${path.relative(root, from)}/: run node scripts/run-e2e.mjs --vscode newest first.`);
  process.exit(1);
}
fs.mkdirSync(to, { recursive: true });
for (const shot of shots) {
  const target = path.join(to, shot.slice('docs-'.length));
  fs.copyFileSync(path.join(from, shot), target);
  console.log(`${path.relative(root, path.join(from, shot))} -> ${path.relative(root, target)}`);
}
