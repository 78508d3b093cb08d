// The extension's page in the real VS Code (Extensions view → Engagement & Usage), from the
// packaged .vsix (issue 27). The page is a webview whose content policy allows images from
// https: and data: only, and which resolves no relative path; the project has no public
// https address for its pictures, so `npm run package` (scripts/package.mjs) puts them inside
// the packaged README as data: URIs. VS Code 1.100 shows them. 1.139's Markdown sanitizer
// drops data: images on this page (its default media protocols), so there the page shows
// each picture's description instead: what it does differs by version, so it runs on both.
import assert from 'node:assert/strict';
import { useWorkbench } from './workbench';

const NEWEST = process.env.EUS_E2E_VSCODE === 'newest';

describe('The extension page in VS Code (e2e)', function () {
  this.timeout(120_000);
  const workbench = useWorkbench();

  /** The README's pictures on the page: description, scheme of the address, width loaded. */
  async function pictures() {
    const wb = workbench();
    await wb.openViewContainer('Extensions');
    const entry = wb.page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Engagement & Usage' }).first();
    await entry.click({ timeout: 30_000 });
    const frame = await wb.webviewFrame('img[alt^="The walkthrough"]', 30_000);
    assert.ok(await frame.locator('h2', { hasText: 'Install' }).count(), 'the page shows the packaged README');
    const read = () =>
      frame.locator('img').evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).map((img) => ({
          alt: img.alt,
          src: img.getAttribute('src') ?? '',
          width: img.complete ? img.naturalWidth : 0,
        })),
      );
    return { wb, read };
  }

  if (!NEWEST)
    it('VS Code 1.100: shows the README with every picture loaded', async () => {
      const { wb, read } = await pictures();
      let last: unknown;
      const shown = await wb
        .waitFor(
          async () => {
            const now = await read();
            last = now.map((p) => [p.alt.slice(0, 20), p.src.slice(0, 15), p.width]);
            return now.length >= 6 && now.every((p) => p.width > 0) ? now : undefined;
          },
          'every picture of the README loaded',
          20_000,
        )
        .catch((error: Error) => {
          throw new Error(`${error.message}; the pictures: ${JSON.stringify(last)}`);
        });
      assert.ok(shown.every((p) => p.src.startsWith('data:image/png;base64,')));
    });

  if (NEWEST)
    it("VS Code 1.139: the README's text shows, each picture as its description (data: images are dropped there)", async () => {
      const { read } = await pictures();
      const shown = await read();
      assert.ok(shown.length >= 6, 'every picture is on the page');
      assert.ok(
        shown.every((p) => p.alt.length > 20 && p.src === '' && p.width === 0),
        JSON.stringify(shown.map((p) => [p.alt.slice(0, 20), p.src.slice(0, 15), p.width])),
      );
    });
});
