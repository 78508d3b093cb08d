// The agent skills the extension contributes to VS Code 1.109+ (`contributes.chatSkills`, issue
// 47): each entry as VS Code reads it (a path inside the extension to a SKILL.md whose folder
// is its `name`), each SKILL.md as the Agent Skills format asks (a front matter with a short
// name and a description), naming only tools the extension has, and shipped: vsce's list of
// the .vsix's files holds them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { chatSkills?: Array<Record<string, unknown>>; languageModelTools: Array<{ name: string }> };
};
const skills = manifest.contributes.chatSkills ?? [];

/** The front matter's `key: value` lines and the body after it. */
function readSkill(file: string): { fields: Record<string, string>; body: string } {
  const text = fs.readFileSync(file, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert.ok(match, `${file} starts with a front matter between --- lines`);
  const fields = Object.fromEntries(
    match[1]
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { fields, body: match[2] };
}

describe('Agent skills (chatSkills) (unit)', function () {
  this.timeout(60_000);

  it('two skills: explain a billing period, triage stale engagements; each entry only a path VS Code accepts', () => {
    assert.deepEqual(
      skills.map((s) => s.path),
      ['./skills/explain-billing-period/SKILL.md', './skills/triage-stale-engagements/SKILL.md'],
    );
    for (const entry of skills) {
      // VS Code 1.139's schema: `path` required, no other property than name, description, when, sessionTypes.
      assert.deepEqual(Object.keys(entry), ['path']);
      const file = path.resolve(ROOT, String(entry.path));
      assert.ok(file.startsWith(`${ROOT}${path.sep}`), 'inside the extension');
      assert.ok(fs.existsSync(file), `${String(entry.path)} exists`);
    }
  });

  it('each SKILL.md: its name is its folder’s, short and plain; a description that says when to use it; only tools the extension has', () => {
    const tools = new Set(manifest.contributes.languageModelTools.map((t) => t.name));
    for (const entry of skills) {
      const file = path.resolve(ROOT, String(entry.path));
      const { fields, body } = readSkill(file);
      assert.equal(fields.name, path.basename(path.dirname(file)), 'the folder name is the skill’s name');
      assert.match(fields.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
      assert.ok(fields.name.length <= 64);
      assert.ok(fields.description.length > 80 && fields.description.length <= 1024, fields.name);
      assert.match(fields.description, /Use when/);
      const named = body.match(/engagementUsage_\w+/g) ?? [];
      assert.ok(named.length >= 2, `${fields.name} uses the tools`);
      for (const tool of named) assert.ok(tools.has(tool), `${fields.name} names ${tool}, a tool of the extension`);
    }
  });

  it('ship in the .vsix (vsce’s list of its files)', () => {
    const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const listed = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim());
    for (const entry of skills) assert.ok(listed.includes(String(entry.path).replace(/^\.\//, '')), String(entry.path));
  });
});
