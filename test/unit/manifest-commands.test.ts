// The commands package.json contributes are exactly the ids of `Commands`, and every id the
// manifest uses elsewhere (menus, keybindings, views' welcome links) is one of them. Together
// with the type check in src/extension.ts (every id of `Commands` has one handler, and no
// handler has another id) this means: each contributed command has a handler, and each
// handler a contribution.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Commands } from '../../src/shared/constants';

const root = path.resolve(__dirname, '..', '..', '..');
const raw = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
const pkg = JSON.parse(raw) as {
  contributes: {
    commands: Array<{ command: string }>;
    menus?: Record<string, Array<{ command?: string }>>;
    keybindings?: Array<{ command: string }>;
  };
};
const ours = (id: string) => id.startsWith('engagementUsage.') && !id.startsWith('engagementUsage.engagements.');

describe('package.json commands against their handlers', () => {
  it('contributes exactly the commands the extension handles', () => {
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(contributed, Object.values(Commands).sort());
    assert.equal(new Set(contributed).size, contributed.length, 'each once');
  });

  it('menus, keybindings and welcome links name only contributed commands', () => {
    const known = new Set<string>(Object.values(Commands));
    const used = [
      ...Object.values(pkg.contributes.menus ?? {}).flatMap((items) => items.map((i) => i.command ?? '')),
      ...(pkg.contributes.keybindings ?? []).map((k) => k.command),
      ...[...raw.matchAll(/command:(engagementUsage\.[A-Za-z.]+)/g)].map((m) => m[1]),
    ].filter(ours);
    assert.ok(used.length > 10, `the manifest was read: ${used.length} uses`);
    for (const id of used) assert.ok(known.has(id), `${id} is used in package.json but has no handler`);
  });
});
