import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// What package.json promises a user about where the extension runs, how it greets a new user,
// and where its marketplace page points; and the source files that back the promise.
const root = path.resolve(__dirname, '..', '..', '..');
interface Menu {
  command: string;
  when?: string;
}
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  extensionKind?: string[];
  bugs?: { url?: string };
  homepage?: string;
  repository?: { url: string };
  scripts: Record<string, string>;
  contributes: {
    commands: Array<{ command: string }>;
    menus: { commandPalette: Menu[]; 'view/title': Menu[] };
    viewsWelcome: Array<{ contents: string; when: string }>;
    walkthroughs: Array<{
      id: string;
      steps: Array<{
        id: string;
        description: string;
        media: { markdown?: string; image?: string };
        completionEvents: string[];
      }>;
    }>;
  };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const localise = (value: string) => value.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? value);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(file) : entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe('Manifest: where the extension runs', () => {
  it('may run on the UI side (local, beside VS Code) and falls back to the workspace side', () => {
    assert.deepEqual(pkg.extensionKind, ['ui', 'workspace']);
  });

  it('needs nothing of the machine it runs on: no Node file, process or OS access, no workspace files', () => {
    // Files go through vscode.workspace.fs with a URI the user chose (the export's save dialog),
    // which works on either side of a remote window; nothing reads the workspace's folders.
    const forbidden = [
      /from ['"](node:)?(fs|fs\/promises|child_process|os|worker_threads)['"]/,
      /require\(['"](node:)?(fs|child_process|os)['"]\)/,
      /workspace\.(findFiles|workspaceFolders|rootPath|openTextDocument|getWorkspaceFolder|createFileSystemWatcher)/,
      /process\.(env|cwd)\b/,
    ];
    // The one exception: the export's save dialog starts in the first folder, else the home
    // folder of the side the extension runs on. Only a starting point handed to VS Code's
    // dialog, never read; the user picks the file.
    const allowed = new Map([['src/usage/exporter.ts', [forbidden[0], forbidden[2]]]]);
    const offenders = sources(path.join(root, 'src')).flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const name = path.relative(root, file).split(path.sep).join('/');
      // The MCP server is not the extension: a Node program of its own, started with its environment.
      if (name.startsWith('src/mcp/')) return [];
      return forbidden
        .filter((pattern) => pattern.test(text) && !allowed.get(name)?.includes(pattern))
        .map((pattern) => `${name}: ${pattern}`);
    });
    const exporter = fs.readFileSync(path.join(root, 'src/usage/exporter.ts'), 'utf8');
    assert.equal(
      exporter.match(/workspace\.workspaceFolders|os\.\w+/g)?.length,
      2,
      'the exporter uses the folder and os only for the dialog’s starting point',
    );
    assert.deepEqual(offenders, []);
  });
});

describe('Manifest: first run', () => {
  const walkthrough = pkg.contributes.walkthroughs[0];

  it('has a walkthrough with the steps a new user takes, each with media and a completion event', () => {
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['addEnvironment', 'browse', 'create', 'dashboard', 'alerts', 'askChat'],
    );
    for (const step of walkthrough.steps) {
      const media = step.media.markdown ?? step.media.image ?? '';
      assert.ok(
        media.startsWith('media/') && fs.existsSync(path.join(root, media)),
        `${step.id}: media ${media} is packaged and exists`,
      );
      assert.ok(
        step.completionEvents.length > 0 &&
          step.completionEvents.every((e) => /^on(Command|View|SettingChanged|Context):engagementUsage\./.test(e)),
        `${step.id}: completion events ${step.completionEvents.join(', ')}`,
      );
      assert.match(localise(step.description), /\]\(command:/, `${step.id}: its description has a button`);
    }
  });

  it('the welcome view links to the walkthrough through the extension’s own command', () => {
    assert.match(
      localise('%welcome.noEnvironment%'),
      /\[Open the walkthrough\]\(command:engagementUsage\.openWalkthrough\)/,
    );
    const constants = fs.readFileSync(path.join(root, 'src/shared/constants.ts'), 'utf8');
    assert.ok(
      constants.includes('WALKTHROUGH_ID = `${EXTENSION_ID}#' + walkthrough.id + '`'),
      'the command opens the walkthrough of package.json',
    );
  });

  it('each welcome view has at most one button: a line holding only a link; the rest are links in sentences', () => {
    for (const view of pkg.contributes.viewsWelcome) {
      const lines = localise(view.contents).split('\n');
      const buttons = lines.filter((line) => /^\[[^\]]+\]\([^)]+\)$/.test(line.trim()));
      assert.ok(buttons.length <= 1, `${view.when}: ${buttons.length} buttons (${buttons.join(', ')})`);
    }
  });
});

