// `npm run package` → dist-vsix/engagement-usage.vsix (install it with
// `code --install-extension dist-vsix/engagement-usage.vsix`).
//
// The README's pictures must show on the extension's page inside VS Code. That page is a
// webview whose content policy allows images only from `https:` and `data:` (VS Code 1.100's
// extension editor: `img-src https: data:`, no base address), so a relative path such as
// `docs/walkthrough.png` never shows there, even with the file inside the .vsix. The project
// has no public repository to point absolute addresses at, so the packaged README carries its
// pictures as `data:` URIs; the README in the repository keeps its relative paths. Links to
// other files of the repository (CONTRIBUTING.md), which the page cannot open, become text.
//
// `node scripts/package.mjs --readme-only FILE` writes the packaged README to FILE and stops
// (the unit test reads it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'dist-vsix');
const VSIX = path.join(OUT_DIR, 'engagement-usage.vsix');
const MIME = { '.png': 'image/png', '.svg': 'image/svg+xml', '.gif': 'image/gif', '.jpg': 'image/jpeg' };

/** A relative image path as a data: URI (the file read from the repository). */
function dataUri(relative) {
  const file = path.join(ROOT, relative);
  const mime = MIME[path.extname(file).toLowerCase()];
  if (!mime || !fs.existsSync(file))
    throw new Error(`README: the picture ${relative} is missing or of an unknown type`);
  return `data:${mime};base64,${fs.readFileSync(file).toString('base64')}`;
}

const isRelative = (target) => !/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target);

/** The README as packaged: pictures inline, links to the repository's other files as text. */
function packagedReadme(text) {
  return text
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (all, alt, target) =>
      isRelative(target) ? `![${alt}](${dataUri(target)})` : all,
    )
    .replace(/(<img\b[^>]*\bsrc=")([^"]+)(")/g, (all, start, target, end) =>
      isRelative(target) ? `${start}${dataUri(target)}${end}` : all,
    )
    .replace(/(?<!!)\[([^\]]+)\]\(([^)\s]+)\)/g, (all, label, target) =>
      isRelative(target) ? `${label} (${target.split('#')[0]} in the extension's source)` : all,
    );
}

function main() {
  const args = process.argv.slice(2);
  const readme = packagedReadme(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  if (args[0] === '--readme-only') {
    fs.writeFileSync(path.resolve(args[1]), readme);
    return;
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  // vsce takes the README from the files it packages (.vscodeignore lets this one in, and
  // not the repository's) and ships it as the package's README.md.
  const readmePath = path.join('dist', 'README.md');
  fs.mkdirSync(path.join(ROOT, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, readmePath), readme);
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(
    process.execPath,
    [
      vsce,
      'package',
      '--readme-path',
      readmePath,
      // Nothing relative is left to rewrite, and the project names no public repository.
      '--no-rewrite-relative-links',
      '--allow-missing-repository',
      '--out',
      VSIX,
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

main();
