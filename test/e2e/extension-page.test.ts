// The extension's page in the real VS Code (Extensions view → Engagement & Usage), from the
// packaged .vsix (issue 27): does each picture of the README show there?
// The page is a webview (content policy `img-src https: data:`, service worker off, so no
// webview resource address loads) whose README goes through VS Code's Markdown sanitizer.
// VS Code 1.100's sanitizer keeps `data:` images; 1.139's keeps only http(s) ones (relative
// paths and `data:` are removed). With no public https address for the pictures,
// `npm run package` (scripts/package.mjs) puts them inside the packaged README as `data:`
// URIs: 1.100 shows them, 1.139 shows each picture's description. What the page shows
// differs by version, so the suite runs on both.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useWorkbench } from './workbench';

const NEWEST = process.env.EUS_E2E_VSCODE === 'newest';
const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The README's pictures: description and the PNG's own width (from its IHDR header). */
const expected = Array.from(
  fs
    .readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    .matchAll(/!\[([^\]]+)\]\((docs\/[^)]+\.png)\)|<img\b[^>]*\bsrc="(docs\/[^"]+\.png)"[^>]*\balt="([^"]+)"/g),
  (m) => {
    const file = m[2] ?? m[3];
    return { alt: m[1] ?? m[4], file, width: fs.readFileSync(path.join(ROOT, file)).readUInt32BE(16) };
  },
);

describe('The extension page in VS Code (e2e)', function () {
  this.timeout(120_000);
  const workbench = useWorkbench();

  /** Opens the page from the Extensions view; reads its pictures as the webview holds them. */
  async function openPage() {
    assert.ok(expected.length >= 3, `the README shows its pictures: ${expected.map((p) => p.file).join(', ')}`);
    const wb = workbench();
    await wb.openViewContainer('Extensions');
    const entry = wb.page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Engagement & Usage' }).first();
    await entry.click({ timeout: 30_000 });
    const frame = await wb.webviewFrame(`img[alt="${expected[0].alt}"]`, 30_000);
    assert.ok(await frame.locator('h2', { hasText: 'Install' }).count(), 'the page shows the packaged README');
    const read = () =>
      frame.locator('img').evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).map((img) => ({
          alt: img.alt,
          src: img.getAttribute('src') ?? '',
          width: img.complete ? img.naturalWidth : 0,
        })),
      );
    return { wb, frame, read };
  }

  type Shown = Awaited<ReturnType<Awaited<ReturnType<typeof openPage>>['read']>>;
  const summary = (shown: Shown) => JSON.stringify(shown.map((p) => [p.alt.slice(0, 24), p.src.slice(0, 22), p.width]));

  if (!NEWEST)
    it('VS Code 1.100: every README picture loads on the page, at its own width', async () => {
      const { wb, frame, read } = await openPage();
      let last: Shown = [];
      await wb
        .waitFor(
          async () => {
            last = await read();
            return expected.every((p) => last.some((img) => img.alt === p.alt && img.width > 0)) || undefined;
          },
          'every picture of the README loaded',
          20_000,
        )
        .catch((error: Error) => {
          throw new Error(`${error.message}; the pictures: ${summary(last)}`);
        });
      assert.equal(last.length, expected.length, summary(last));
      for (const picture of expected) {
        const img = last.find((p) => p.alt === picture.alt);
        assert.ok(img?.src.startsWith('data:image/png;base64,'), `${picture.file} is carried inline`);
        assert.equal(img?.width, picture.width, `${picture.file} decoded at its own width`);
      }
      await frame.locator(`img[alt="${expected[0].alt}"]`).scrollIntoViewIfNeeded();
      await wb.screenshot('extension-page');
    });

  if (NEWEST)
    it("VS Code 1.139: the README's text shows, each picture as its description (its sanitizer drops data: images)", async () => {
      const { wb, frame, read } = await openPage();
      const shown = await read();
      assert.equal(shown.length, expected.length, summary(shown));
      for (const picture of expected) {
        const img = shown.find((p) => p.alt === picture.alt);
        assert.ok(img, `${picture.file}: its description is on the page`);
        assert.ok(img.src === '' && img.width === 0, `${picture.file}: ${summary([img])}`);
      }
      await frame.locator(`img[alt="${expected[0].alt}"]`).scrollIntoViewIfNeeded();
      await wb.screenshot('extension-page');
    });
});