describe('Manifest: conventions', () => {
  const ENVIRONMENT_FREE = new Set([
    'engagementUsage.addEnvironment',
    'engagementUsage.showLogs',
    'engagementUsage.openWalkthrough',
  ]);

  it('hides every command that needs an environment from the Command Palette while there is none', () => {
    const palette = new Map(pkg.contributes.menus.commandPalette.map((m) => [m.command, m.when ?? '']));
    for (const { command } of pkg.contributes.commands) {
      if (ENVIRONMENT_FREE.has(command)) {
        assert.ok(!palette.has(command), `${command} works without an environment and stays in the palette`);
        continue;
      }
      const when = palette.get(command);
      assert.ok(
        when !== undefined &&
          /engagementUsage\.hasEnvironment|engagementUsage\.(filtered|readingAll)|^false$/.test(when),
        `${command}: when "${when}"`,
      );
    }
  });

  it('offers Collapse All in the view title only while the view is grouped', () => {
    const entry = pkg.contributes.menus['view/title'].find((m) => m.command === 'engagementUsage.collapseAll');
    assert.match(entry?.when ?? '', /engagementUsage\.grouped/);
  });
});

describe('Manifest: the walkthrough', () => {
  it('step descriptions use no Markdown but links: VS Code shows backticks, stars and underscores there as written', () => {
    const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const steps = pkg.contributes.walkthroughs.flatMap((w) => w.steps);
    assert.ok(steps.length >= 5);
    for (const step of steps) {
      const text = nls[step.description.replace(/^%|%$/g, '')] ?? step.description;
      assert.doesNotMatch(text.replace(/\[[^\]]*\]\([^)]*\)/g, ''), /[`*]|\b_\w/, step.id);
    }
  });
});

describe('Manifest: the package and its README', () => {
  it('names no placeholder address (the project has no public repository yet)', () => {
    const text = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
    assert.doesNotMatch(text, /example\.com/);
    assert.equal(pkg.repository, undefined);
    assert.equal(pkg.bugs, undefined);
    assert.equal(pkg.homepage, undefined);
    assert.equal(pkg.scripts.package, 'node scripts/package.mjs');
  });

  it("the packaged README carries its pictures inline, as VS Code's extension page shows only https: and data: images", () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'eus-readme-'));
    try {
      const file = path.join(out, 'README.md');
      const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'package.mjs'), '--readme-only', file], {
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, result.stderr);
      const packaged = fs.readFileSync(file, 'utf8');
      const source = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
      const pictures = Array.from(source.matchAll(/(?:!\[[^\]]*\]\(|<img\b[^>]*\bsrc=")(docs\/[^)"]+)/g), (m) => m[1]);
      assert.ok(pictures.length >= 3, `the README shows its pictures: ${pictures.join(', ')}`);
      const inline = Array.from(packaged.matchAll(/data:image\/png;base64,([A-Za-z0-9+/=]+)/g), (m) => m[1]);
      assert.equal(inline.length, pictures.length, 'each picture inline');
      inline.forEach((data, i) =>
        assert.ok(Buffer.from(data, 'base64').equals(fs.readFileSync(path.join(root, pictures[i]))), pictures[i]),
      );
      assert.doesNotMatch(
        packaged,
        /\]\((?!data:|https?:|#)[^)]*\)|src="(?!data:)/,
        'no relative image or link is left',
      );
      assert.match(packaged, /CONTRIBUTING\.md in the extension's source/, "a link to the source's files becomes text");
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('ships the packaged README, not the repository one (.vscodeignore)', () => {
    const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!dist/README.md'));
    assert.ok(!ignore.includes('!README.md'));
  });
});
