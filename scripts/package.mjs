// `npm run package` → dist-vsix/engagement-usage.vsix (install it with
// `code --install-extension dist-vsix/engagement-usage.vsix`).
//
// The README's pictures on the extension's page inside VS Code. That page is a webview
// (the extension editor's `renderBody`) whose content policy is `img-src https: data:`, with
// its service worker off (`disableServiceWorker`), so no webview resource address loads and
// nothing resolves against the installed extension's folder; the README is read from the
// installed folder as it is and goes through VS Code's Markdown sanitizer:
//   - VS Code 1.100 keeps http(s) and `data:` images: `data:` pictures show. A relative path
//     resolves against the webview's own address, never the extension's folder, and the
//     policy blocks it.
//   - VS Code 1.139 keeps only http(s) images (`allowedMediaProtocols` defaults to http and
//     https, `allowRelativeMediaPaths` to false): relative and `data:` pictures are removed,
//     and the page shows each picture's description. Only an `https:` address, fetched over
//     the network, would show there.
// A relative path kept inside the .vsix therefore shows on neither, and the project has no
// public https address for its pictures (so no `repository` in package.json, and vsce runs
// with `--allow-missing-repository --no-rewrite-relative-links`). The packaged README carries
// its pictures as `data:` URIs: they show on 1.100, and on 1.139 each description stands in.
// They cost the .vsix their own size (base64 deflates back to about the PNG's bytes), so the
// README shows only the pictures the page needs, cropped and reduced to 32 colours
// (CONTRIBUTING.md, "Walkthrough, welcome views and pictures"); this script prints their
// sizes. The README in the repository keeps its relative paths. Links to other files of the
// repository (CONTRIBUTING.md), which the page cannot open, become text.
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

/** Bytes of each picture put inline, for the report after packaging. */
const inlined = new Map();

/** A relative image path as a data: URI (the file read from the repository). */
function dataUri(relative) {
  const file = path.join(ROOT, relative);
  const mime = MIME[path.extname(file).toLowerCase()];
  if (!mime || !fs.existsSync(file))
    throw new Error(`README: the picture ${relative} is missing or of an unknown type`);
  const bytes = fs.readFileSync(file);
  inlined.set(relative, bytes.length);
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

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
  const total = [...inlined.values()].reduce((sum, n) => sum + n, 0);
  const each = [...inlined].map(([file, n]) => `${path.basename(file)} ${kb(n)}`).join(', ');
  console.log(`README pictures inline: ${kb(total)} (${each}); .vsix ${kb(fs.statSync(VSIX).size)}`);
}

main();
