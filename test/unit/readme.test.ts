import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// The README documents every command and setting of package.json, and nothing that is not
// there: this fails when either side changes without the other.
const root = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    commands: Array<{ command: string; title: string }>;
    configuration: { properties: Record<string, unknown> };
  };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const localise = (value: string) => value.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? value);

describe('README against package.json', () => {
  it('lists every command with its id and title', () => {
    for (const { command, title } of pkg.contributes.commands) {
      assert.ok(readme.includes(`\`${command}\``), `README lacks the command ${command}`);
      assert.ok(readme.includes(localise(title)), `README lacks the title "${localise(title)}" of ${command}`);
    }
  });

  it('lists every setting', () => {
    for (const setting of Object.keys(pkg.contributes.configuration.properties)) {
      assert.ok(readme.includes(`\`${setting}\``), `README lacks the setting ${setting}`);
    }
  });

  it('mentions no command or setting that does not exist', () => {
    const known = new Set([
      ...pkg.contributes.commands.map((c) => c.command),
      ...Object.keys(pkg.contributes.configuration.properties),
    ]);
    const mentioned = [...readme.matchAll(/`(engagementUsage\.[\w.]+)`/g)].map((m) => m[1]);
    const unknown = mentioned.filter((id) => !known.has(id) && !id.startsWith('engagementUsage.apiKey.'));
    assert.deepEqual(unknown, [], 'README names ids that package.json does not contribute');
  });
});

// The packaged README carries its pictures inline (scripts/package.mjs): each costs the .vsix
// about its own size, and the project's target for the .vsix is under 250 KB (about 160 KB of
// it is the extension and the README's text).
describe("README's pictures", () => {
  const pictures = Array.from(
    readme.matchAll(/!\[[^\]]*\]\((docs\/[^)]+)\)|<img\b[^>]*\bsrc="(docs\/[^"]+)"/g),
    (m) => m[1] ?? m[2],
  );

  it('each has a description, for the VS Code that shows descriptions instead (1.139)', () => {
    const bare = [...readme.matchAll(/!\[\]\(|<img\b(?![^>]*\balt="[^"]{10,}")[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(bare, [], 'pictures without a description');
  });

  it('stay small enough for the .vsix: together at most 96 KB (crop them, pngquant 32; see CONTRIBUTING)', () => {
    const sizes = pictures.map((file) => [file, fs.statSync(path.join(root, file)).size] as const);
    const total = sizes.reduce((sum, [, size]) => sum + size, 0);
    assert.ok(pictures.length >= 3, `the README shows its pictures: ${pictures.join(', ')}`);
    assert.ok(total <= 96 * 1024, `${total} bytes: ${sizes.map(([f, s]) => `${f} ${s}`).join(', ')}`);
  });
});
