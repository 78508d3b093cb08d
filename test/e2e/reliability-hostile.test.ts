// Hostile data in the real browser: the reference service serves names, key names, records
// and a tier full of HTML, script, Markdown command links, emoji, right-to-left text and
// 10,000-character strings (test/service/hostile.ts). In the workbench and in the dashboard's
// webview, every payload that would run sets `window.__pwned`; it must stay unset, no element
// may be injected, the text must be shown as text, and the tree's tooltip must hold no
// command link. The webview's document must not hold the API key either.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { HOSTILE_TEXT, hostileDetails, hostileEngagements, hostileKeys, hostileSummary } from '../service/hostile';
import type { Engagement } from '../service/types';
import { CONTAINER, useWorkbench } from './workbench';
import { displayText, shortLabel } from '../../src/core/text';

/** What an injection would leave in a document: the flag its scripts set, and the elements it adds. */
async function injected(target: Page | Frame): Promise<{ pwned: unknown; elements: number }> {
  return target.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    elements: document.querySelectorAll('img[src="x"], svg[onload], a[href^="javascript:"]').length,
  }));
}

describe('Reliability: hostile data in the real browser (e2e)', function () {
  this.timeout(180_000);
  const workbench = useWorkbench();

  it('the tree shows hostile names as text; the tooltip runs no command link; nothing is injected', async () => {
    const wb = workbench();
    const store = wb.service.store;
    const period = store.currentPeriod();
    const now = Date.now();
    // The hostile engagements are the most recently updated: the first rows of the tree.
    const hostile = hostileEngagements(store.engagements).map((e, i): Engagement =>
      i < 7 ? { ...e, updatedAt: new Date(now - i * 1000).toISOString() } : e,
    );
    store.setEngagements(hostile);
    store.setByKey(period, hostileKeys(store.byKey(period)));
    store.setDetails(period, hostileDetails(store.details(period)));
    store.setSummary(period, hostileSummary(period));

    await wb.addEnvironmentFromWelcome(CONTAINER, 'Hostile', wb.service.baseUrl, wb.service.keys.admin);
    const rows = await wb.waitFor(
      async () => {
        const items = await wb.treeItems('Engagements');
        return items.some((i) => i.label === HOSTILE_TEXT.imgTag) ? items : undefined;
      },
      'the hostile engagements in the tree',
      30_000,
    );
    // Bidirectional overrides are dropped from what is shown (they could disguise a name).
    // Labels are one line of at most 80 characters (the whole name is in the tooltip).
    for (const text of [
      HOSTILE_TEXT.imgTag,
      HOSTILE_TEXT.commandLink,
      HOSTILE_TEXT.emoji,
      displayText(HOSTILE_TEXT.rtl),
    ].map((t) => shortLabel(t, ''))) {
      assert.ok(
        rows.some((r) => r.label === text),
        `"${text.slice(0, 30)}" is shown as text: ${rows.map((r) => r.label.slice(0, 30)).join(' | ')}`,
      );
    }
    assert.ok(
      rows.some((r) => r.label.startsWith('LLLL')),
      'the 10,000-character name is there',
    );

    const tooltip = await wb.hoverText(wb.treeRow('Engagements', shortLabel(HOSTILE_TEXT.commandLink, '')));
    assert.ok(
      tooltip.includes('command:engagementUsage.signOutAll'),
      `the link is shown as text: ${tooltip.slice(0, 200)}`,
    );
    const links = await wb.page
      .locator('.workbench-hover a, .monaco-hover a')
      .evaluateAll((anchors) =>
        anchors.map((a) => `${a.getAttribute('href') ?? ''} ${a.getAttribute('data-href') ?? ''}`),
      );
    assert.deepEqual(
      links.filter((l) => l.includes('command:')),
      [],
      'no command link in the tooltip',
    );
    await wb.screenshot('reliability-hostile-tooltip', { keepPointer: true });
    await wb.page.mouse.move(250, 15);

    assert.deepEqual(
      await injected(wb.page),
      { pwned: undefined, elements: 0 },
      'nothing ran or was injected in the workbench',
    );
  });

  it('the details panel renders hostile fields as text: no script runs, no element is injected', async () => {
    const wb = workbench();
    // Go to Engagement by id, as a person does; each engagement's details in the same panel.
    for (const id of ['eng_hostile_img', 'eng_hostile_cmd', 'eng_<b>x</b>|`tick`']) {
      const sent = wb.service.store.engagements.find((e) => e.id === id);
      assert.ok(sent, id);
      await wb.page.locator('.monaco-workbench').focus();
      await wb.page.keyboard.press('Control+Alt+E');
      await wb.waitForQuickInput('Go to Engagement');
      await wb.quickInput().fill(id);
      await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: id }).first().waitFor();
      await wb.page.keyboard.press('Enter');
      const details = await wb.webviewFrame('h1.name', 30_000);
      // The name whole, as text: rendering got to the end of it (an error would stop before).
      await wb.waitFor(
        async () => (await details.locator('h1.name').textContent()) === displayText(sent.name),
        `the details of ${id}`,
      );
      const text = await details.locator('body').innerText();
      assert.ok(text.includes(id), `the id ${id} is shown as text`);
      if (sent.description) assert.ok(text.includes(sent.description.split('\n')[0]), 'the description as text');
      assert.deepEqual(
        await injected(details),
        { pwned: undefined, elements: 0 },
        `nothing ran in the details of ${id}`,
      );
      const foreign = await details.evaluate(() =>
        [
          ...document.querySelectorAll('img, svg, iframe, object, embed, script:not([nonce]):not(#_vscodeApiScript)'),
        ].map((e) => e.outerHTML.slice(0, 200)),
      );
      assert.deepEqual(foreign, [], 'no element was injected');
    }
    await wb.screenshot('reliability-hostile-details');
    await wb.closeEditors();
  });

  it('the dashboard renders hostile tier, key names and records as text: no script runs, no element is injected, no key', async () => {
    const wb = workbench();
    await wb.runCommand('Open Usage Dashboard');
    const frame = await wb.webviewFrame('[data-meter="calls"]:not(.skeleton-card)', 30_000);
    await wb.waitFor(
      async () => (await frame.locator('#details-table').innerText()).includes('rec_hostile_1'),
      'the hostile records in the table',
      30_000,
    );
    const text = await frame.locator('body').innerText();
    for (const shown of [HOSTILE_TEXT.imgTag, HOSTILE_TEXT.scriptClose, HOSTILE_TEXT.commandLink, HOSTILE_TEXT.emoji]) {
      assert.ok(text.includes(shown), `"${shown.slice(0, 30)}" is on screen as text`);
    }
    const keysText = await frame.locator('#keys-table').innerText();
    assert.ok(keysText.includes(displayText(HOSTILE_TEXT.rtl)), 'the right-to-left key name is shown');
    assert.doesNotMatch(keysText, /[\u202A-\u202E\u2066-\u2069]/, 'without the override that would reverse "evil"');
    assert.ok((await frame.locator('#tier').innerText()).includes(HOSTILE_TEXT.imgTag), 'the tier is shown as text');
    // A hostile field name heads a column in words, as text; the name itself only in attributes.
    const heads = await frame.locator('#details-table th').evaluateAll((ths) =>
      ths.map((th) => ({
        field: th.getAttribute('data-field'),
        title: th.getAttribute('title'),
        elements: th.children.length,
      })),
    );
    const hostile = heads.find((h) => h.field === HOSTILE_TEXT.imgTag);
    assert.ok(hostile, 'a hostile field name is a column heading');
    assert.equal(hostile.title, HOSTILE_TEXT.imgTag, 'the name whole in its tooltip');
    assert.equal(hostile.elements, 0, 'its heading is text: no element in it');
    // Every element of the webview is the dashboard's own (or VS Code's API script): no image, no other script, and no
    // SVG but the trend charts and the per-key trends, which hold only their bars, lines and text titles.
    const foreign = await frame.evaluate(() => [
      ...[
        ...document.querySelectorAll(
          'img, svg:not(.trend-chart):not(.key-spark), iframe, object, embed, script:not([nonce]):not(#_vscodeApiScript)',
        ),
      ].map((e) => e.outerHTML.slice(0, 200)),
      ...[...document.querySelectorAll('svg.trend-chart *, svg.key-spark *')]
        .filter(
          (e) =>
            !['rect', 'line', 'polyline', 'title'].includes(e.localName) ||
            (e.localName === 'title' && e.children.length > 0),
        )
        .map((e) => e.outerHTML.slice(0, 200)),
    ]);
    assert.equal(await frame.locator('svg.trend-chart').count(), 3, 'the three trend charts are there');
    assert.deepEqual(foreign, [], 'no element was injected');
    assert.deepEqual(await injected(frame), { pwned: undefined, elements: 0 }, 'no script ran in the webview');
    for (const outer of wb.page.frames()) {
      if (outer.isDetached()) continue;
      assert.equal(
        await outer.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned).catch(() => undefined),
        undefined,
        `nothing ran in ${outer.url().slice(0, 60)}`,
      );
    }
    const html = await frame.evaluate(() => document.documentElement.outerHTML);
    const { admin } = wb.service.keys;
    assert.ok(!html.includes(admin) && !html.includes(admin.split('.')[1]), 'the key is not in the webview');
    await wb.screenshot('reliability-hostile-dashboard');
  });
});
